import { defineModule } from '#api/app-module.ts';
import { createGroupsService } from '../groups/groups-service.ts';
import { appCommandsRoutes } from './app-commands-routes.ts';
import { commandBatchesRoutes } from './command-batches-routes.ts';
import { createCommandBatches } from './command-batches-service.ts';
import { createSignatureService } from '../signatures/signature-service.ts';
import { commandsRoutes } from './commands-routes.ts';
import { createCommandsService, expireCommands } from './commands-service.ts';

/**
 * Remote commands to the machines (issue 37, decision 077): the console sends, the machine long-polls
 * and reports; the heartbeat hands pending ones over too, from the shared inbox (app-services.ts).
 * A sweep expires copies whose TTL passed.
 */
export const commandsModule = defineModule({
  name: 'commands',
  async register(app, { db, storage, now, config, commandInbox, mfa }) {
    const commands = createCommandsService({ db, storage, now, inbox: commandInbox });
    await app.register(commandsRoutes, { commands });
    const groups = createGroupsService({ db, now, offlineMinutes: config.deviceOfflineMinutes });
    await app.register(commandBatchesRoutes, {
      batches: createCommandBatches({
        db,
        now,
        groups,
        secondAdminApproval: config.rolloutSecondAdmin,
        signatures: createSignatureService({ db, mfa, now }),
      }),
    });
    await app.register(appCommandsRoutes, {
      commands,
      inbox: commandInbox,
      longPollSeconds: config.deviceLongPollSeconds,
    });
  },
  jobs: (_app, { db, now }) => [
    { name: 'command expiry', everySeconds: 60, run: () => expireCommands(db, now()) },
  ],
});
