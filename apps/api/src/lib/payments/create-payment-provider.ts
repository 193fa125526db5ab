import type { Config } from '#api/config.ts';
import { createDemoProvider } from './demo-provider.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { createStripeProvider } from './stripe-provider.ts';

/** PAYMENT_PROVIDER picks one; config has already refused `stripe` without a secret key. */
export function createPaymentProvider(
  config: Pick<Config, 'paymentProvider' | 'stripeSecretKey' | 'stripeWebhookSecret' | 'stripeApiUrl'>,
): PaymentProvider {
  if (config.paymentProvider === 'stripe') {
    return createStripeProvider({
      secretKey: config.stripeSecretKey!,
      webhookSecret: config.stripeWebhookSecret,
      apiUrl: config.stripeApiUrl,
    });
  }
  return createDemoProvider();
}
