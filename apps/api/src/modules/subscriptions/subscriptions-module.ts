import { defineModule } from '#api/app-module.ts';
import { createPaymentProvider } from '#api/lib/payments/create-payment-provider.ts';
import { createSubscriptionOperations } from './subscription-operations.ts';
import { createSubscriptionPage } from './subscription-page.ts';
import { createSubscriptionExtension } from './subscription-extension.ts';
import { createSignatureService } from '../signatures/signature-service.ts';
import { subscriptionOperationsRoutes } from './subscription-operations-routes.ts';
import { subscriptionsRoutes } from './subscriptions-routes.ts';
import { createSubscriptionsService } from './subscriptions-service.ts';

/**
 * Subscriptions and their payment links, the public checkout and the payment provider's webhook;
 * the subscription page's operations (subscription-operations.ts); the sweep reconciles open checkouts with the provider and ends lapsed subscriptions.
 */
export const subscriptionsModule = defineModule({
  name: 'subscriptions',
  async register(app, { db, mailer, config, now, log, licences, mfa }) {
    const deps = {
      db,
      licences,
      mailer,
      provider: createPaymentProvider(config),
      publicUrl: config.publicUrl,
      linkDays: config.subscriptionLinkDays,
      now,
      log,
    };
    const subscriptions = createSubscriptionsService(deps);
    const signatures = createSignatureService({ db, mfa, now });
    app.decorate('subscriptions', subscriptions);
    await app.register(subscriptionsRoutes, { subscriptions });
    await app.register(subscriptionOperationsRoutes, {
      operations: {
        ...createSubscriptionOperations(deps),
        ...createSubscriptionPage({ ...deps, signatures }),
        // Extending the paid-through date is signed (decision 083).
        ...createSubscriptionExtension({ ...deps, signatures }),
      },
    });
  },
  jobs: (app, { config }) => [
    {
      name: 'subscription sweep',
      everySeconds: config.subscriptionSweepSeconds,
      run: () => app.subscriptions.sweep(),
    },
  ],
});
