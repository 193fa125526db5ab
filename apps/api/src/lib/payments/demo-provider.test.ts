import { describe, expect, it } from 'vitest';
import {
  createDemoProvider,
  decideDemoCard,
  decideDemoPayment,
  notATestCardMessage,
} from './demo-provider.ts';

/* The demo provider's plan operations (issue 34 item 5): offline, decided by Stripe's test cards. */

describe('the demo provider', () => {
  it('keeps a paying test card, and 4000 0000 0000 0341 that declines when charged, as the card on file', () => {
    expect(decideDemoCard('4242 4242 4242 4242')).toEqual({
      ok: true,
      card: { last4: '4242', declines: null },
    });
    expect(decideDemoCard('4000-0000-0000-0341')).toEqual({
      ok: true,
      card: { last4: '0341', declines: 'Your card was declined.' },
    });
    expect(decideDemoCard('4000000000009995')).toEqual({
      ok: false,
      message: 'Your card has insufficient funds.',
    });
    expect(decideDemoCard('4111111111111111')).toEqual({ ok: false, message: notATestCardMessage });
    // Paying with it at the checkout is declined, as Stripe charges it.
    expect(decideDemoPayment('4000000000000341')).toEqual({ ok: false, message: 'Your card was declined.' });
  });

  it('pays a retried renewal unless the card on file declines when charged', async () => {
    const demo = createDemoProvider();
    const paid = await demo.retryPayment('demo_pi_x', { last4: '4242', declines: null });
    expect(paid).toMatchObject({ state: 'succeeded', periodEnd: null, receiptUrl: null });
    expect(paid.state === 'succeeded' && paid.paymentRef).toMatch(/^demo_renewal_[\w-]{16}$/);
    expect(await demo.retryPayment('demo_pi_x', null)).toMatchObject({ state: 'succeeded' });
    expect(
      await demo.retryPayment('demo_pi_x', { last4: '0341', declines: 'Your card was declined.' }),
    ).toEqual({
      state: 'failed',
      message: 'Your card was declined.',
    });
  });

  it('has no page of its own for a card update or a receipt (ours serve both)', async () => {
    const demo = createDemoProvider();
    expect(await demo.cardUpdateUrl('demo_pi_x', 'http://x')).toBeNull();
    expect(await demo.receiptUrl('demo_pi_x')).toBeNull();
    await expect(demo.pauseCollection('demo_pi_x', new Date())).resolves.toBeUndefined();
    await expect(demo.cancelSubscription('demo_pi_x', false)).resolves.toBeUndefined();
  });
});
