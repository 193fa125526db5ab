import { and, asc, count, eq, gt, ilike, inArray, isNull, ne, sql } from 'drizzle-orm';
import { firstNotHeld, grantMessages, knownPermissions, permissionNames } from '@app/contract/permissions';
import {
  roleExportColumns,
  roleMessages,
  type Role,
  type RoleBody,
  type RoleExportQuery,
} from '@app/contract/roles';
import type { Db } from '#api/db/client.ts';
import { roles, sessions, users } from '#api/db/schema/users.ts';
import { keysetCsv } from '#api/lib/csv-export.ts';
import { chosenColumns } from '#api/lib/export-columns.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#api/lib/errors.ts';
import { containsPattern, pageCount, pgErrorCode } from '#api/lib/pagination.ts';
import { withActor, type HistoryActor } from '#api/lib/record-history.ts';

type RoleRow = typeof roles.$inferSelect;

const toRole = (r: RoleRow): Role => ({
  _id: r.id,
  roleId: r.roleId,
  roleName: r.roleName,
  // Every query here leaves the clinic roles out (rolesWhere, find): an app or admin role.
  type: r.type as Role['type'],
  createTime: r.createTime ? r.createTime.toISOString() : null,
  permissions: knownPermissions(r.permissions),
});

export type RoleListInput = {
  page?: number;
  limit?: number;
  currentPage?: number;
  pageSize?: number;
  search?: string;
};

/**
 * The list's search, shared with its export. The Roles screen's roles are the spec's app and admin
 * ones: the two fixed clinic roles are not among them, to list, open, change or delete (decision 088).
 */
const rolesWhere = (search: string | undefined) =>
  and(ne(roles.type, 'clinic'), search ? ilike(roles.roleName, containsPattern(search)) : undefined);

