import { defineModule } from '#api/app-module.ts';
import { createSignatureService } from '../signatures/signature-service.ts';
import { erasureRoutes } from './erasure-routes.ts';
import { createErasureService } from './erasure-service.ts';

/**
 * Erasure requests (issue 38 item 4, GDPR Art. 17, decision 085): recorded, decided once with an
 * electronic signature (decision 083), and carried out everywhere the patient appears.
 */
export const erasureModule = defineModule({
  name: 'erasure',
  register: (app, { db, mfa, now }) => {
    const signatures = createSignatureService({ db, mfa, now });
    return app.register(erasureRoutes, {
      erasure: createErasureService({
        db,
        now,
        signing: {
          sign: (tx, signer, recordId, content, input) =>
            signatures.sign(tx, signer, { recordType: 'erasure-decision', recordId, content, input }),
          signaturesOf: (ids) => signatures.listFor('erasure-decision', ids),
        },
      }),
    });
  },
});
