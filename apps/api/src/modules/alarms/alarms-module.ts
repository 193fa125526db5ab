import type { AlarmRule } from '@app/contract/alarms';
import { defineModule } from '#api/app-module.ts';
import { createMinimumSupportedVersion } from '#api/modules/app-updates/minimum-supported-version.ts';
import { createAlarmDigest } from './alarm-digest.ts';
import { createAlarmEvaluator, type RuleOutcome } from './alarm-evaluator.ts';
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
 * the daily digests, once at start and then every ALARM_CHECK_SECONDS.
 */
export const alarmsModule = defineModule({
  name: 'alarms',
  async register(app, { db, config, now, mailer }) {
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
  },
  jobs: (app, { config }) => [
    {
      name: 'alarm checks',
      everySeconds: config.alarms.checkSeconds,
      atStart: true,
      run: async () => {
        await app.alarmJobs.evaluate();
        await app.alarmJobs.sendDigests();
      },
    },
  ],
});
