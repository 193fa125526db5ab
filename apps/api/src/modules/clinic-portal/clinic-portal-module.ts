import { defineModule } from '#api/app-module.ts';
import { createPaymentProvider } from '#api/lib/payments/create-payment-provider.ts';
import { createSignatureService } from '../signatures/signature-service.ts';
import { createSubscriptionOperations } from '../subscriptions/subscription-operations.ts';
import { createSubscriptionPage } from '../subscriptions/subscription-page.ts';
import { createActivityService } from './activity-service.ts';
import { createBillingService } from './billing-service.ts';
import { clinicPortalRoutes } from './clinic-portal-routes.ts';
import { createFiguresService } from './figures-service.ts';
import { createMachinesService } from './machines-service.ts';

/**
 * The clinic portal's pages (issue 39 item 5): the clinic's machines, treatment figures, billing and
 * monthly usage, and the manager's view of its activity, each read in the signed-in clinic user's
 * row-level-security scope (decision 090).
 * Paying and the receipts use the subscriptions module's own operations (decision 091).
 */
export const clinicPortalModule = defineModule({
  name: 'clinic-portal',
  async register(app, { db, now, config, log, licences, mailer, mfa }) {
    const provider = createPaymentProvider(config);
    const deps = {
      db,
      licences,
      mailer,
      provider,
      publicUrl: config.publicUrl,
      linkDays: config.subscriptionLinkDays,
      now,
      log,
    };
    const { retry } = createSubscriptionOperations(deps);
    const signatures = createSignatureService({ db, mfa, now });
    const { receipt, demoCardUpdate } = createSubscriptionPage({ ...deps, signatures });
    await app.register(clinicPortalRoutes, {
      machines: createMachinesService({ db, now, offlineMinutes: config.deviceOfflineMinutes }),
      figures: createFiguresService({ db, now }),
      billing: createBillingService({
        db,
        now,
        publicUrl: config.publicUrl,
        provider,
        operations: { retry, receipt, demoCardUpdate },
        log,
      }),
      activity: createActivityService({ db, now }),
    });
  },
});
