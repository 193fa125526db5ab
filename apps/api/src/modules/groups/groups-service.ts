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
import { pgErrorCode } from '#api/lib/pagination.ts';
import { devices } from '#api/db/schema/devices.ts';
import { machineGroupMembers, machineGroups } from '#api/db/schema/groups.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import type { AuthContext } from '#api/lib/request-context.ts';
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

    async create(body: CreateGroupBody, auth: AuthContext): Promise<Group> {
      const [row] = await db
        .insert(machineGroups)
        .values({
          name: body.name,
          kind: body.kind,
          filter: body.kind === 'dynamic' ? body.filter : null,
          createdAt: now(),
          createdBy: auth.email,
        })
        .returning()
        .catch(nameTaken);
      return toGroup(row!);
    },

    async update(id: string, body: UpdateGroupBody): Promise<Group> {
      const row = await rowOf(id);
      if (row.kind === 'static' && body.filter) throw new BadRequestError(groupMessages.filterNotStatic);
      const [updated] = await db
        .update(machineGroups)
        .set({ name: body.name, ...(row.kind === 'dynamic' && body.filter ? { filter: body.filter } : {}) })
        .where(eq(machineGroups.id, id))
        .returning()
        .catch(nameTaken);
      return toGroup(updated!);
    },

    /**
     * Deletes the group, and takes what it wrote on its machines off them: its maintenance window
     * and its settings (those machines' settings change: their version grows, and every instance
     * reads them again).
     */
    async remove(id: string): Promise<void> {
      await db.transaction(async (tx) => {
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
    async addMembers(id: string, body: GroupMembersBody) {
      const row = await rowOf(id);
      if (row.kind !== 'static') throw new BadRequestError(groupMessages.notStatic);
      const picked = machinesSelected(body).as('picked');
      const added = await db.transaction(async (tx) => {
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

    async removeMembers(id: string, body: GroupMembersBody) {
      const row = await rowOf(id);
      if (row.kind !== 'static') throw new BadRequestError(groupMessages.notStatic);
      const removed = await db
        .delete(machineGroupMembers)
        .where(
          and(
            eq(machineGroupMembers.groupId, id),
            inArray(machineGroupMembers.deviceId, machinesSelected(body)),
          ),
        )
        .returning({ id: machineGroupMembers.deviceId });
      return { changed: removed.length, machineCount: await countOf(row) };
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
