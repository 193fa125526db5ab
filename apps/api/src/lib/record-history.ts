import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { requireAuth } from './request-context.ts';

/*
 * Who makes a change the record history keeps (decision 081). The history itself is written by the
 * database (migration 0049's triggers), in the transaction of the change; this names the admin for
 * that transaction: a transaction-local setting the triggers read, gone at commit or rollback, so it
 * can never stick to the next user of a pooled connection. A write made without it is the system's.
 */

/** The signed-in admin, the session and request they act from, and why when the change asked. */
export type HistoryActor = {
  userId: string;
  email: string;
  sessionId: string;
  requestId?: string;
  reason?: string | null;
};

/** The admin behind this request, as the history names them. */
export function historyActorOf(request: FastifyRequest, reason?: string | null): HistoryActor {
  const auth = requireAuth(request);
  return { userId: auth.userId, email: auth.email, sessionId: auth.sessionId, requestId: request.id, reason };
}

/** Names the actor for the rest of this transaction: the first statement of a transaction that writes. */
export async function recordActor(tx: Db, actor: HistoryActor | null | undefined): Promise<void> {
  if (!actor) return;
  const setting = JSON.stringify({
    userId: actor.userId,
    email: actor.email,
    sessionId: actor.sessionId,
    requestId: actor.requestId ?? null,
    reason: actor.reason ?? null,
  });
  await tx.execute(sql`select set_config('app.history_actor', ${setting}, true)`);
}

/**
 * Runs `work` in a transaction that names the actor (its writes' history says who); without one,
 * as the system, on `db` as it is. Inside, use only `tx`: on the embedded database a query on `db`
 * would wait for this transaction to end.
 */
export function withActor<T>(
  db: Db,
  actor: HistoryActor | null | undefined,
  work: (tx: Db) => Promise<T>,
): Promise<T> {
  if (!actor) return work(db);
  return db.transaction(async (tx) => {
    await recordActor(tx as unknown as Db, actor);
    return work(tx as unknown as Db);
  });
}
