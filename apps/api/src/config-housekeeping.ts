import { z } from 'zod';

/** Stripe retries an undelivered event for up to 3 days: its id must be remembered longer (decision 072). */
const minPaymentEventRetentionDays = 7;

/**
 * The environment variables of housekeeping (modules/housekeeping, decision 072): how often ended
 * sessions, spent codes, old mail and old payment events are removed, and how long the last two stay.
 */
export const housekeepingEnv = {
  // How often the retention job runs; 0: never.
  HOUSEKEEPING_SECONDS: z.coerce.number().int().min(0, 'must be at least 0').max(86_400).default(3_600),
  // Days a delivered (or given-up) mail stays in the outbox; 0: kept forever.
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(0, 'must be at least 0').max(3_650).default(30),
  // Days a processed payment event's id is kept (a replay is recognised); 0: kept forever.
  PAYMENT_EVENT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .max(3_650)
    .refine((days) => days === 0 || days >= minPaymentEventRetentionDays, {
      message: `must be 0 (kept forever) or at least ${minPaymentEventRetentionDays}: Stripe retries an event for up to 3 days`,
    })
    .default(30),
};
type HousekeepingEnv = z.infer<z.ZodObject<typeof housekeepingEnv>>;

export type HousekeepingConfig = Readonly<{
  /** How often the retention job runs; 0: never. */
  everySeconds: number;
  /** Days a sent, printed or given-up mail stays in the outbox; 0: forever. */
  mailRetentionDays: number;
  /** Days a processed payment event is remembered; 0: forever. */
  paymentEventRetentionDays: number;
}>;

export const housekeepingConfig = (e: HousekeepingEnv): HousekeepingConfig => ({
  everySeconds: e.HOUSEKEEPING_SECONDS,
  mailRetentionDays: e.MAIL_RETENTION_DAYS,
  paymentEventRetentionDays: e.PAYMENT_EVENT_RETENTION_DAYS,
});
