// The built-in demo provider's card form (ours: Stripe-like messages). Card data is never stored.
import { z } from 'zod';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';
import { subscriptionIdField } from './subscriptions.ts';

export const demoCardMessages = {
  cardNumberRequired: 'Card number is required',
  cardNumberInvalid: 'Your card number is invalid.',
  expiryRequired: 'Expiry date is required',
  expiryFormat: 'Expiry date must be MM/YY',
  expiryPast: "Your card's expiry date is in the past.",
  cvcRequired: 'CVC is required',
  cvcInvalid: 'CVC must be 3 or 4 digits',
  clientSecretRequired: 'clientSecret is required',
} as const;

/** The Luhn checksum every real card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** MM/YY is good through the last day of that month. */
export function expiryInFuture(expiry: string, now: Date): boolean {
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry);
  if (!m) return false;
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  const firstOfNext = Date.UTC(year, month, 1);
  return now.getTime() < firstOfNext;
}

const cardNumberField = z
  .string({
    error: (i) =>
      i.input == null ? demoCardMessages.cardNumberRequired : demoCardMessages.cardNumberInvalid,
  })
  .max(40, demoCardMessages.cardNumberInvalid)
  .transform((s) => s.replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .min(1, demoCardMessages.cardNumberRequired)
      .refine(luhnValid, demoCardMessages.cardNumberInvalid),
  );
const expiryField = z
  .string({
    error: (i) => (i.input == null ? demoCardMessages.expiryRequired : demoCardMessages.expiryFormat),
  })
  .trim()
  .min(1, demoCardMessages.expiryRequired)
  .max(16, demoCardMessages.expiryFormat)
  .regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, demoCardMessages.expiryFormat);
const cvcField = z
  .string({ error: (i) => (i.input == null ? demoCardMessages.cvcRequired : demoCardMessages.cvcInvalid) })
  .trim()
  .min(1, demoCardMessages.cvcRequired)
  .max(8, demoCardMessages.cvcInvalid)
  .regex(/^\d{3,4}$/, demoCardMessages.cvcInvalid);

/** The demo card form; the future-expiry rule runs against the browser's clock here and the server's there. */
export const demoCardFormSchema = strictObject({
  cardNumber: cardNumberField,
  expiry: expiryField,
  cvc: cvcField,
}).superRefine((v, ctx) => {
  if (!expiryInFuture(v.expiry, new Date()))
    ctx.addIssue({ code: 'custom', path: ['expiry'], message: demoCardMessages.expiryPast });
});
export type DemoCardInput = z.input<typeof demoCardFormSchema>;

export const demoPayBodySchema = strictObject({
  subcriptionId: subscriptionIdField,
  clientSecret: z
    .string({ error: demoCardMessages.clientSecretRequired })
    .min(1, demoCardMessages.clientSecretRequired)
    .max(200),
  cardNumber: cardNumberField,
  expiry: expiryField,
  cvc: cvcField,
});
export const demoPayResponseSchema = envelope(z.object({ status: z.literal('succeeded') }));
