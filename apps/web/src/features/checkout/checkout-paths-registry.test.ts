import { describe, expect, it } from 'vitest';
import { paths } from '#web/lib/paths.ts';
import { successPath } from './checkout-config.ts';
import { cancelPath, checkoutPageOf, planIdOf } from './checkout-paths.ts';
import { showPaymentOutcome } from './pages/payment-outcome-page.ts';

/*
 * The checkout keeps its own paths so its pages load nothing of the console (docs/decisions/028);
 * these tests hold them to the console's route registry.
 */
describe('checkout paths and the console registry', () => {
  it('reads a plan link the console builds', () => {
    const href = paths.plans.href({ id: 'Lnk 01/x' });
    expect(checkoutPageOf(href)).toBe('plans');
    expect(planIdOf(href)).toBe('Lnk 01/x');
  });

  it('sends the customer to the registry’s /success and /cancel', () => {
    const success = new URL(successPath('sub 1&2'), 'http://localhost');
    const expected = new URL(paths.paymentSuccess.href({ subscription: 'sub 1&2' }), 'http://localhost');
    expect(success.pathname).toBe(expected.pathname);
    expect(success.searchParams.get('subscription')).toBe(expected.searchParams.get('subscription'));
    expect(checkoutPageOf(success.pathname)).toBe('success');
    expect(cancelPath).toBe(paths.paymentCancel.href());
    expect(checkoutPageOf(cancelPath)).toBe('cancel');
  });

  it('links /cancel back to the console’s subscriptions screen', () => {
    const container = document.createElement('div');
    showPaymentOutcome(container, 'cancel', new URL('http://localhost/cancel') as unknown as Location);
    const link = container.querySelector('a');
    expect(link?.textContent).toBe('Back to Subscriptions');
    expect(link?.getAttribute('href')).toBe(paths.subscriptions.href());
  });
});
