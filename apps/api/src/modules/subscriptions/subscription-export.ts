import { and, desc, getTableColumns } from 'drizzle-orm';
import {
  demoPaymentLabel,
  subscriptionExportColumns,
  subscriptionStatusLabel,
  type Subscription,
  type SubscriptionExportQuery,
} from '@app/contract/subscriptions';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { afterCursor, cursorAt, keysetCsv } from '#api/lib/csv-export.ts';
import { chosenColumns, type Cell } from '#api/lib/export-columns.ts';
import { subscriptionFilter } from './subscription-filters.ts';
import { subscriptionView } from './subscription-views.ts';

/** Each column as the list shows it; the status in words with 'Demo payment' beside it. */
const cells: Record<keyof typeof subscriptionExportColumns, (s: Subscription) => Cell> = {
  fullName: (s) => s.fullName,
  email: (s) => s.email,
  machineSerialNumber: (s) => s.machineSerialNumber,
  amount: (s) => s.amount.toFixed(2),
  createdAt: (s) => s.createdAt,
  expiredAt: (s) => s.expiredAt,
  status: (s) => {
    const status = subscriptionStatusLabel(s.status);
    return s.demoPayment ? `${status} (${demoPaymentLabel})` : status;
  },
};

/**
 * Subscription Management as CSV (decision 056): every row its filters match, newest first, in the
 * columns asked for, each as the list shows it (the status as of now, an unpaid link past its expiry
 * read as Expired).
 */
export function subscriptionExportCsv(
  db: Db,
  filters: SubscriptionExportQuery,
  { now, linkOf, counted }: { now: Date; linkOf: (id: string) => string; counted: (rows: number) => void },
): AsyncGenerator<string> {
  const where = subscriptionFilter(filters, now);
  return keysetCsv(
    chosenColumns(subscriptionExportColumns, cells, filters.columns),
    (after, size) =>
      db
        .select({ ...getTableColumns(subscriptions), cursorAt: cursorAt(subscriptions.createdAt) })
        .from(subscriptions)
        .where(and(where, afterCursor(subscriptions.createdAt, subscriptions.id, after)))
        .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
        .limit(size)
        .then((rows) =>
          rows.map((row) => ({
            ...subscriptionView(row, now, linkOf(row.id)),
            id: row.id,
            cursorAt: row.cursorAt,
          })),
        ),
    counted,
  );
}
