import { defineModule } from '#api/app-module.ts';
import { createGroupsService } from '../groups/groups-service.ts';
import { createSignatureService } from '../signatures/signature-service.ts';
import { noticeAcknowledgementRoutes } from './notice-acknowledgement-routes.ts';
import { createNoticeAcknowledgements } from './notice-acknowledgement.ts';
import { safetyNoticesRoutes } from './safety-notices-routes.ts';
import { createSafetyNoticesService } from './safety-notices-service.ts';

/**
 * Field safety notices (issue 38 item 6, decision 084): drafted, sent (signed) to the clinics of the
 * affected machines through the outbox, acknowledged through the mailed link, followed per machine.
 */
export const safetyNoticesModule = defineModule({
  name: 'safety-notices',
  async register(app, { db, now, mailer, config, mfa }) {
    const groups = createGroupsService({ db, now, offlineMinutes: config.deviceOfflineMinutes });
    const signatures = createSignatureService({ db, mfa, now });
    const signatureOf = async (id: string) =>
      (await signatures.listFor('field-safety-notice', [id])).get(id)?.at(-1) ?? null;
    await app.register(safetyNoticesRoutes, {
      notices: createSafetyNoticesService({
        db,
        now,
        mailer,
        groups,
        publicUrl: config.publicUrl,
        signatureOf,
      }),
      signatures,
    });
    await app.register(noticeAcknowledgementRoutes, {
      acknowledgements: createNoticeAcknowledgements({ db, now }),
    });
  },
});
