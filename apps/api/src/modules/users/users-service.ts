import { and, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import {
  userExportColumns,
  userMessages,
  type User,
  type UserExportQuery,
  type UserCreateBody,
  type UserUpdateBody,
} from '@app/contract/users';
import type { Db } from '#api/db/client.ts';
import { roles, sessions, users } from '#api/db/schema/users.ts';
import { afterCursor, cursorAt, keysetCsv } from '#api/lib/csv-export.ts';
import { chosenColumns } from '#api/lib/export-columns.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '#api/lib/errors.ts';
import { assertNotCommonPassword } from '#api/lib/common-passwords.ts';
import { pageCount, pgErrorCode } from '#api/lib/pagination.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import { hashPassword } from '#api/lib/passwords.ts';
import type { Actor } from '#api/lib/grant-rules.ts';
import { recordActor, withActor, type HistoryActor } from '#api/lib/record-history.ts';
import { deleteRefusal, supplierUser, userSearchWhere } from './user-rules.ts';
import { createUserBulkDelete } from './users-bulk-delete.ts';
import { createUserGrants } from './users-grants.ts';
import { emailChangedMail } from './users-mail.ts';

const columns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  userName: users.userName,
  email: users.email,
  phone: users.phone,
  roleId: users.roleId,
  isDeletable: users.isDeletable,
  createdAt: users.createdAt,
  roleName: roles.roleName,
  roleType: roles.type,
};
type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] | null };

const userCells: Record<keyof typeof userExportColumns, (r: Row) => string | null | undefined> = {
  userName: (r) => r.userName,
  email: (r) => r.email,
  phonenumber: (r) => r.phone,
  role: (r) => r.roleName,
  createdAt: (r) => r.createdAt?.toISOString(),
};

// Never the password hash: the columns above are all a user answer can carry.
const toUser = (r: Row): User => ({
  _id: r.id!,
  firstName: r.firstName,
  lastName: r.lastName,
  userName: r.userName!,
  email: r.email!,
  phone: r.phone,
  phonenumber: r.phone,
  roleId: r.roleId!,
  // Every query here is of the supplier's own users (supplierUser): an app or admin role.
  role:
    r.roleName && r.roleType && r.roleType !== 'clinic'
      ? { _id: r.roleId!, roleName: r.roleName, type: r.roleType }
      : null,
  isDeletable: r.isDeletable ?? true,
  createdAt: r.createdAt!.toISOString(),
});

/** The columns Add User and Edit User both set from the form (an email is stored lower-cased). */
const formColumns = (body: UserCreateBody | UserUpdateBody) => ({
  firstName: body.firstName,
  lastName: body.lastName,
  userName: body.userName,
  email: body.email.toLowerCase(),
  phone: body.phone,
  roleId: body.roleId,
});