export function createRolesService({ db, now }: { db: Db; now: () => Date }) {
  async function find(id: string): Promise<RoleRow> {
    const [row] = await db
      .select()
      .from(roles)
      .where(and(eq(roles.id, id), ne(roles.type, 'clinic')))
      .limit(1);
    if (!row) throw new NotFoundError(roleMessages.notFound);
    return row;
  }

  async function assertNameFree(name: string, exceptId?: string) {
    const [taken] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(
        and(
          sql`lower(${roles.roleName}) = lower(${name})`,
          ne(roles.type, 'clinic'),
          exceptId ? ne(roles.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    if (taken) throw new ConflictError(roleMessages.nameTaken);
  }

  type RoleAccess = { type: RoleRow['type']; permissions: string[] };
  const accessOf = async (id: string): Promise<RoleAccess | undefined> =>
    (
      await db
        .select({ type: roles.type, permissions: roles.permissions })
        .from(roles)
        .where(and(eq(roles.id, id), ne(roles.type, 'clinic')))
        .limit(1)
    )[0];

  /**
   * Whether an update changes what the role's holders may do: its type, or an admin role's
   * permissions (left out, they stay). A rename alone does not. Such a change needs a fresh
   * step-up (decision 046).
   */
  function changesAccess(current: RoleAccess, body: RoleBody): boolean {
    if (current.type !== body.type) return true;
    if (body.type !== 'admin' || body.permissions === undefined) return false;
    const before = new Set(knownPermissions(current.permissions));
    const after = new Set(body.permissions);
    return before.size !== after.size || [...after].some((p) => !before.has(p));
  }

  /** Refuses a role that carries a permission the actor lacks: it is beyond them (decision 063). */
  function assertWithin(actor: { permissions: readonly string[] }, current: RoleAccess) {
    const held = current.type === 'admin' ? knownPermissions(current.permissions) : [];
    const above = firstNotHeld(actor.permissions, held);
    if (above) throw new ForbiddenError(grantMessages.outranked(above));
  }

  async function assertUnheld(id: string) {
    const [{ holders }] = (await db.select({ holders: count() }).from(users).where(eq(users.roleId, id))) as [
      { holders: number },
    ];
    if (holders > 0) throw new ConflictError(roleMessages.inUse(holders));
  }

  /** A race past the check above still ends as a 409, not a 500. */
  const conflictOnDuplicate = (error: unknown): never => {
    if (pgErrorCode(error) === '23505') throw new ConflictError(roleMessages.nameTaken);
    throw error;
  };

  return {
    /** page/limit or currentPage/pageSize; with neither, every role on one page (the dropdown). */
    async list(input: RoleListInput) {
      const where = rolesWhere(input.search);
      const [{ total }] = (await db.select({ total: count() }).from(roles).where(where)) as [
        { total: number },
      ];
      const requestedLimit = input.limit ?? input.pageSize;
      const page = input.page ?? input.currentPage ?? 1;
      const all = requestedLimit === undefined && input.page === undefined && input.currentPage === undefined;
      const limit = all ? Math.max(total, 1) : (requestedLimit ?? 10);
      const rows = await db
        .select()
        .from(roles)
        .where(where)
        .orderBy(asc(roles.roleId))
        .limit(limit)
        .offset((page - 1) * limit);
      return { roles: rows.map(toRole), totalPages: pageCount(total, limit), total, page, limit };
    },

    /** Every role the search matches as CSV, in the list's order (by role id, its cursor). */
    exportCsv: ({ search, columns }: RoleExportQuery, counted: (rows: number) => void) =>
      keysetCsv(
        chosenColumns(roleExportColumns, { roleName: (r: { roleName: string }) => r.roleName }, columns),
        (after, size) =>
          db
            .select({ id: roles.id, roleName: roles.roleName, cursorAt: sql<string>`${roles.roleId}::text` })
            .from(roles)
            .where(and(rolesWhere(search), after ? gt(roles.roleId, Number(after.at)) : undefined))
            .orderBy(asc(roles.roleId))
            .limit(size),
        counted,
      ),

    async get(id: string) {
      return toRole(await find(id));
    },

    async create(body: RoleBody, actor: HistoryActor | null) {
      await assertNameFree(body.roleName);
      const [row] = await withActor(db, actor, (tx) =>
        tx
          .insert(roles)
          .values({
            roleName: body.roleName,
            type: body.type,
            permissions: body.permissions ?? [],
            createTime: now(),
          })
          .returning(),
      ).catch(conflictOnDuplicate);
      return toRole(row!);
    },

    /** Whether this update needs a step-up (see changesAccess); an unknown role does not (404). */
    async changesAccess(id: string, body: RoleBody): Promise<boolean> {
      const current = await accessOf(id);
      return current !== undefined && changesAccess(current, body);
    },

    /**
     * Nobody grants what they do not hold (decision 063), checked before any step-up is asked: a
     * role created or changed carries only permissions the admin holds, a role that carries more
     * than they do is beyond them, and nobody changes their own role's type or permissions (a
     * rename is fine). An unknown role passes: the update answers 404.
     */
    async assertMayChange(
      actor: { roleId: string; permissions: readonly string[] },
      body: RoleBody,
      id?: string,
    ) {
      if (id) {
        const current = await accessOf(id);
        if (!current) return;
        assertWithin(actor, current);
        if (!changesAccess(current, body)) return;
        if (id === actor.roleId) throw new ForbiddenError(grantMessages.ownRolePermissions);
      }
      const missing = firstNotHeld(actor.permissions, body.type === 'admin' ? (body.permissions ?? []) : []);
      if (missing) throw new ForbiddenError(grantMessages.notHeld(missing));
    },

    /**
     * A role that carries a permission the admin lacks is not theirs to delete either; one that
     * users hold cannot be deleted at all. Both are said before any step-up is asked.
     */
    async assertMayRemove(actor: { permissions: readonly string[] }, id: string) {
      const current = await accessOf(id);
      if (!current) return;
      assertWithin(actor, current);
      await assertUnheld(id);
    },

    /** The old and new name, type and permissions are in the role's history (decision 081). */
    async update(id: string, body: RoleBody, actor: HistoryActor | null) {
      const current = await find(id);
      await assertNameFree(body.roleName, id);
      // Left out, the permissions stay as they are; an app role carries none.
      const permissions = body.type === 'app' ? [] : (body.permissions ?? current.permissions);
      const narrowed = body.type !== 'admin' || permissionNames.some((p) => !permissions.includes(p));
      if (current.type === 'admin' && narrowed) {
        // Turning the first admin's role into an app role, or taking a permission from it, could
        // leave nobody able to hand permissions out again.
        const [protectedHolder] = await db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.roleId, id), eq(users.isDeletable, false)))
          .limit(1);
        if (protectedHolder)
          throw new ForbiddenError(
            body.type === 'admin' ? roleMessages.protectedPermissions : roleMessages.protectedType,
          );
      }
      const [row] = await withActor(db, actor, (tx) =>
        tx
          .update(roles)
          .set({ roleName: body.roleName, type: body.type, permissions })
          .where(eq(roles.id, id))
          .returning(),
      ).catch(conflictOnDuplicate);
      if (current.type === 'admin' && body.type !== 'admin') {
        // Holders of a role that is no longer a console role lose their open sessions at once.
        const holders = db.select({ id: users.id }).from(users).where(eq(users.roleId, id));
        await db
          .update(sessions)
          .set({ revokedAt: now() })
          .where(and(inArray(sessions.userId, holders), isNull(sessions.revokedAt)));
      }
      return toRole(row!);
    },

    async remove(id: string, actor: HistoryActor | null) {
      await find(id);
      await assertUnheld(id);
      try {
        await withActor(db, actor, (tx) => tx.delete(roles).where(eq(roles.id, id)));
      } catch (error) {
        // A user took the role between the count and the delete (users.role_id restricts).
        if (pgErrorCode(error) === '23503') throw new ConflictError(roleMessages.inUse(1));
        throw error;
      }
    },
  };
}
export type RolesService = ReturnType<typeof createRolesService>;
