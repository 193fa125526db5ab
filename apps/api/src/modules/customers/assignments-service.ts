import { and, desc, eq, isNull, max, sql, type SQL } from 'drizzle-orm';
import { assignmentFutureSkewMs, customerMessages } from '@app/contract/customers';
import { deviceMessages } from '@app/contract/devices';
import type { Assignment, AssignmentBody, ReturnBody } from '@app/contract/machine-assignments';
import type { Db } from '#api/db/client.ts';
import { customers } from '#api/db/schema/customers.ts';
import { devices, doctors, patients, technicians } from '#api/db/schema/devices.ts';
import { machineAssignments } from '#api/db/schema/machine-assignments.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { users } from '#api/db/schema/users.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type AssignedDevice = { id: string; machineNumber: string; customerId: string | null };

const historyColumns = {
  id: machineAssignments.id,
  deviceId: machineAssignments.deviceId,
  machineNumber: devices.machineNumber,
  serialNumber: devices.serialNumber,
  customerId: machineAssignments.customerId,
  customerName: customers.name,
  fromAt: machineAssignments.fromAt,
  untilAt: machineAssignments.untilAt,
  reason: machineAssignments.reason,
  endReason: machineAssignments.endReason,
  assignedBy: users.email,
  createdAt: machineAssignments.createdAt,
};
type HistoryRow = {
  id: string;
  deviceId: string;
  machineNumber: string;
  serialNumber: string;
  customerId: string;
  customerName: string;
  fromAt: Date;
  untilAt: Date | null;
  reason: string;
  endReason: string | null;
  assignedBy: string | null;
  createdAt: Date;
};

const toAssignment = (r: HistoryRow): Assignment => ({
  _id: r.id,
  deviceId: r.deviceId,
  machineNumber: r.machineNumber,
  serialNumber: r.serialNumber,
  customerId: r.customerId,
  customerName: r.customerName,
  from: r.fromAt.toISOString(),
  until: r.untilAt?.toISOString() ?? null,
  reason: r.reason,
  endReason: r.endReason,
  assignedBy: r.assignedBy,
  createdAt: r.createdAt.toISOString(),
});

/**
 * A machine's holder over time (issue 39 item 2, decision 087). Every change runs in one transaction
 * that locks the device's row first, so two changes of one machine take turns and its periods never
 * overlap: the open period (at most one, machine_assignments_open_idx) closes at the new one's start,
 * which may be in the past but not before the open period began nor before the last one ended.
 * devices.customer_id follows in the same transaction. Records the machine made from that moment on
 * (a move recorded late) are stamped again with the new holder; the audit logs are append-only and
 * keep the holder they were stamped with on arrival.
 */
