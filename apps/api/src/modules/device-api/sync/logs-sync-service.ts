import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  accessLogItemSchema,
  deviceApiMessages,
  errorLogItemSchema,
  type BatchResult,
} from '@app/contract/device-api';
import type { Db } from '#api/db/client.ts';
import { doctors, technicians } from '#api/db/schema/devices.ts';
import { accessLogs, errorLogs } from '#api/db/schema/logs.ts';
import type { DeviceContext } from '../device-auth.ts';
import { answer, parseBatch, pending, refuse, type Slot } from './batch.ts';

/*
 * The app's access and error logs: the fast path (issue 13 targets 5,000 items/s in 100-item
 * batches on 2 cores). Per batch: one query for the users the items name, one multi-row insert
 * that skips ids already stored (`on conflict do nothing` on the per-machine client id), and the
 * log counters follow by their statement triggers.
 */

type LogItem = { userId?: number | undefined };

export function createLogsSyncService({ db, now }: { db: Db; now: () => Date }) {
  /** The doctors and technicians of this machine among the userIds the items name, by userId. */
  async function usersOf(device: DeviceContext, slots: Slot<LogItem>[]) {
    const ids = [
      ...new Set(pending(slots).flatMap((s) => (s.value.userId === undefined ? [] : [s.value.userId]))),
    ];
    const emails = new Map<number, string>();
    if (!ids.length) return emails;
    const rows = await db
      .select({ userId: doctors.userId, email: doctors.email })
      .from(doctors)
      .where(and(eq(doctors.deviceId, device.deviceId), inArray(doctors.userId, ids)))
      .unionAll(
        db
          .select({ userId: technicians.userId, email: technicians.email })
          .from(technicians)
          .where(and(eq(technicians.deviceId, device.deviceId), inArray(technicians.userId, ids))),
      );
    for (const r of rows) emails.set(r.userId, r.email);
    return emails;
  }

  /** Parses, refuses items naming someone who is not a user of this machine, returns the rest with their user. */
  async function prepare<S extends typeof accessLogItemSchema | typeof errorLogItemSchema>(
    device: DeviceContext,
    items: unknown[],
    schema: S,
    timeField: 'time' | 'utcTime',
  ) {
    const at = now();
    const slots = parseBatch(items, schema, { now: at, timeFields: [timeField] as never });
    const emails = await usersOf(device, slots as Slot<LogItem>[]);
    const rows = pending(slots).flatMap((slot) => {
      const { userId } = slot.value as LogItem;
      if (userId !== undefined && !emails.has(userId)) {
        refuse(slot, 'userId', deviceApiMessages.userNotOnMachine);
        return [];
      }
      return [
        {
          slot,
          base: {
            machineNumber: device.machineNumber,
            clientId: slot.key,
            receivedAt: at,
            userId: userId === undefined ? null : String(userId),
            userEmail: userId === undefined ? null : emails.get(userId)!,
            statusCode: null,
          },
        },
      ];
    });
    return { slots, rows, at };
  }

  return {
    async accessLogs(device: DeviceContext, items: unknown[], address: string | null): Promise<BatchResult> {
      const { slots, rows } = await prepare(device, items, accessLogItemSchema, 'time');
      if (rows.length)
        await db
          .insert(accessLogs)
          .values(
            rows.map(({ slot, base }) => {
              const item = slot.value as (typeof accessLogItemSchema)['_output'];
              return {
                ...base,
                createdAt: new Date(item.time),
                resource: item.resource,
                location: item.location ?? address,
              };
            }),
          )
          .onConflictDoNothing({
            target: [accessLogs.machineNumber, accessLogs.clientId],
            where: sql`client_id is not null`,
          });
      return answer(slots);
    },

    async errorLogs(device: DeviceContext, items: unknown[], address: string | null): Promise<BatchResult> {
      const { slots, rows } = await prepare(device, items, errorLogItemSchema, 'utcTime');
      if (rows.length)
        await db
          .insert(errorLogs)
          .values(
            rows.map(({ slot, base }) => {
              const item = slot.value as (typeof errorLogItemSchema)['_output'];
              return {
                ...base,
                createdAt: new Date(item.utcTime),
                resource: item.resource,
                functionName: item.functionName,
                message: item.message || null,
                location: address,
              };
            }),
          )
          .onConflictDoNothing({
            target: [errorLogs.machineNumber, errorLogs.clientId],
            where: sql`client_id is not null`,
          });
      return answer(slots);
    },
  };
}
