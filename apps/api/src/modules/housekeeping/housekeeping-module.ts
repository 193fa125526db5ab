import { defineModule } from '#api/app-module.ts';
import { createHousekeeping } from './housekeeping-service.ts';

/**
 * Retention of housekeeping rows (issue 36, decision 072): every HOUSEKEEPING_SECONDS, ended
 * sessions, spent password resets and enrolment codes, old mail and old payment events are removed
 * in small batches, safely on several instances at once. No routes.
 */
export const housekeepingModule = defineModule({
  name: 'housekeeping',
  register: async () => {},
  jobs: (_app, { db, now, log, config }) => {
    const housekeeping = createHousekeeping({
      db,
      now,
      log,
      config: config.housekeeping,
      mailMaxAttempts: config.mailMaxAttempts,
    });
    return [{ name: 'housekeeping', everySeconds: config.housekeeping.everySeconds, run: housekeeping.run }];
  },
});
