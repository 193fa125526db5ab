import { asc, count, desc, eq, sql } from 'drizzle-orm';
import type { CustomerActivity, CustomerMachine, CustomerSubscription } from '@app/contract/customers';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { machineAssignments } from '#api/db/schema/machine-assignments.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { heldMachineColumns, heldMachineOf, openAssignmentOfDevice } from '#api/lib/held-machines.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';
import { effectiveStatus } from '../subscriptions/subscription-status.ts';

type Page = { page: number; limit: number };
/** The activity's pages count at most this many rows (its total says "at least" past it). */
export const activityCountCap = 10_000;
const paged = <K extends string, T>(key: K, rows: T[], total: number, { page, limit }: Page) =>
  ({ [key]: rows, total, totalPages: pageCount(total, limit), page, limit }) as { [P in K]: T[] } & {
    total: number;
    totalPages: number;
    page: number;
    limit: number;
  };

/**
 * The pieces of a customer's detail page (issue 39 item 1), each its own paged read: the machines it
 * holds now with their licences (kept on the device rows), its subscriptions, and its activity (the
 * audit rows that carry it: console writes about it, its machines' rows, its users' requests). Its
 * periods are the assignments service's; its users, the clinic users module's (issue 39 item 3).
 */
export function createCustomerPieces({ db, now }: { db: Db; now: () => Date }) {
  return {
    async machines(customerId: string, page: Page) {
      const where = eq(devices.customerId, customerId);
      const [rows, [counted]] = await Promise.all([
        db
          .select(heldMachineColumns)
          .from(devices)
          .leftJoin(machineAssignments, openAssignmentOfDevice)
          .where(where)
          .orderBy(asc(devices.machineNumber), asc(devices.id))
          .limit(page.limit)
          .offset(offsetOf(page.page, page.limit)),
        db.select({ n: count() }).from(devices).where(where),
      ]);
      const machines: CustomerMachine[] = rows.map((r) => {
        const { heldSince, ...machine } = heldMachineOf(r);
        return { ...machine, assignedFrom: heldSince };
      });
      return paged('machines', machines, counted!.n, page);
    },

    async subscriptions(customerId: string, page: Page) {
      const where = eq(subscriptions.customerId, customerId);
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(subscriptions)
          .where(where)
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
          .limit(page.limit)
          .offset(offsetOf(page.page, page.limit)),
        db.select({ n: count() }).from(subscriptions).where(where),
      ]);
      const at = now();
      const list: CustomerSubscription[] = rows.map((r) => ({
        _id: r.id,
        machineSerialNumber: r.machineSerialNumber,
        deviceId: r.deviceId,
        fullName: r.fullName,
        email: r.email,
        amount: r.amountCents / 100,
        isRecurring: r.isRecurring,
        planType: r.planType ?? null,
        status: effectiveStatus(r, at),
        createdAt: r.createdAt.toISOString(),
        expiredAt: r.expiredAt.toISOString(),
        paidThrough: r.paidThrough?.toISOString() ?? null,
      }));
      return paged('subscriptions', list, counted!.n, page);
    },

    /** Newest first through access_logs_customer_created_idx; the count is a range of the same index. */
    async activity(customerId: string, page: Page) {
      const where = eq(accessLogs.customerId, customerId);
      const [rows, [counted]] = await Promise.all([
        db
          .select({
            id: accessLogs.id,
            createdAt: accessLogs.createdAt,
            userEmail: accessLogs.userEmail,
            resource: accessLogs.resource,
            statusCode: accessLogs.statusCode,
            machineNumber: accessLogs.machineNumber,
            recordKind: accessLogs.recordKind,
            recordId: accessLogs.recordId,
            event: accessLogs.event,
          })
          .from(accessLogs)
          .where(where)
          .orderBy(desc(accessLogs.createdAt), desc(accessLogs.id))
          .limit(page.limit)
          .offset(offsetOf(page.page, page.limit)),
        // Counted up to a cap: a clinic's machines may write millions of rows (architecture.md §8).
        db.select({ n: sql<number>`count(*)::int` }).from(
          db
            .select({ one: sql`1` })
            .from(accessLogs)
            .where(where)
            .limit(activityCountCap)
            .as('capped'),
        ),
      ]);
      const activity: CustomerActivity[] = rows.map((r) => ({
        _id: String(r.id),
        createdAt: r.createdAt.toISOString(),
        userEmail: r.userEmail,
        resource: r.resource,
        statusCode: r.statusCode,
        machineNumber: r.machineNumber,
        recordKind: r.recordKind,
        recordId: r.recordId,
        event: r.event,
      }));
      return paged('activity', activity, counted!.n, page);
    },
  };
}

export type CustomerPieces = ReturnType<typeof createCustomerPieces>;
