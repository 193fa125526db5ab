import { and, desc, eq, inArray } from 'drizzle-orm';
import { bulkLimit, bulkMessages, type BulkResult, type BulkRowResult } from '@app/contract/bulk-actions';
import { userMessages, type UserBulkDeleteBody } from '@app/contract/users';
import type { Db } from '#api/db/client.ts';
import { roles, users } from '#api/db/schema/users.ts';
import { chunksOf } from '#api/lib/chunks.ts';
import { BadRequestError } from '#api/lib/errors.ts';
import { heldPermissions, type Actor } from '#api/lib/grant-rules.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';
import { deleteRefusal, supplierUser, userSearchWhere } from './user-rules.ts';

type Candidate = { id: string; userName: string; isDeletable: boolean | null; permissions: string[] | null };
const candidateColumns = {
  id: users.id,
  userName: users.userName,
  isDeletable: users.isDeletable,
  permissions: heldPermissions,
};

/**
 * User Management's bulk delete: the users picked, or every user the list's search matches. Each
 * user meets the single delete's rules (not yourself, not a protected user); the rest are deleted
 * in one transaction, their sessions with them (sessions.user_id cascades).
 */
export function createUserBulkDelete({ db }: { db: Db }) {
  async function picked(ids: readonly string[]): Promise<Map<string, Candidate>> {
    const found = new Map<string, Candidate>();
    for (const run of chunksOf(ids))
      for (const row of await db
        .select(candidateColumns)
        .from(users)
        .leftJoin(roles, eq(users.roleId, roles.id))
        .where(and(inArray(users.id, run), supplierUser)))
        found.set(row.id, row);
    return found;
  }

  async function matching(search: string | undefined): Promise<Candidate[]> {
    const where = userSearchWhere(search);
    const rows = await db
      .select(candidateColumns)
      .from(users)
      .leftJoin(roles, eq(users.roleId, roles.id))
      .where(where)
      // The list's order, so the answer reads like the list; one past the limit tells "too many".
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(bulkLimit + 1);
    if (rows.length > bulkLimit)
      throw new BadRequestError(bulkMessages.tooMany(await db.$count(users, where)));
    return rows;
  }

  return async function bulkRemove(
    actor: Actor,
    body: UserBulkDeleteBody,
    history: HistoryActor | null,
  ): Promise<BulkResult & { doneIds: string[] }> {
    const found = body.ids ? await picked(body.ids) : null;
    const ids = body.ids ?? [];
    const candidates = found ? ids.map((id) => found.get(id)) : await matching(body.allMatching!.search);
    const allowed = candidates.filter((c): c is Candidate => !!c && !deleteRefusal(actor, c));
    const deleted = new Set<string>();
    if (allowed.length)
      await db.transaction(async (tx) => {
        // Each removed user's last values stay in their history, with who removed them (decision 081).
        await recordActor(tx as unknown as Db, history);
        for (const run of chunksOf(allowed.map((c) => c.id)))
          for (const row of await tx.delete(users).where(inArray(users.id, run)).returning({ id: users.id }))
            deleted.add(row.id);
      });
    const results = candidates.map((c, i): BulkRowResult => {
      if (!c) return { _id: ids[i]!, outcome: 'refused', reason: userMessages.notFound };
      const named = { _id: c.id, userName: c.userName };
      if (deleted.has(c.id)) return { ...named, outcome: 'done' };
      // Refused by a rule, or gone since it was read (another admin deleted it).
      return { ...named, outcome: 'refused', reason: deleteRefusal(actor, c) ?? userMessages.notFound };
    });
    return { results, done: deleted.size, refused: results.length - deleted.size, doneIds: [...deleted] };
  };
}
