import { defineModule } from '#api/app-module.ts';
import { recordHistoryRoutes } from './record-history-routes.ts';
import { createRecordHistoryService } from './record-history-service.ts';

/**
 * The change history of the regulated records, read on each record's page (decision 081); the
 * database writes it (migration 0049), the services name who acts (lib/record-history.ts).
 */
export const recordHistoryModule = defineModule({
  name: 'record-history',
  register: (app, { db }) =>
    app.register(recordHistoryRoutes, { history: createRecordHistoryService({ db }) }),
});
