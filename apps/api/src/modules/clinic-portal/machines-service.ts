import { asc, count, desc, sql, type SQL } from 'drizzle-orm';
import type { ClinicMachine, ClinicMachineList, ClinicMachineListQuery } from '@app/contract/clinic-portal';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { machineAssignments } from '#api/db/schema/machine-assignments.ts';
import { withCustomerScope } from '#api/lib/customer-scope.ts';
import { heldMachineColumns, heldMachineOf, openAssignmentOfDevice } from '#api/lib/held-machines.ts';
import { containsPattern, offsetOf, pageCount } from '#api/lib/pagination.ts';

const sortColumn = {
  machineNumber: devices.machineNumber,
  serialNumber: devices.serialNumber,
  location: devices.location,
  lastSeenAt: devices.lastSeenAt,
  licenceState: devices.licenceState,
  licencePaidThrough: devices.licencePaidThrough,
};
/** Times newest first unless asked; names A to Z. */
const timeSorts = new Set(['lastSeenAt', 'licencePaidThrough']);

/*
 * The clinic's machines now (issue 39 item 5): the devices row-level security lets the clinic read
 * (decision 090: those it holds now), searched, sorted and paged like the console's lists. No `where`
 * names the customer: the policy is the filter, and the count is of the same rows.
 */
export function createMachinesService({
  db,
  now,
  offlineMinutes,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
}) {
  return {
    async list(customerId: string, query: ClinicMachineListQuery): Promise<ClinicMachineList> {
      const where: SQL | undefined = query.search
        ? sql`${devices.searchText} like ${containsPattern(query.search.toLowerCase())}`
        : undefined;
      const direction = query.direction ?? (timeSorts.has(query.sort) ? 'desc' : 'asc');
      const dir = direction === 'asc' ? asc : desc;
      // Never seen and never paid sort last either way.
      const column = sortColumn[query.sort];
      const order = [sql`${column} ${sql.raw(direction)} nulls last`, dir(devices.id)];
      const { rows, total } = await withCustomerScope(db, customerId, async (tx) => {
        const rows = await tx
          .select(heldMachineColumns)
          .from(devices)
          .leftJoin(machineAssignments, openAssignmentOfDevice)
          .where(where)
          .orderBy(...order)
          .limit(query.limit)
          .offset(offsetOf(query.page, query.limit));
        const [counted] = await tx.select({ n: count() }).from(devices).where(where);
        return { rows, total: counted!.n };
      });
      const onlineSince = now().getTime() - offlineMinutes * 60_000;
      const machines: ClinicMachine[] = rows.map((r) => ({
        ...heldMachineOf(r),
        online: r.lastSeenAt !== null && r.lastSeenAt.getTime() > onlineSince,
      }));
      return {
        machines,
        total,
        totalPages: pageCount(total, query.limit),
        page: query.page,
        limit: query.limit,
      };
    },
  };
}
export type MachinesService = ReturnType<typeof createMachinesService>;
