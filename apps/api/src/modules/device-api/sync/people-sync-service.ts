import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  deviceApiMessages,
  doctorItemSchema,
  patientItemSchema,
  type BatchResult,
} from '@app/contract/device-api';
import type { Db } from '#api/db/client.ts';
import { deviceUserNames, doctors, patients } from '#api/db/schema/devices.ts';
import { roles } from '#api/db/schema/users.ts';
import { hashPassword } from '#api/lib/passwords.ts';
import type { AppUserContext, DeviceContext } from '../device-auth.ts';
import { answer, isUniqueViolation, notStoredYet, parseBatch, pending, refuse, type Slot } from './batch.ts';

/*
 * People registered on a machine: a technician registers doctors (who then sign in on it with
 * their user name and password), a doctor registers patients. Both are idempotent by the app's id
 * per machine (unique (device_id, client_id)).
 */

/** The machine's sign-in names, doctors' and technicians' alike (migration 0033). */
const userNameKey = 'device_user_names_device_id_user_name_pk';

const sameMachine = (device: DeviceContext, machineNumber: string) =>
  machineNumber.trim().toLowerCase() === device.machineNumber.toLowerCase();

/** The person fields both kinds share, as the tables name them. */
const personColumns = (item: (typeof patientItemSchema)['_output']) => ({
  email: item.email,
  address: item.address,
  nickName: item.nickName,
  sex: item.sex,
  age: item.age,
  city: item.city,
  state: item.state,
  country: item.country,
  latitude: item.lat,
  longitude: item.long,
  createTime: new Date(item.createdAt),
});

export function createPeopleSyncService({ db, now }: { db: Db; now: () => Date }) {
  /** Refuses items for another machine; returns the slots still pending. */
  function checkMachine<T extends { machineNumber: string }>(device: DeviceContext, slots: Slot<T>[]) {
    for (const slot of pending(slots))
      if (!sameMachine(device, slot.value.machineNumber))
        refuse(slot, 'machineNumber', deviceApiMessages.machineMismatch);
    return pending(slots);
  }

  return {
    /** A technician registers doctors on this machine. */
    async registerDoctors(
      device: DeviceContext,
      technician: AppUserContext,
      items: unknown[],
    ): Promise<BatchResult> {
      const at = now();
      const slots = parseBatch(items, doctorItemSchema, { now: at, timeFields: ['createdAt'] });
      let live = checkMachine(device, slots);
      if (!live.length) return answer(slots);

      // Already stored (a retry): accepted as before, without hashing the password again.
      live = await notStoredYet(db, doctors, device.deviceId, live);
      if (!live.length) return answer(slots);

      const roleRows = await db
        .select({ id: roles.id, roleId: roles.roleId, type: roles.type })
        .from(roles)
        .where(inArray(roles.roleId, [...new Set(live.map((s) => s.value.roleId))]));
      const appRoles = new Map(roleRows.filter((r) => r.type === 'app').map((r) => [r.roleId, r.id]));
      // Names held on this machine by a doctor or a technician: refused before any password is hashed.
      const names = [...new Set(live.map((s) => s.value.username.toLowerCase()))];
      const taken = new Set(
        (
          await db
            .select({ name: deviceUserNames.nameKey })
            .from(deviceUserNames)
            .where(
              and(
                eq(deviceUserNames.deviceId, device.deviceId),
                sql`${deviceUserNames.nameKey} in (${sql.join(
                  names.map((name) => sql`lower(${name})`),
                  sql`, `,
                )})`,
              ),
            )
        ).map((r) => r.name.toLowerCase()),
      );

      // One at a time: argon2 takes ~50 ms and most of a core; a batch must not monopolise the CPU.
      for (const slot of live) {
        const item = slot.value;
        const roleId = appRoles.get(item.roleId);
        if (!roleId) {
          refuse(slot, 'roleId', deviceApiMessages.roleNotApp);
          continue;
        }
        const name = item.username.toLowerCase();
        if (taken.has(name)) {
          refuse(slot, 'username', deviceApiMessages.userNameTaken);
          continue;
        }
        try {
          await db
            .insert(doctors)
            .values({
              deviceId: device.deviceId,
              clientId: slot.key,
              receivedAt: at,
              userName: item.username,
              phonenumber: item.phonenumber,
              status: 2,
              passwordHash: await hashPassword(item.password),
              roleId,
              registeredBy: technician.id,
              ...personColumns(item),
            })
            .onConflictDoNothing({ target: [doctors.deviceId, doctors.clientId] });
          taken.add(name);
        } catch (error) {
          // Held already (another request took it since our check, or the database lowers the
          // name differently from JavaScript): the table's key refuses it.
          if (!isUniqueViolation(error, userNameKey)) throw error;
          refuse(slot, 'username', deviceApiMessages.userNameTaken);
        }
      }
      return answer(slots);
    },

    /** A doctor registers their patients on this machine. */
    async registerPatients(
      device: DeviceContext,
      doctor: AppUserContext,
      items: unknown[],
    ): Promise<BatchResult> {
      const at = now();
      const slots = parseBatch(items, patientItemSchema, { now: at, timeFields: ['createdAt'] });
      const live = checkMachine(device, slots);
      if (live.length)
        await db
          .insert(patients)
          .values(
            live.map(({ key, value: item }) => ({
              deviceId: device.deviceId,
              clientId: key,
              receivedAt: at,
              doctorId: doctor.id,
              patientname: item.username,
              phone: item.phonenumber,
              ...personColumns(item),
            })),
          )
          .onConflictDoNothing({ target: [patients.deviceId, patients.clientId] });
      return answer(slots);
    },
  };
}
