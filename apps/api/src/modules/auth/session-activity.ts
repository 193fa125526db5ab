import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { sessions } from '#api/db/schema/users.ts';

export type SessionTimes = { id: string; lastSeenAt: Date; expiresAt: Date };

/**
 * The idle half of a session's life (the absolute half is sessions.expires_at): a session with no
 * authenticated request for `idleMinutes` is dead. last_seen_at is written at most once a minute
 * per session (a quarter of the idle time when that is shorter), not on every request, so the
 * deadline the client is told can be up to that much earlier than "last request + idle".
 */
export function createSessionActivity({
  db,
  idleMinutes,
  now,
}: {
  db: Db;
  idleMinutes: number;
  now: () => Date;
}) {
  const idleMs = Math.round(idleMinutes * 60_000);
  const touchEveryMs = Math.min(60_000, idleMs / 4);

  const touch = async (id: string, at: Date) => {
    // Conditional, so concurrent requests of one session do not write an older time over a newer one.
    await db
      .update(sessions)
      .set({ lastSeenAt: at })
      .where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, at)));
  };

  return {
    idleSeconds: idleMs / 1000,

    /**
     * Records a request on a live session. Returns when the session ends if nothing else happens
     * (idle deadline or absolute expiry, whichever is first) and its last-seen time as now written,
     * or null when it has already been idle too long; such a session is revoked, so no later clock
     * or setting change can revive it.
     */
    async record(session: SessionTimes): Promise<{ endsAt: Date; lastSeenAt: Date } | null> {
      const at = now();
      const idleFor = at.getTime() - session.lastSeenAt.getTime();
      if (idleFor >= idleMs) {
        await db
          .update(sessions)
          .set({ revokedAt: at })
          .where(and(eq(sessions.id, session.id), isNull(sessions.revokedAt)));
        return null;
      }
      let seen = session.lastSeenAt;
      if (idleFor >= touchEveryMs) {
        await touch(session.id, at);
        seen = at;
      }
      return {
        endsAt: new Date(Math.min(seen.getTime() + idleMs, session.expiresAt.getTime())),
        lastSeenAt: seen,
      };
    },

    /** Idle too long by this last-seen time (the caller may know a newer one: read it again first). */
    isIdle: (lastSeenAt: Date, at: Date) => at.getTime() - lastSeenAt.getTime() >= idleMs,

    /** The explicit "stay signed in" on a session the caller has just authenticated: written now, even within the minute. */
    async keepAlive(session: Omit<SessionTimes, 'lastSeenAt'>): Promise<Date> {
      const at = now();
      await touch(session.id, at);
      return new Date(Math.min(at.getTime() + idleMs, session.expiresAt.getTime()));
    },
  };
}
export type SessionActivity = ReturnType<typeof createSessionActivity>;
