import { and, desc, getTableColumns } from 'drizzle-orm';
import {
  demoPaymentLabel,
  subscriptionExportHeader,
  subscriptionStatusLabel,
  type SubscriptionExportQuery,
} from '@app/contract/subscriptions';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { afterCursor, cursorAt, keysetCsv } from '#api/lib/csv-export.ts';
import { subscriptionFilter } from './subscription-filters.ts';
import { subscriptionView } from './subscription-views.ts';

/**
 * Subscription Management as CSV (decision 056): every row its filters match, newest first, each
 * as the list shows it (the status as of now, an unpaid link past its expiry read as Expired).
 */
export function subscriptionExportCsv(
  db: Db,
  filters: SubscriptionExportQuery,
  { now, linkOf, counted }: { now: Date; linkOf: (id: string) => string; counted: (rows: number) => void },
): AsyncGenerator<string> {
  const where = subscriptionFilter(filters, now);
  return keysetCsv(
    subscriptionExportHeader,
    (after, size) =>
      db
        .select({ ...getTableColumns(subscriptions), cursorAt: cursorAt(subscriptions.createdAt) })
        .from(subscriptions)
        .where(and(where, afterCursor(subscriptions.createdAt, subscriptions.id, after)))
        .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
        .limit(size),
    (row) => {
      const s = subscriptionView(row, now, linkOf(row.id));
      const status = subscriptionStatusLabel(s.status);
      return [
        s.fullName,
        s.email,
        s.machineSerialNumber,
        s.amount.toFixed(2),
        s.createdAt,
        s.expiredAt,
        s.demoPayment ? `${status} (${demoPaymentLabel})` : status,
      ];
    },
    counted,
  );
}
