import { desc, sql } from 'drizzle-orm';
import type { SubscriptionSummary } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';

// One statement for any number of serials (an array parameter), prepared once per database.
const prepared = new WeakMap<Db, ReturnType<typeof buildQuery>>();
const buildQuery = (db: Db) =>
  db
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
    .where(sql`lower(${subscriptions.machineSerialNumber}) = any(${sql.placeholder('serials')}::text[])`)
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
    .prepare('subscriptions_by_serial');

/** Subscriptions of these devices, newest first, keyed by lower-cased serial number. */
export async function subscriptionsBySerial(
  db: Db,
  serialNumbers: string[],
  now: Date,
): Promise<Map<string, SubscriptionSummary[]>> {
  const bySerial = new Map<string, SubscriptionSummary[]>();
  if (serialNumbers.length === 0) return bySerial;
  const serials = [...new Set(serialNumbers.map((s) => s.toLowerCase()))];
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = buildQuery(db)));
  const rows = await query.execute({ serials });
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
