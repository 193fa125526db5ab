import { describe, expect, it } from 'vitest';
import { demoCardFormSchema, expiryInFuture, luhnValid } from './demo-card.ts';
import { createSubscriptionSchema, subscriptionStatusLabel } from './subscriptions.ts';

describe('the subscription form schema', () => {
  const base = { fullName: 'Ada', email: 'ada@example.com', machineSerialNumber: 'SN-1', amount: '49.90' };

  it('reads the form strings as a number and a boolean and drops planType for One Time', () => {
    expect(createSubscriptionSchema.parse({ ...base, isRecurring: 'false', planType: 'month' })).toEqual({
      ...base,
      amount: 49.9,
      isRecurring: false,
    });
    expect(createSubscriptionSchema.parse({ ...base, isRecurring: true, planType: 'year' })).toEqual({
      ...base,
      amount: 49.9,
      isRecurring: true,
      planType: 'year',
    });
  });

  it('refuses an amount that rounds to 0 cents, however small (found by the fuzz suite)', () => {
    for (const amount of [1e-9, 0.004, 0.001]) {
      const result = createSubscriptionSchema.safeParse({ ...base, amount, isRecurring: false });
      expect(result.success, String(amount)).toBe(false);
      expect(result.error!.issues[0]!.message).toBe('Amount can have at most 2 decimal places');
    }
    expect(createSubscriptionSchema.parse({ ...base, amount: 0.01, isRecurring: false }).amount).toBe(0.01);
  });

  it('reports the plan type together with the other fields', () => {
    const result = createSubscriptionSchema.safeParse({
      ...base,
      amount: 'x',
      isRecurring: 'true',
      planType: '',
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining(['Amount must be a number', 'Plan type is required']),
    );
  });
});

describe('card checks of the demo provider', () => {
  it('knows Luhn-valid numbers', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('42424242')).toBe(false);
    expect(luhnValid('4242x24242424242')).toBe(false);
  });

  it('treats MM/YY as good through the last day of that month', () => {
    expect(expiryInFuture('03/25', new Date('2025-03-31T23:59:59Z'))).toBe(true);
    expect(expiryInFuture('03/25', new Date('2025-04-01T00:00:00Z'))).toBe(false);
    expect(expiryInFuture('3/25', new Date('2020-01-01'))).toBe(false);
  });

  it('strips spaces and dashes from the card number', () => {
    const parsed = demoCardFormSchema.parse({
      cardNumber: '4242 4242-4242 4242',
      expiry: '12/49',
      cvc: '123',
    });
    expect(parsed.cardNumber).toBe('4242424242424242');
  });
});

it('labels statuses 1 to 4 and shows N/A for anything else', () => {
  expect([1, 2, 3, 4, 5, null].map(subscriptionStatusLabel)).toEqual([
    'Pending',
    'Complete',
    'Expired',
    'Failed',
    'N/A',
    'N/A',
  ]);
});
