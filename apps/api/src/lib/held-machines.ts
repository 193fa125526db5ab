import { and, eq, isNull } from 'drizzle-orm';
import { devices } from '#api/db/schema/devices.ts';
import { machineAssignments } from '#api/db/schema/machine-assignments.ts';

/*
 * A machine a customer holds now, as a customer's page (the supplier's console) and the clinic
 * portal both list it: the device's own columns, its licence (kept on the row) and since when the
 * customer holds it (the open assignment's start). One select and one row shape for both.
 */

export const heldMachineColumns = {
  id: devices.id,
  machineNumber: devices.machineNumber,
  serialNumber: devices.serialNumber,
  location: devices.location,
  city: devices.city,
  country: devices.country,
  status: devices.status,
  lastSeenAt: devices.lastSeenAt,
  licenceState: devices.licenceState,
  licencePaidThrough: devices.licencePaidThrough,
  licenceGraceUntil: devices.licenceGraceUntil,
  heldSince: machineAssignments.fromAt,
};

/** The join to the machine's open assignment (at most one: a partial unique index). */
export const openAssignmentOfDevice = and(
  eq(machineAssignments.deviceId, devices.id),
  isNull(machineAssignments.untilAt),
);

type HeldMachineRow = {
  [K in keyof typeof heldMachineColumns]: (typeof heldMachineColumns)[K]['_']['data'] | null;
};

/** The row as the contracts show it: `_id`, times as ISO strings. */
export const heldMachineOf = (r: HeldMachineRow) => ({
  _id: r.id!,
  machineNumber: r.machineNumber!,
  serialNumber: r.serialNumber!,
  location: r.location!,
  city: r.city!,
  country: r.country!,
  status: r.status!,
  lastSeenAt: r.lastSeenAt?.toISOString() ?? null,
  licenceState: r.licenceState!,
  licencePaidThrough: r.licencePaidThrough?.toISOString() ?? null,
  licenceGraceUntil: r.licenceGraceUntil?.toISOString() ?? null,
  heldSince: r.heldSince?.toISOString() ?? null,
});
