import { randomBytes } from 'node:crypto';
import type { CreatedIntent, IntentRequest, PaymentProvider, PaymentState } from './payment-provider.ts';
import { WebhookSignatureError } from './payment-provider.ts';

/**
 * Stripe's published test card numbers decide the outcome, so the demo behaves like Stripe in test
 * mode. Any other (Luhn-valid) number is declined: the demo must never look like it took a real card.
 */
const approved = new Set([
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '5105105105105100',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '3056930009020004',
  '36227206271667',
  '3566002020360505',
  '6200000000000005',
]);

const declineMessages: Record<string, string> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000009987': 'Your card was declined.',
  '4000000000009979': 'Your card was declined.',
  '4100000000000019': 'Your card was declined.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
  '4000000000000119': 'An error occurred while processing your card. Try again in a little bit.',
};

export const notATestCardMessage =
  'Your card was declined. The demo payment provider accepts Stripe test cards such as 4242 4242 4242 4242.';

export type DemoOutcome = { ok: true } | { ok: false; message: string };

/** Decides a demo payment by card number alone. The number is not kept anywhere. */
export function decideDemoPayment(cardNumber: string): DemoOutcome {
  const digits = cardNumber.replace(/\D/g, '');
  if (approved.has(digits)) return { ok: true };
  return { ok: false, message: declineMessages[digits] ?? notATestCardMessage };
}

export type DemoProvider = PaymentProvider & { readonly name: 'demo'; decide: typeof decideDemoPayment };

/** The built-in provider: no network. Our database is the only record of a demo payment. */
export function createDemoProvider(): DemoProvider {
  return {
    name: 'demo',
    async createIntent(_request: IntentRequest): Promise<CreatedIntent> {
      const ref = `demo_pi_${randomBytes(12).toString('base64url')}_secret_${randomBytes(18).toString('base64url')}`;
      return { ref, clientSecret: ref };
    },
    async resumeIntent(ref: string): Promise<CreatedIntent | null> {
      return ref.startsWith('demo_pi_') ? { ref, clientSecret: ref } : null;
    },
    async retrieveState(): Promise<PaymentState> {
      return { state: 'pending' };
    },
    async cancel() {},
    async parseWebhook(): Promise<never> {
      throw new WebhookSignatureError('the demo provider sends no webhooks');
    },
    decide: decideDemoPayment,
  };
}
