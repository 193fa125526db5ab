import { desc, inArray } from 'drizzle-orm';
import { subscriptionStatuses, type SubscriptionStatus } from '@app/contract/subscriptions';
import type { Db } from '../../db/client.ts';
import { subscriptions } from '../../db/schema/subscriptions.ts';

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

export type DeviceSubscriptionDetail = {
  _id: string;
  status: SubscriptionStatus;
  createdAt: string;
  expiredAt: string;
  isRecurring: boolean;
  planType: 'month' | 'year' | null;
  amount: number;
};

/**
 * The subscriptions of each serial number, newest first (docs/product.md §3.2 "Device": the first one is shown).
 * For the device pages: one indexed query for a page of devices.
 */
export async function subscriptionsBySerial(
  db: Db,
  serialNumbers: string[],
  now: Date,
): Promise<Map<string, DeviceSubscriptionDetail[]>> {
  const bySerial = new Map<string, DeviceSubscriptionDetail[]>();
  if (serialNumbers.length === 0) return bySerial;
  const rows = await db
    .select()
    .from(subscriptions)
    .where(inArray(subscriptions.machineSerialNumber, [...new Set(serialNumbers)]))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  for (const row of rows) {
    const list = bySerial.get(row.machineSerialNumber) ?? [];
    list.push({
      _id: row.id,
      status: effectiveStatus(row, now),
      createdAt: row.createdAt.toISOString(),
      expiredAt: row.expiredAt.toISOString(),
      isRecurring: row.isRecurring,
      planType: row.planType ?? null,
      amount: row.amountCents / 100,
    });
    bySerial.set(row.machineSerialNumber, list);
  }
  return bySerial;
}
