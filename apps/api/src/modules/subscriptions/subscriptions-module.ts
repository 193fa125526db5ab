import { defineModule } from '#api/app-module.ts';
import { createPaymentProvider } from '#api/lib/payments/create-payment-provider.ts';
import { subscriptionsRoutes } from './subscriptions-routes.ts';
import { createSubscriptionsService } from './subscriptions-service.ts';

/**
 * Subscriptions and their payment links, the public checkout and the payment provider's webhook;
 * the sweep reconciles open checkouts with the provider and ends lapsed subscriptions.
 */
export const subscriptionsModule = defineModule({
  name: 'subscriptions',
  async register(app, { db, mailer, config, now, log, licences }) {
    const subscriptions = createSubscriptionsService({
      db,
      licences,
      mailer,
      provider: createPaymentProvider(config),
      publicUrl: config.publicUrl,
      linkDays: config.subscriptionLinkDays,
      now,
      log,
    });
    app.decorate('subscriptions', subscriptions);
    await app.register(subscriptionsRoutes, { subscriptions });
  },
  jobs: (app, { config }) => [
    {
      name: 'subscription sweep',
      everySeconds: config.subscriptionSweepSeconds,
      run: () => app.subscriptions.sweep(),
    },
  ],
});
