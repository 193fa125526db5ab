import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import { deviceApiMessages } from '@app/contract/device-api';
import { userMessages } from '@app/contract/users';
import type { Db } from '#api/db/client.ts';
import { devices, technicians } from '#api/db/schema/devices.ts';
import { roles, users } from '#api/db/schema/users.ts';
import { BadRequestError, NotFoundError } from '#api/lib/errors.ts';

export type AssignedMachine = {
  deviceId: string;
  machineNumber: string;
  serialNumber: string;
  assignedAt: string | null;
};

/**
 * The machines a technician (a console user whose role is of type app) may sign in on: one
 * technicians row per machine, naming the account. Removing a machine deletes its row, and the
 * technician's app sessions on that machine end with it (app_sessions cascade).
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
      await db.transaction(async (tx) => {
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
      return list(userId);
    },
  };
}
export type TechnicianMachinesService = ReturnType<typeof createTechnicianMachinesService>;
