import { and, asc, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import { deviceApiMessages } from '@app/contract/device-api';
import { userMessages } from '@app/contract/users';
import type { Db } from '#api/db/client.ts';
import { deviceUserNames, devices, technicians } from '#api/db/schema/devices.ts';
import { roles, users } from '#api/db/schema/users.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { isUniqueViolation } from './sync/batch.ts';

export type AssignedMachine = {
  deviceId: string;
  machineNumber: string;
  serialNumber: string;
  assignedAt: string | null;
};

/**
 * The machines a technician (a console user whose role is of type app) may sign in on: one
 * technicians row per machine, naming the account. Removing a machine deletes its row, and the
 * technician's app sessions on that machine end with it (app_sessions cascade). They sign in with
 * their account's user name, so a machine where a doctor already holds that name is refused
 * (device_user_names, migration 0033).
 */
export function createTechnicianMachinesService({ db, now }: { db: Db; now: () => Date }) {
  async function userOf(id: string) {
    const [user] = await db
      .select({
        id: users.id,
        userName: users.userName,
        email: users.email,
        phone: users.phone,
        roleType: roles.type,
      })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(eq(users.id, id))
      .limit(1);
    if (!user) throw new NotFoundError(userMessages.notFound);
    return user;
  }

  async function list(userId: string): Promise<AssignedMachine[]> {
    const rows = await db
      .select({
        deviceId: devices.id,
        machineNumber: devices.machineNumber,
        serialNumber: devices.serialNumber,
        assignedAt: technicians.createTime,
      })
      .from(technicians)
      .innerJoin(devices, eq(devices.id, technicians.deviceId))
      .where(eq(technicians.accountId, userId))
      .orderBy(asc(devices.machineNumber), asc(devices.id));
    return rows.map((r) => ({ ...r, assignedAt: r.assignedAt ? r.assignedAt.toISOString() : null }));
  }

  /** The machines among `deviceIds` where a doctor holds this user name (by the database's lower()). */
  async function machinesWithName(userName: string, deviceIds: string[]): Promise<string[]> {
    if (!deviceIds.length) return [];
    const rows = await db
      .select({ machineNumber: devices.machineNumber })
      .from(deviceUserNames)
      .innerJoin(devices, eq(devices.id, deviceUserNames.deviceId))
      .where(
        and(
          inArray(deviceUserNames.deviceId, deviceIds),
          sql`${deviceUserNames.nameKey} = lower(${userName})`,
          isNotNull(deviceUserNames.doctorId),
        ),
      )
      .orderBy(asc(devices.machineNumber));
    return rows.map((r) => r.machineNumber);
  }

  const nameTaken = (userName: string, machines: string[]) =>
    new ConflictError(deviceApiMessages.userNameTakenOnMachines(userName, machines));

  return {
    async get(userId: string) {
      await userOf(userId);
      return list(userId);
    },

    /** Replaces the set of machines; answers the new set. */
    async replace(userId: string, deviceIds: string[]) {
      const user = await userOf(userId);
      if (user.roleType !== 'app') throw new BadRequestError(deviceApiMessages.notAppUser);
      const wanted = [...new Set(deviceIds.map((id) => id.toLowerCase()))];
      if (wanted.length) {
        const found = await db.select({ id: devices.id }).from(devices).where(inArray(devices.id, wanted));
        const known = new Set(found.map((d) => d.id));
        const unknown = wanted.filter((id) => !known.has(id));
        if (unknown.length)
          throw new BadRequestError(`deviceIds: no device has the id ${unknown.join(', ')}`);
      }
      // Only the machines newly assigned: an assignment that stays is left as it is.
      const kept = new Set((await list(userId)).map((m) => m.deviceId));
      const added = wanted.filter((id) => !kept.has(id));
      const clashes = await machinesWithName(user.userName, added);
      if (clashes.length) throw nameTaken(user.userName, clashes);
      const assign = db.transaction(async (tx) => {
        await tx
          .delete(technicians)
          .where(
            wanted.length
              ? and(eq(technicians.accountId, userId), notInArray(technicians.deviceId, wanted))
              : eq(technicians.accountId, userId),
          );
        if (wanted.length)
          await tx
            .insert(technicians)
            .values(
              wanted.map((deviceId) => ({
                deviceId,
                accountId: userId,
                userName: user.userName,
                email: user.email,
                phonenumber: user.phone,
                status: 2,
                createTime: now(),
              })),
            )
            .onConflictDoNothing({ target: [technicians.deviceId, technicians.accountId] });
      });
      await assign.catch(async (error: unknown) => {
        // A doctor registered with the name since the check above: the database refused it.
        if (!isUniqueViolation(error, 'device_user_names_device_id_user_name_pk')) throw error;
        const raced = await machinesWithName(user.userName, added);
        throw raced.length ? nameTaken(user.userName, raced) : error;
      });
      return list(userId);
    },
  };
}
export type TechnicianMachinesService = ReturnType<typeof createTechnicianMachinesService>;
