import { and, eq, gt, lte, or, sql, type SQL } from 'drizzle-orm';
import { subscriptionStatuses, type SubscriptionStatus } from '@app/contract/checkout';
import { subscriptions as s } from '#api/db/schema/subscriptions.ts';
import { containsPattern } from '#api/lib/pagination.ts';
import { renewalGraceMs } from './subscription-status.ts';

const { pending, complete, expired, failed } = subscriptionStatuses;
const dayMs = 24 * 3600_000;

/**
 * The SQL twin of `effectiveStatus`: a row has status `status` as of `at` exactly when the list
 * would show it so (an unpaid link past its expiry is Expired; so is a recurring plan past its
 * renewal grace). Pending and Failed are ranges on the (status, expired_at) index.
 */
export function statusAt(status: SubscriptionStatus, at: Date): SQL {
  const lapsedPlan = and(eq(s.isRecurring, true), lte(s.expiredAt, new Date(at.getTime() - renewalGraceMs)));
  switch (status) {
    case pending:
    case failed:
      return and(eq(s.status, status), gt(s.expiredAt, at))!;
    case complete:
      return and(eq(s.status, complete), sql`not coalesce(${lapsedPlan}, false)`)!;
    case expired:
      return or(
        eq(s.status, expired),
        and(sql`${s.status} in (${pending}, ${failed})`, lte(s.expiredAt, at)),
        and(eq(s.status, complete), lapsedPlan),
      )!;
  }
}

/**
 * Expiring within `days`: a Pending link about to lapse, or a paid recurring plan whose period ends
 * (a one-time payment's expiry is only its link's, meaningless once paid).
 */
export function expiringWithin(days: number, at: Date): SQL {
  const soon = new Date(at.getTime() + days * dayMs);
  return and(
    gt(s.expiredAt, at),
    lte(s.expiredAt, soon),
    or(eq(s.status, pending), and(eq(s.status, complete), eq(s.isRecurring, true))),
  )!;
}

/** The list's filters from its query (both optional, combined). */
export const subscriptionFilter = (
  q: { status?: SubscriptionStatus; expiresWithin?: number; search?: string },
  at: Date,
): SQL | undefined =>
  and(
    q.status === undefined ? undefined : statusAt(q.status, at),
    q.expiresWithin === undefined ? undefined : expiringWithin(q.expiresWithin, at),
    q.search
      ? or(
          sql`${s.fullName} ilike ${containsPattern(q.search)}`,
          sql`${s.email} ilike ${containsPattern(q.search)}`,
          sql`${s.machineSerialNumber} ilike ${containsPattern(q.search)}`,
        )
      : undefined,
  );
