import type { FastifyInstance } from 'fastify';
import type { AlarmRule } from '@app/contract/alarms';
import type { Config } from '#api/config.ts';
import type { Db } from '#api/db/client.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import { createMinimumSupportedVersion } from '#api/modules/app-updates/minimum-supported-version.ts';
import { createAlarmDigest } from './alarm-digest.ts';
import { createAlarmEvaluator, startPeriodicJob, type RuleOutcome } from './alarm-evaluator.ts';
import { alarmsRoutes } from './alarms-routes.ts';
import { createAlarmsService } from './alarms-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The periodic alarm jobs, callable at once: tests move the clock and run them. */
    alarmJobs: {
      evaluate: () => Promise<Record<AlarmRule, RuleOutcome>>;
      sendDigests: () => Promise<number>;
    };
  }
}

/**
 * Device health alarms (decision 049): the routes, and the job that checks every rule and sends
 * the daily digests, once at start and then every ALARM_CHECK_SECONDS; stopped (and awaited) on close.
 */
export async function registerAlarms(
  app: FastifyInstance,
  { db, config, now, mailer }: { db: Db; config: Config; now: () => Date; mailer: Mailer },
) {
  const alarms = createAlarmsService({ db, now });
  const digest = createAlarmDigest({
    db,
    now,
    mailer,
    alarmsService: alarms,
    hourUtc: config.alarms.digestHourUtc,
    alarmsUrl: `${config.publicUrl}/admin/alarms`,
  });
  const evaluate = createAlarmEvaluator({
    db,
    now,
    offlineMinutes: config.deviceOfflineMinutes,
    config: config.alarms,
    minimumSupportedVersion: createMinimumSupportedVersion({ config: config.alarms }),
  });
  app.decorate('alarmJobs', { evaluate, sendDigests: digest.sendDue });
  await app.register(alarmsRoutes, { alarms, digest });
  const stop = startPeriodicJob({
    seconds: config.alarms.checkSeconds,
    name: 'alarm checks',
    log: app.log,
    job: async () => {
      await evaluate();
      await digest.sendDue();
    },
  });
  app.addHook('onClose', stop);
}
