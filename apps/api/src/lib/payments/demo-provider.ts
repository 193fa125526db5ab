import { randomBytes } from 'node:crypto';
import type {
  CardOnFile,
  CreatedIntent,
  IntentRequest,
  PaymentProvider,
  PaymentState,
  RetryOutcome,
} from './payment-provider.ts';
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

/**
 * Stripe's 4000 0000 0000 0341: attaching it as the card on file succeeds, charging it fails. The
 * demo's way to show a renewal that fails after the customer changed their card.
 */
const declinesWhenCharged = '4000000000000341';
const declinedMessage = 'Your card was declined.';

export const notATestCardMessage =
  'Your card was declined. The demo payment provider accepts Stripe test cards such as 4242 4242 4242 4242.';

export type DemoOutcome = { ok: true } | { ok: false; message: string };

const digitsOf = (cardNumber: string) => cardNumber.replace(/\D/g, '');

/** Decides a demo payment by card number alone. The number is not kept anywhere. */
export function decideDemoPayment(cardNumber: string): DemoOutcome {
  const digits = digitsOf(cardNumber);
  if (approved.has(digits)) return { ok: true };
  if (digits === declinesWhenCharged) return { ok: false, message: declinedMessage };
  return { ok: false, message: declineMessages[digits] ?? notATestCardMessage };
}

/**
 * Decides a card the customer gives as their card on file (the demo's card-update page), as
 * Stripe's SetupIntent would: a test card that pays is kept, 4000 0000 0000 0341 is kept and declines
 * when charged, any other is refused with its message. Only the last four digits are kept.
 */
export function decideDemoCard(
  cardNumber: string,
): { ok: true; card: CardOnFile } | { ok: false; message: string } {
  const digits = digitsOf(cardNumber);
  const last4 = digits.slice(-4);
  if (approved.has(digits)) return { ok: true, card: { last4, declines: null } };
  if (digits === declinesWhenCharged) return { ok: true, card: { last4, declines: declinedMessage } };
  const refused = decideDemoPayment(digits);
  return { ok: false, message: refused.ok ? notATestCardMessage : refused.message };
}

export type DemoProvider = PaymentProvider & {
  readonly name: 'demo';
  decide: typeof decideDemoPayment;
  decideCard: typeof decideDemoCard;
};

const demoRef = (kind: string) => `demo_${kind}_${randomBytes(12).toString('base64url')}`;

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
    // The plan's state is ours alone (paused, cancelled): nothing to tell a provider.
    async pauseCollection() {},
    async resumeCollection() {},
    async cancelSubscription() {},
    /** Pays unless the card on file declines when charged (none known: the card that paid, which pays). */
    async retryPayment(_ref: string, card: CardOnFile | null): Promise<RetryOutcome> {
      if (card?.declines) return { state: 'failed', message: card.declines };
      return {
        state: 'succeeded',
        paymentRef: demoRef('renewal'),
        periodEnd: null,
        amountCents: null,
        receiptUrl: null,
      };
    },
    // Our public checkout has the demo's card-update page, and the demo's receipts are our own page.
    async cardUpdateUrl() {
      return null;
    },
    async receiptUrl() {
      return null;
    },
    decide: decideDemoPayment,
    decideCard: decideDemoCard,
  };
}