export function createAssignmentsService({ db, now }: { db: Db; now: () => Date }) {
  async function lockDevice(tx: Tx, deviceId: string): Promise<AssignedDevice> {
    const [device] = await tx
      .select({ id: devices.id, machineNumber: devices.machineNumber, customerId: devices.customerId })
      .from(devices)
      .where(eq(devices.id, deviceId))
      .for('update');
    if (!device) throw new NotFoundError(deviceMessages.notFound);
    return device;
  }

  /** The moment a change takes effect: the one asked for (not in the future), or now. */
  function momentOf(field: 'from' | 'at', asked: string | undefined): Date {
    const at = now();
    if (asked === undefined) return at;
    const moment = new Date(asked);
    if (moment.getTime() > at.getTime() + assignmentFutureSkewMs)
      throw new BadRequestError(customerMessages.inFuture(field));
    // A browser's clock a little ahead: now.
    return moment.getTime() > at.getTime() ? at : moment;
  }

  /** The open period must have begun before `moment`, and the last closed one ended by then. */
  async function checkMoment(tx: Tx, deviceId: string, field: 'from' | 'at', moment: Date) {
    const [open] = await tx
      .select()
      .from(machineAssignments)
      .where(and(eq(machineAssignments.deviceId, deviceId), isNull(machineAssignments.untilAt)));
    if (open && moment.getTime() <= open.fromAt.getTime())
      throw new BadRequestError(customerMessages.beforeCurrent(field, open.fromAt.toISOString()));
    if (!open) {
      const [last] = await tx
        .select({ until: max(machineAssignments.untilAt) })
        .from(machineAssignments)
        .where(eq(machineAssignments.deviceId, deviceId));
      if (last?.until && moment.getTime() < new Date(last.until).getTime())
        throw new BadRequestError(customerMessages.beforeLast(field, new Date(last.until).toISOString()));
    }
    return open;
  }

  /** Records made at or after `moment` belong to `customerId` (null: none): a move recorded late. */
  async function restamp(tx: Tx, deviceId: string, moment: Date, customerId: string | null) {
    const other = (column: SQL | typeof treatmentRecords.customerId) =>
      sql`${column} is distinct from ${customerId}::uuid`;
    await tx
      .update(treatmentRecords)
      .set({ customerId })
      .where(
        and(
          eq(treatmentRecords.deviceId, deviceId),
          sql`${treatmentRecords.treatedAt} >= ${moment}`,
          other(treatmentRecords.customerId),
        ),
      );
    for (const table of [patients, doctors, technicians]) {
      await tx
        .update(table)
        .set({ customerId })
        .where(
          and(
            eq(table.deviceId, deviceId),
            sql`${table.createTime} >= ${moment}`,
            sql`${table.customerId} is distinct from ${customerId}::uuid`,
          ),
        );
    }
  }

  async function periodById(id: string): Promise<Assignment> {
    const [row] = await historyQuery(eq(machineAssignments.id, id)).limit(1);
    return toAssignment(row!);
  }

  const historyQuery = (where: SQL) =>
    db
      .select(historyColumns)
      .from(machineAssignments)
      .innerJoin(devices, eq(devices.id, machineAssignments.deviceId))
      .innerJoin(customers, eq(customers.id, machineAssignments.customerId))
      .leftJoin(users, eq(users.id, machineAssignments.assignedBy))
      .where(where)
      .orderBy(desc(machineAssignments.fromAt), desc(machineAssignments.id));

  async function assign(
    deviceId: string,
    body: AssignmentBody,
    actorId: string | null,
  ): Promise<{ assignment: Assignment; device: AssignedDevice }> {
    const moment = momentOf('from', body.from);
    const result = await db.transaction(async (tx) => {
      const device = await lockDevice(tx, deviceId);
      const [customer] = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(eq(customers.id, body.customerId));
      if (!customer) throw new BadRequestError(customerMessages.customerUnknown);
      if (device.customerId === body.customerId) throw new ConflictError(customerMessages.alreadyHolder);
      const open = await checkMoment(tx, deviceId, 'from', moment);
      if (open)
        await tx
          .update(machineAssignments)
          .set({ untilAt: moment, endReason: body.reason })
          .where(eq(machineAssignments.id, open.id));
      const [period] = await tx
        .insert(machineAssignments)
        .values({
          deviceId,
          customerId: body.customerId,
          fromAt: moment,
          reason: body.reason,
          assignedBy: actorId,
        })
        .returning({ id: machineAssignments.id });
      await tx.update(devices).set({ customerId: body.customerId }).where(eq(devices.id, deviceId));
      await restamp(tx, deviceId, moment, body.customerId);
      return { id: period!.id, device: { ...device, customerId: body.customerId } };
    });
    return { assignment: await periodById(result.id), device: result.device };
  }

  return {
    assign,

    /** The machine is back at the supplier from `at`: its open period closes, it has no customer. */
    async returnToSupplier(
      deviceId: string,
      body: ReturnBody,
    ): Promise<{ assignment: Assignment; device: AssignedDevice }> {
      const moment = momentOf('at', body.at);
      const result = await db.transaction(async (tx) => {
        const device = await lockDevice(tx, deviceId);
        if (!device.customerId) throw new ConflictError(customerMessages.notAssigned);
        const open = await checkMoment(tx, deviceId, 'at', moment);
        if (!open) throw new ConflictError(customerMessages.notAssigned);
        await tx
          .update(machineAssignments)
          .set({ untilAt: moment, endReason: body.reason })
          .where(eq(machineAssignments.id, open.id));
        await tx.update(devices).set({ customerId: null }).where(eq(devices.id, deviceId));
        await restamp(tx, deviceId, moment, null);
        return { id: open.id, device };
      });
      return { assignment: await periodById(result.id), device: result.device };
    },

    /** A machine's periods, or a customer's, newest first. */
    async history(by: { deviceId: string } | { customerId: string }, page: number, limit: number) {
      const where =
        'deviceId' in by
          ? eq(machineAssignments.deviceId, by.deviceId)
          : eq(machineAssignments.customerId, by.customerId);
      if ('deviceId' in by) {
        const [device] = await db.select({ id: devices.id }).from(devices).where(eq(devices.id, by.deviceId));
        if (!device) throw new NotFoundError(deviceMessages.notFound);
      }
      const [rows, [counted]] = await Promise.all([
        historyQuery(where).limit(limit).offset(offsetOf(page, limit)),
        db
          .select({ total: sql<number>`count(*)::int` })
          .from(machineAssignments)
          .where(where),
      ]);
      const total = counted!.total;
      return { assignments: rows.map(toAssignment), total, totalPages: pageCount(total, limit), page, limit };
    },
  };
}

export type AssignmentsService = ReturnType<typeof createAssignmentsService>;
