import { and, eq, or, sql } from 'drizzle-orm';
import type { DeviceBulkFilters } from '@app/contract/bulk-actions';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { devices } from '#api/db/schema/devices.ts';
import { machineGroupMembers, machineGroups } from '#api/db/schema/groups.ts';
import { bumpSettings, hasFromGroup, stampedBy, withoutGroup } from '../machine-settings/settings-writes.ts';
import type { GroupsService } from './groups-service.ts';

/*
 * A dynamic group's window and settings follow its filter (decision 079, "Dynamic groups"). What a
 * group sets is written on its machines (so a machine's settings and window are its own row), and a
 * dynamic group's machines change as machines change (a new machine in its city, one that goes
 * offline) or as time passes (the online filter). A periodic job compares, per dynamic group, the
 * machines its filter matches now with its member rows (the machines its values were last written
 * on) and writes the difference: a machine that newly matches takes the group's window (unless it
 * has a window of its own) and its settings (under its own values, which still win), and one that no
 * longer matches loses what the group wrote on it. Every statement is set-based, so 100,000 machines
 * are a few statements per group that changed, and a group where nothing changed costs one read.
 */

/** Dynamic groups the job looks at: those that carry something, or were written on machines before. */
const syncedGroups = sql`${machineGroups.kind} = 'dynamic' and (${machineGroups.maintenanceWindow} is not null
  or ${machineGroups.settings} <> '{}'::jsonb
  or exists (select 1 from machine_group_members m where m.group_id = ${machineGroups.id}))`;

export function createDynamicGroupSync({
  db,
  now,
  groups,
}: {
  db: Db;
  now: () => Date;
  groups: Pick<GroupsService, 'matching' | 'recordMatches'>;
}) {
  /** The conditions on a devices row for one group, at this moment. */
  function conditionsOf(groupId: string, filter: DeviceBulkFilters) {
    // A machine whose filter columns are null (no city) does not match: `is true`, not just the test.
    const matches = sql`(${groups.matching(filter) ?? sql`true`}) is true`;
    const member = sql`exists (select 1 from machine_group_members m
      where m.group_id = ${groupId} and m.device_id = ${devices.id})`;
    return {
      matches,
      joined: sql`${matches} and not ${member}`,
      left: sql`${member} and not ${matches}`,
      /** Member rows whose machine no longer matches. */
      staleMember: sql`not exists (select 1 from devices
        where ${devices.id} = ${machineGroupMembers.deviceId} and ${matches})`,
    };
  }

  /** Whether the group has machines to write on or to take its values off (a cheap read, no lock). */
  async function hasWork(group: typeof machineGroups.$inferSelect) {
    const { joined, staleMember } = conditionsOf(group.id, group.filter as DeviceBulkFilters);
    const carries = group.maintenanceWindow !== null || Object.keys(group.settings).length > 0;
    const result = await db.execute(sql`select
      (${carries} and exists (select 1 from devices where ${joined}))
      or exists (select 1 from machine_group_members where ${machineGroupMembers.groupId} = ${group.id}
        and ${staleMember}) as work`);
    return rowsOf<{ work: boolean }>(result)[0]?.work === true;
  }

  /** Writes one group's difference, under a lock on its row (a change of its settings waits, or is waited for). */
  async function syncGroup(groupId: string) {
    return db.transaction(async (tx) => {
      const [group] = await tx
        .select()
        .from(machineGroups)
        .where(eq(machineGroups.id, groupId))
        .for('update');
      if (!group || group.kind !== 'dynamic') return { joined: 0, left: 0 };
      const at = now();
      const { joined, left, staleMember } = conditionsOf(group.id, group.filter as DeviceBulkFilters);

      // Machines that no longer match lose what this group wrote on them (another group's stays).
      await tx
        .update(devices)
        .set({ maintenanceWindow: null, maintenanceWindowGroupId: null })
        .where(and(left, eq(devices.maintenanceWindowGroupId, group.id)));
      await bumpSettings(tx, at, and(left, hasFromGroup(group.id)), {
        settingsFromGroups: withoutGroup(group.id),
      });
      const gone = await tx
        .delete(machineGroupMembers)
        .where(and(eq(machineGroupMembers.groupId, group.id), staleMember))
        .returning({ id: machineGroupMembers.deviceId });

      const keys = Object.keys(group.settings);
      if (!group.maintenanceWindow && keys.length === 0) return { joined: 0, left: gone.length };

      // Machines that newly match take its window (not over a window of their own) and its settings.
      if (group.maintenanceWindow)
        await tx
          .update(devices)
          .set({ maintenanceWindow: group.maintenanceWindow, maintenanceWindowGroupId: group.id })
          .where(
            and(
              joined,
              or(
                sql`${devices.maintenanceWindowGroupId} is not null`,
                sql`${devices.maintenanceWindow} is null`,
              ),
            ),
          );
      if (keys.length > 0) {
        const stamped = sql`${devices.settingsFromGroups} || ${stampedBy(group.id, group.settings)}::jsonb`;
        const changes = and(joined, sql`${stamped} <> ${devices.settingsFromGroups}`);
        // Only a machine that sets one of the keys not itself has new effective settings (a version).
        const notOwn = sql`exists (select 1 from unnest(${`{${keys.join(',')}}`}::text[]) k
          where not ${devices.settingsOwn} ? k)`;
        await tx
          .update(devices)
          .set({ settingsFromGroups: stamped })
          .where(and(changes, sql`not ${notOwn}`));
        await bumpSettings(tx, at, and(changes, notOwn), { settingsFromGroups: stamped });
      }
      const added = await groups.recordMatches(tx, group, at);
      return { joined: added, left: gone.length };
    });
  }

  return {
    /** Every dynamic group that carries a window or settings, or was written on machines before. */
    async run() {
      const candidates = await db.select().from(machineGroups).where(syncedGroups);
      let joined = 0;
      let left = 0;
      for (const group of candidates) {
        if (!(await hasWork(group))) continue;
        const done = await syncGroup(group.id);
        joined += done.joined;
        left += done.left;
      }
      return { groups: candidates.length, joined, left };
    },
  };
}