export function createUsersService({
  db,
  now,
  mailer,
}: {
  db: Db;
  now: () => Date;
  mailer: Pick<Mailer, 'sendWithin'>;
}) {
  const grants = createUserGrants({ db });
  const select = () => db.select(columns).from(users).leftJoin(roles, eq(users.roleId, roles.id));

  async function find(id: string) {
    const [row] = await select()
      .where(and(eq(users.id, id), supplierUser))
      .limit(1);
    if (!row) throw new NotFoundError(userMessages.notFound);
    return row;
  }

  async function roleOf(roleId: string) {
    const [role] = await db
      .select({ id: roles.id, type: roles.type })
      .from(roles)
      // The clinic roles are given by an invitation only (decision 088).
      .where(and(eq(roles.id, roleId), ne(roles.type, 'clinic')))
      .limit(1);
    if (!role) throw new BadRequestError(userMessages.roleNotFound);
    return role;
  }

  /** Email and user name are unique regardless of case. */
  async function assertUnique(email: string, userName: string, exceptId?: string) {
    const clash = await db
      .select({ email: users.email, userName: users.userName })
      .from(users)
      .where(
        and(
          or(
            sql`lower(${users.email}) = lower(${email})`,
            sql`lower(${users.userName}) = lower(${userName})`,
          ),
          exceptId ? ne(users.id, exceptId) : undefined,
        ),
      )
      .limit(2);
    if (clash.some((c) => c.email.toLowerCase() === email.toLowerCase()))
      throw new ConflictError(userMessages.emailTaken);
    if (clash.length) throw new ConflictError(userMessages.userNameTaken);
  }

  const conflictOnDuplicate = (error: unknown): never => {
    if (pgErrorCode(error) === '23505') {
      const constraint = String((error as { cause?: { constraint?: string } }).cause?.constraint ?? '');
      throw new ConflictError(
        constraint.includes('user_name') ? userMessages.userNameTaken : userMessages.emailTaken,
      );
    }
    throw error;
  };

  const revokeSessions = (userId: string) =>
    db
      .update(sessions)
      .set({ revokedAt: now() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));

  return {
    /**
     * Whether a user form touches a console admin: the role it gives, or (editing) the role the user
     * holds now, is of type admin. Such a change needs a fresh step-up (decision 046). An unknown
     * role or user is not one: the create or update answers it.
     */
    async touchesAdmin(roleId: string, userId?: string): Promise<boolean> {
      const held = userId ? db.select({ id: users.roleId }).from(users).where(eq(users.id, userId)) : null;
      const [admin] = await db
        .select({ id: roles.id })
        .from(roles)
        .where(
          and(
            eq(roles.type, 'admin'),
            held ? or(eq(roles.id, roleId), inArray(roles.id, held)) : eq(roles.id, roleId),
          ),
        )
        .limit(1);
      return admin !== undefined;
    },

    ...grants,

    /** Every user the search matches as CSV in the columns asked for, newest first (decision 056). */
    exportCsv: ({ search, columns: chosen }: UserExportQuery, counted: (rows: number) => void) =>
      keysetCsv(
        chosenColumns(userExportColumns, userCells, chosen),
        (after, size) =>
          db
            .select({ ...columns, cursorAt: cursorAt(users.createdAt) })
            .from(users)
            .leftJoin(roles, eq(users.roleId, roles.id))
            .where(and(userSearchWhere(search), afterCursor(users.createdAt, users.id, after)))
            .orderBy(desc(users.createdAt), desc(users.id))
            .limit(size)
            .then((rows) => rows.map((r) => ({ ...r, id: r.id!, cursorAt: r.cursorAt }))),
        counted,
      ),

    async list(input: { page: number; limit: number; search?: string }) {
      const where = userSearchWhere(input.search);
      const [{ total }] = (await db.select({ total: count() }).from(users).where(where)) as [
        { total: number },
      ];
      const rows = await select()
        .where(where)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(input.limit)
        .offset((input.page - 1) * input.limit);
      return {
        users: rows.map(toUser),
        totalPages: pageCount(total, input.limit),
        total,
        page: input.page,
        limit: input.limit,
      };
    },

    async get(id: string) {
      return toUser(await find(id));
    },

    async create(body: UserCreateBody, actor: HistoryActor | null) {
      const email = body.email.toLowerCase();
      await roleOf(body.roleId);
      await assertUnique(email, body.userName);
      assertNotCommonPassword(body.password, 'password');
      const passwordHash = await hashPassword(body.password);
      const [created] = await withActor(db, actor, (tx) =>
        tx
          .insert(users)
          .values({
            ...formColumns(body),
            passwordHash,
            isDeletable: true,
            createdAt: now(),
            updatedAt: now(),
          })
          .returning({ id: users.id }),
      ).catch(conflictOnDuplicate);
      return toUser(await find(created!.id));
    },

    /**
     * Everything but the password (docs/product.md §5.9: a password in the payload is ignored). The
     * old and new values are in the user's history, with the admin (decision 081).
     */
    async update(id: string, body: UserUpdateBody, actor: HistoryActor) {
      const current = await find(id);
      if (current.isDeletable === false) throw new ForbiddenError(userMessages.protectedEdit);
      const email = body.email.toLowerCase();
      const role = await roleOf(body.roleId);
      await assertUnique(email, body.userName, id);
      const oldEmail = current.email!;
      // The notice to the old address is stored with the change (or not at all), sent once committed.
      const sendNotice = await db.transaction(async (tx) => {
        await recordActor(tx as unknown as Db, actor);
        await tx
          .update(users)
          .set({ ...formColumns(body), updatedAt: now() })
          .where(eq(users.id, id))
          .catch(conflictOnDuplicate);
        if (oldEmail.toLowerCase() === email) return null;
        return mailer.sendWithin(
          tx as unknown as Db,
          emailChangedMail({
            oldEmail,
            newEmail: email,
            userName: body.userName,
            changedBy: actor.email,
            at: now(),
          }),
        );
      });
      // A delivery problem is the mailer's to retry; it never fails the edit.
      if (sendNotice) void sendNotice();
      // Someone moved to an app role may no longer use the console: their sessions end now.
      if (role.type !== 'admin') await revokeSessions(id);
      return toUser(await find(id));
    },

    /** Sessions go with the user (sessions.user_id cascades), so their tokens stop working at once. */
    async remove(actor: Actor, id: string, history: HistoryActor | null) {
      const current = await grants.standingOf(id);
      if (!current) throw new NotFoundError(userMessages.notFound);
      const refusal = deleteRefusal(actor, current);
      if (refusal) throw new ForbiddenError(refusal);
      await withActor(db, history, (tx) => tx.delete(users).where(and(eq(users.id, id), supplierUser)));
    },

    bulkRemove: createUserBulkDelete({ db }),
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
