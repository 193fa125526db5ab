import { defineModule } from '#api/app-module.ts';
import type { AppServices } from '#api/app-services.ts';
import { createLegalHolds } from './legal-holds-service.ts';
import { retentionRoutes } from './retention-routes.ts';
import { retentionSchedule } from './retention-schedule.ts';
import { createRetention } from './retention-service.ts';

/**
 * Retention (issue 38 item 3, decision 086): the schedule per record type, legal holds, and the
 * daily run (RETENTION_SECONDS) that removes what is past its period, once across instances on the
 * job queue, and writes its counts to the audit trail. Housekeeping's hourly pass (decision 072)
 * goes on between runs; the run includes it, with the same remover.
 */
export const retentionModule = defineModule({
  name: 'retention',
  register: (app, services) =>
    app.register(retentionRoutes, {
      schedule: () =>
        retentionSchedule({
          retention: services.config.retention,
          housekeeping: services.config.housekeeping,
        }),
      retention: retentionOf(services),
      holds: createLegalHolds({ db: services.db, now: services.now }),
    }),
  jobs: (_app, services) => [
    {
      name: 'retention',
      everySeconds: services.config.retention.everySeconds,
      run: retentionOf(services).run,
    },
  ],
});

function retentionOf({ db, now, log, config }: AppServices) {
  return createRetention({
    db,
    now,
    log,
    config: config.retention,
    housekeeping: config.housekeeping,
    mailMaxAttempts: config.mailMaxAttempts,
  });
}
