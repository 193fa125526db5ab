/**
 * Sessions read on the embedded database, so a console request needs no session query there
 * (decision 042). Sound only while told of every change: the database announces any change to a
 * session's end, a user or a role on `session_auth_changed`, and PGlite (one process) delivers the
 * notice before the statement that made the change returns; any notice empties the whole cache
 * (changes are rare: a sign-out, a role edited). Nothing is kept while the feed is not live. A
 * lookup that began before a notice is not kept (the generation count).
 */
export function createSessionCache<Session extends { lastSeenAt: Date }>({
  maxEntries = 10_000,
}: { maxEntries?: number } = {}) {
  const entries = new Map<string, Session>();
  let live = false;
  let generation = 0;
  return {
    get: (sessionId: string) => entries.get(sessionId),
    /** The mark to hand back to `set`: taken before the database read. */
    generation: () => generation,
    set(sessionId: string, session: Session, readAt: number) {
      if (!live || readAt !== generation) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(sessionId, session);
    },
    /** This instance wrote a newer last-seen time: kept, so the next request does not write it again. */
    seen(sessionId: string, at: Date) {
      const entry = entries.get(sessionId);
      if (entry && entry.lastSeenAt < at) entry.lastSeenAt = at;
    },
    clear() {
      generation++;
      entries.clear();
    },
    setLive(next: boolean) {
      generation++;
      entries.clear();
      live = next;
    },
  };
}
