import { desc, sql, type AnyColumn } from 'drizzle-orm';
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
      paidThrough: subscriptions.paidThrough,
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
    const list = bySerial.get(row.serial) ?? [];
    list.push(toSubscriptionSummary(row, at));
    bySerial.set(row.serial, list);
  }
  return bySerial;
}

type SubscriptionRow = {
  id: string;
  status: number;
  createdAt: Date;
  expiredAt: Date;
  isRecurring: boolean;
  planType: SubscriptionSummary['planType'];
  amountCents: number;
  paidThrough: Date | null;
};

/** An unpaid link past its expiry reads as Expired (3). `at`: now in ms. */
export function toSubscriptionSummary(row: SubscriptionRow, at: number): SubscriptionSummary {
  return {
    _id: row.id,
    status: row.status === 1 && row.expiredAt.getTime() < at ? 3 : row.status,
    createdAt: row.createdAt.toISOString(),
    expiredAt: row.expiredAt.toISOString(),
    isRecurring: row.isRecurring,
    planType: row.planType,
    amount: row.amountCents / 100,
    paidThrough: row.paidThrough?.toISOString() ?? null,
  };
}

/**
 * The same subscriptions as a column of a device row (newest first, as JSON): lets a page of
 * devices come back with theirs in one statement. Read back with `subscriptionsFromJson`.
 */
export const subscriptionsJsonOf = (serialNumber: AnyColumn) => sql<SubscriptionJson[]>`coalesce((
  select json_agg(json_build_object(
    'id', ${subscriptions.id}, 'status', ${subscriptions.status}, 'createdAt', ${subscriptions.createdAt},
    'expiredAt', ${subscriptions.expiredAt}, 'isRecurring', ${subscriptions.isRecurring},
    'planType', ${subscriptions.planType}, 'amountCents', ${subscriptions.amountCents},
    'paidThrough', ${subscriptions.paidThrough})
    order by ${subscriptions.createdAt} desc, ${subscriptions.id} desc)
  from ${subscriptions} where lower(${subscriptions.machineSerialNumber}) = lower(${serialNumber})
), '[]'::json)`;

export type SubscriptionJson = Omit<SubscriptionRow, 'createdAt' | 'expiredAt' | 'paidThrough'> & {
  createdAt: string;
  expiredAt: string;
  paidThrough: string | null;
};

export const subscriptionsFromJson = (rows: SubscriptionJson[], at: number): SubscriptionSummary[] =>
  rows.map((row) =>
    toSubscriptionSummary(
      {
        ...row,
        createdAt: new Date(row.createdAt),
        expiredAt: new Date(row.expiredAt),
        paidThrough: row.paidThrough === null ? null : new Date(row.paidThrough),
      },
      at,
    ),
  );
