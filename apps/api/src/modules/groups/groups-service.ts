import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DeviceBulkFilters } from '@app/contract/bulk-actions';
import {
  groupMessages,
  type CreateGroupBody,
  type Group,
  type GroupKind,
  type GroupList,
  type GroupMembersBody,
  type UpdateGroupBody,
} from '@app/contract/groups';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { pgErrorCode } from '#api/lib/pagination.ts';
import { devices } from '#api/db/schema/devices.ts';
import { machineGroupMembers, machineGroups } from '#api/db/schema/groups.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { recordActor, withActor, type HistoryActor } from '#api/lib/record-history.ts';
import { deviceFilterWhere } from '../devices/device-filters.ts';
import { bumpSettings, hasFromGroup, stampedBy, withoutGroup } from '../machine-settings/settings-writes.ts';

type Row = typeof machineGroups.$inferSelect;

/**
 * Machine groups (decision 077). A static group's machines are its member rows; a dynamic group's
 * are the devices its saved Device Management filters match at the time of asking, by the list's
 * own filter builder, so a group shows exactly what the list would.
 */
export function createGroupsService({
  db,
  now,
  offlineMinutes,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
}) {
  /** Device Management's filters as SQL, now (the online filter moves with the clock). */
  const matching = (filters: DeviceBulkFilters): SQL | undefined => {
    const at = now();
    return deviceFilterWhere(filters, new Date(at.getTime() - offlineMinutes * 60_000), at).where;
  };

  /** The machines a selection names, as a subquery: the ids picked (that exist), or all matching. */
  const machinesSelected = (selection: { ids?: string[]; allMatching?: DeviceBulkFilters }) =>
    db
      .select({ id: devices.id })
      .from(devices)
      .where(selection.ids ? inArray(devices.id, selection.ids) : matching(selection.allMatching!));

  /** The ids of a group's machines, as a subquery (for an INSERT ... SELECT or a count). */
  const machineIdsOf = (group: Row) =>
    group.kind === 'static'
      ? db
          // Named id as a subquery's column (an INSERT ... SELECT reads machines.id).
          .select({ id: sql<string>`${machineGroupMembers.deviceId}`.as('id') })
          .from(machineGroupMembers)
          .where(eq(machineGroupMembers.groupId, group.id))
      : machinesSelected({ allMatching: group.filter as DeviceBulkFilters });

  const countOf = async (group: Row) => {
    const [row] = await db.select({ n: count() }).from(machineIdsOf(group).as('machines'));
    return row?.n ?? 0;
  };

  const toGroup = async (row: Row): Promise<Group> => ({
    _id: row.id,
    name: row.name,
    kind: row.kind as GroupKind,
    filter: (row.filter as Record<string, unknown> | null) ?? null,
    maintenanceWindow: row.maintenanceWindow ?? null,
    machineCount: await countOf(row),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  });

  /**
   * Machines added to a static group take what was set on it: its maintenance window, and its
   * settings under their own (their settings version grows and every instance hears of it).
   */
  async function takeGroupsOwn(tx: Db, group: Row, deviceIds: string[]) {
    if (deviceIds.length === 0) return;
    const added = inArray(devices.id, deviceIds);
    if (group.maintenanceWindow)
      await tx
        .update(devices)
        .set({ maintenanceWindow: group.maintenanceWindow, maintenanceWindowGroupId: group.id })
        .where(added);
    if (Object.keys(group.settings).length === 0) return;
    await bumpSettings(tx, now(), added, {
      settingsFromGroups: sql`${devices.settingsFromGroups} || ${stampedBy(group.id, group.settings)}::jsonb`,
    });
  }

  /**
   * A dynamic group's member rows are the machines its window and settings were last written on
   * (dynamic-group-sync.ts): every machine its filter matches now, recorded when they are written, so
   * one that stops matching before the next sync still has them taken off. Answers how many are new.
   */
  async function recordMatches(tx: Db, group: Row, at: Date) {
    if (group.kind !== 'dynamic') return 0;
    const matches = matching(group.filter as DeviceBulkFilters) ?? sql`true`;
    const result = await tx.execute(sql`with added as (
        insert into machine_group_members (group_id, device_id, added_at)
        select ${group.id}::uuid, ${devices.id}, ${at.toISOString()}::timestamptz from devices
        where (${matches}) is true
        on conflict do nothing returning 1)
      select count(*)::int as added from added`);
    return rowsOf<{ added: number }>(result)[0]?.added ?? 0;
  }

  async function rowOf(id: string): Promise<Row> {
    const [row] = await db.select().from(machineGroups).where(eq(machineGroups.id, id)).limit(1);
    if (!row) throw new NotFoundError(groupMessages.notFound);
    return row;
  }

  const nameTaken = (error: unknown) => {
    if (pgErrorCode(error) === '23505') throw new ConflictError(groupMessages.nameTaken);
    throw error;
  };

  return {
    rowOf,
    machineIdsOf,
    machinesSelected,
    matching,
    recordMatches,

    async list(page: number, limit: number, search?: string): Promise<GroupList> {
      const where = search
        ? sql`lower(${machineGroups.name}) like ${`%${search.toLowerCase()}%`}`
        : undefined;
      const [[counted], rows] = await Promise.all([
        db.select({ total: count() }).from(machineGroups).where(where),
        db
          .select()
          .from(machineGroups)
          .where(where)
          .orderBy(machineGroups.name, desc(machineGroups.id))
          .limit(limit)
          .offset((page - 1) * limit),
      ]);
      const total = counted?.total ?? 0;
      return {
        groups: await Promise.all(rows.map(toGroup)),
        total,
        totalPages: Math.ceil(total / limit),
        page,
        limit,
      };
    },

    get: async (id: string) => toGroup(await rowOf(id)),

    async create(body: CreateGroupBody, auth: HistoryActor): Promise<Group> {
      const [row] = await withActor(db, auth, (tx) =>
        tx
          .insert(machineGroups)
          .values({
            name: body.name,
            kind: body.kind,
            filter: body.kind === 'dynamic' ? body.filter : null,
            createdAt: now(),
            createdBy: auth.email,
          })
          .returning(),
      ).catch(nameTaken);
      return toGroup(row!);
    },

    /** The old and new name and filter are in the group's history, with the admin (decision 081). */
    async update(id: string, body: UpdateGroupBody, actor: HistoryActor): Promise<Group> {
      const row = await rowOf(id);
      if (row.kind === 'static' && body.filter) throw new BadRequestError(groupMessages.filterNotStatic);
      const [updated] = await withActor(db, actor, (tx) =>
        tx
          .update(machineGroups)
          .set({ name: body.name, ...(row.kind === 'dynamic' && body.filter ? { filter: body.filter } : {}) })
          .where(eq(machineGroups.id, id))
          .returning(),
      ).catch(nameTaken);
      return toGroup(updated!);
    },

    /**
     * Deletes the group, and takes what it wrote on its machines off them: its maintenance window
     * and its settings (those machines' settings change: their version grows, and every instance
     * reads them again).
     */
    async remove(id: string, actor: HistoryActor): Promise<void> {
      await db.transaction(async (tx) => {
        await recordActor(tx as unknown as Db, actor);
        const done = await tx
          .delete(machineGroups)
          .where(eq(machineGroups.id, id))
          .returning({ id: machineGroups.id });
        if (done.length === 0) throw new NotFoundError(groupMessages.notFound);
        await tx
          .update(devices)
          .set({ maintenanceWindow: null, maintenanceWindowGroupId: null })
          .where(eq(devices.maintenanceWindowGroupId, id));
        await bumpSettings(tx, now(), hasFromGroup(id), { settingsFromGroups: withoutGroup(id) });
      });
    },

    /** Adds the selected machines to a static group; those already in it stay as they were. */
    async addMembers(id: string, body: GroupMembersBody, actor: HistoryActor) {
      const row = await rowOf(id);
      if (row.kind !== 'static') throw new BadRequestError(groupMessages.notStatic);
      const picked = machinesSelected(body).as('picked');
      const added = await db.transaction(async (tx) => {
        // The machines' histories keep the window they take from the group, with the admin.
        await recordActor(tx as unknown as Db, actor);
        const ids = await tx
          .insert(machineGroupMembers)
          .select(
            db
              .select({
                groupId: sql`${id}::uuid`.as('group_id'),
                deviceId: picked.id,
                addedAt: sql`${now().toISOString()}::timestamptz`.as('added_at'),
              })
              .from(picked),
          )
          .onConflictDoNothing()
          .returning({ id: machineGroupMembers.deviceId });
        await takeGroupsOwn(
          tx,
          row,
          ids.map((r) => r.id),
        );
        return ids;
      });
      return { changed: added.length, machineCount: await countOf(row) };
    },

    async removeMembers(id: string, body: GroupMembersBody, actor: HistoryActor) {
      const row = await rowOf(id);
      if (row.kind !== 'static') throw new BadRequestError(groupMessages.notStatic);
      const removed = await withActor(db, actor, (tx) =>
        tx
          .delete(machineGroupMembers)
          .where(
            and(
              eq(machineGroupMembers.groupId, id),
              inArray(machineGroupMembers.deviceId, machinesSelected(body)),
            ),
          )
          .returning({ id: machineGroupMembers.deviceId }),
      );
      return { changed: removed.length, machineCount: await countOf(row) };
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
