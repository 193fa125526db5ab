import { desc, inArray, sql } from 'drizzle-orm';
import type { SubscriptionSummary } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';

/** Subscriptions of these devices, newest first, keyed by lower-cased serial number. */
export async function subscriptionsBySerial(
  db: Db,
  serialNumbers: string[],
  now: Date,
): Promise<Map<string, SubscriptionSummary[]>> {
  const bySerial = new Map<string, SubscriptionSummary[]>();
  if (serialNumbers.length === 0) return bySerial;
  const keys = [...new Set(serialNumbers.map((s) => s.toLowerCase()))];
  const rows = await db
    .select({
      id: subscriptions.id,
      serial: sql<string>`lower(${subscriptions.machineSerialNumber})`,
      status: subscriptions.status,
      createdAt: subscriptions.createdAt,
      expiredAt: subscriptions.expiredAt,
      isRecurring: subscriptions.isRecurring,
      planType: subscriptions.planType,
      amountCents: subscriptions.amountCents,
    })
    .from(subscriptions)
    .where(inArray(sql`lower(${subscriptions.machineSerialNumber})`, keys))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  const at = now.getTime();
  for (const row of rows) {
    const status = row.status === 1 && row.expiredAt.getTime() < at ? 3 : row.status;
    const list = bySerial.get(row.serial) ?? [];
    list.push({
      _id: row.id,
      status,
      createdAt: row.createdAt.toISOString(),
      expiredAt: row.expiredAt.toISOString(),
      isRecurring: row.isRecurring,
      planType: row.planType,
      amount: row.amountCents / 100,
    });
    bySerial.set(row.serial, list);
  }
  return bySerial;
}
