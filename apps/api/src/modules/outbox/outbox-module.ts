import { defineModule } from '#api/app-module.ts';
import { outboxRoutes } from './outbox-routes.ts';
import { createOutboxService } from './outbox-service.ts';

/** The Outbox screen's API: every mail the server sent or is trying to send, and "Send again". */
export const outboxModule = defineModule({
  name: 'outbox',
  register: (app, { db, now, config }) =>
    app.register(outboxRoutes, {
      outbox: createOutboxService({ db, now }),
      delivers: Boolean(config.smtpUrl),
    }),
});
