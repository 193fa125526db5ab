import { subscriptionStatuses, type SubscriptionStatus } from '@app/contract/subscriptions';

/** Stripe retries a failed renewal for a few days; a recurring plan is not called Expired before that. */
export const renewalGraceMs = 3 * 24 * 3600_000;

type StatusRow = { status: number; expiredAt: Date; isRecurring: boolean };

/**
 * The status as of `now`: an unpaid (Pending or Failed) link whose expiry has passed is Expired,
 * and so is a recurring plan whose paid period ended more than the grace ago, even before the
 * periodic sweep has written it down.
 */
export function effectiveStatus(row: StatusRow, now: Date): SubscriptionStatus {
  const { pending, complete, expired, failed } = subscriptionStatuses;
  const lapsed = row.expiredAt.getTime() <= now.getTime();
  if ((row.status === pending || row.status === failed) && lapsed) return expired;
  if (row.status === complete && row.isRecurring && row.expiredAt.getTime() + renewalGraceMs <= now.getTime())
    return expired;
  return row.status as SubscriptionStatus;
}
