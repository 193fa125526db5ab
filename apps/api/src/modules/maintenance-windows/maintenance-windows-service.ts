import { and, eq, inArray } from 'drizzle-orm';
import { deviceMessages } from '@app/contract/devices';
import { insideWindow, type MachineWindow, type MaintenanceWindow } from '@app/contract/maintenance-windows';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { machineGroups } from '#api/db/schema/groups.ts';
import { NotFoundError } from '#api/lib/errors.ts';
import { recordActor, withActor, type HistoryActor } from '#api/lib/record-history.ts';
import type { GroupsService } from '../groups/groups-service.ts';

/**
 * Maintenance windows (issue 37 item 4). A machine holds one window: set on it, or copied from the
 * group it was last set on (so delivery reads one row, never a group's filter). Setting a group's
 * window writes it on the group's machines now, its own ones included: the admin chose the group.
 */
export function createMaintenanceWindows({
  db,
  now,
  groups,
}: {
  db: Db;
  now: () => Date;
  groups: GroupsService;
}) {
  return {
    async ofMachine(deviceId: string): Promise<MachineWindow> {
      const [row] = await db
        .select({
          window: devices.maintenanceWindow,
          busySince: devices.busySince,
          groupId: machineGroups.id,
          groupName: machineGroups.name,
        })
        .from(devices)
        .leftJoin(machineGroups, eq(machineGroups.id, devices.maintenanceWindowGroupId))
        .where(eq(devices.id, deviceId))
        .limit(1);
      if (!row) throw new NotFoundError(deviceMessages.notFound);
      return {
        window: row.window ?? null,
        fromGroup: row.window && row.groupId ? { _id: row.groupId, name: row.groupName! } : null,
        openNow: insideWindow(row.window, now()),
        busySince: row.busySince?.toISOString() ?? null,
      };
    },

    async setOnMachine(
      deviceId: string,
      window: MaintenanceWindow | null,
      actor: HistoryActor,
    ): Promise<MachineWindow> {
      const changed = await withActor(db, actor, (tx) =>
        tx
          .update(devices)
          .set({ maintenanceWindow: window, maintenanceWindowGroupId: null })
          .where(eq(devices.id, deviceId))
          .returning({ id: devices.id }),
      );
      if (changed.length === 0) throw new NotFoundError(deviceMessages.notFound);
      return this.ofMachine(deviceId);
    },

    /** The group's window, written on its machines now; null removes it from the machines that had it from this group. */
    async setOnGroup(groupId: string, window: MaintenanceWindow | null, actor: HistoryActor) {
      const group = await groups.rowOf(groupId);
      return db.transaction(async (tx) => {
        // The group's history and each machine's keep the old and new window (decision 081).
        await recordActor(tx as unknown as Db, actor);
        await tx
          .update(machineGroups)
          .set({ maintenanceWindow: window })
          .where(eq(machineGroups.id, groupId));
        const machines = groups.machineIdsOf(group);
        const changed = await tx
          .update(devices)
          .set({ maintenanceWindow: window, maintenanceWindowGroupId: window ? groupId : null })
          .where(
            window
              ? inArray(devices.id, machines)
              : and(inArray(devices.id, machines), eq(devices.maintenanceWindowGroupId, groupId)),
          )
          .returning({ id: devices.id });
        // A dynamic group's machines now: the sync takes the window off those that stop matching.
        await groups.recordMatches(tx, group, now());
        return { window, machineCount: changed.length };
      });
    },
  };
}
export type MaintenanceWindows = ReturnType<typeof createMaintenanceWindows>;
