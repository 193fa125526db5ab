import type { Client as PgClient } from 'pg';

/**
 * One channel of PostgreSQL's LISTEN/NOTIFY, as a cache needs it: every payload, and whether the
 * feed can be trusted right now. While `live` is false notices may have been missed, so whoever
 * caches must hold nothing; after a reconnect it starts again from empty.
 */
export type NotificationFeed = {
  close: () => Promise<void>;
};
export type NotificationHandlers = {
  onPayload: (payload: string) => void;
  onLive: (live: boolean) => void;
};

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * node-postgres: its own connection (a pooled one would drop the LISTEN when handed back). A ping
 * every `pingMs` finds a silently dead peer, which TCP keepalive would notice only after minutes;
 * on any failure the feed goes not-live and reconnects with a growing pause.
 */
export function listenOnPostgres(
  connection: { connectionString: string; connectionTimeoutMillis: number },
  channel: string,
  handlers: NotificationHandlers,
  { pingMs = 5000, maxPauseMs = 30_000 } = {},
): NotificationFeed {
  let client: PgClient | null = null;
  let closed = false;
  let pause = 250;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;

  const lost = (failed: PgClient) => {
    if (client !== failed) return; // already handled
    client = null;
    clearInterval(ping);
    handlers.onLive(false);
    failed.removeAllListeners('notification');
    void failed.end().catch(() => {});
    if (closed) return;
    retry = setTimeout(start, pause);
    pause = Math.min(pause * 2, maxPauseMs);
  };

  async function start() {
    let next: PgClient | null = null;
    try {
      // Loaded here, as client.ts loads pg: the embedded database never needs it.
      const { Client } = await import('pg');
      next = new Client({ ...connection, keepAlive: true });
      await next.connect();
      next.on('error', () => lost(next!));
      next.on('end', () => lost(next!));
      next.on('notification', (n) => {
        if (n.channel === channel) handlers.onPayload(n.payload ?? '');
      });
      client = next;
      await next.query(`LISTEN ${quoteIdent(channel)}`);
      if (closed) return void (await next.end());
      pause = 250;
      ping = setInterval(() => {
        const current = client;
        if (!current) return;
        // A reply that does not come within the interval counts as a dead connection.
        const timeout = setTimeout(() => lost(current), pingMs);
        current.query('SELECT 1').then(
          () => clearTimeout(timeout),
          () => (clearTimeout(timeout), lost(current)),
        );
      }, pingMs);
      ping.unref();
      handlers.onLive(true);
    } catch {
      if (next && client === next) lost(next);
      else if (!closed) {
        void next?.end().catch(() => {});
        retry = setTimeout(start, pause);
        pause = Math.min(pause * 2, maxPauseMs);
      }
    }
  }
  void start();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(ping);
      const current = client;
      client = null;
      handlers.onLive(false);
      await current?.end().catch(() => {});
    },
  };
}

/** PGlite: one process, one connection; its notices cannot be missed, so the feed is always live. */
export function listenOnPglite(
  pglite: { listen: (channel: string, cb: (payload: string) => void) => Promise<() => Promise<void>> },
  channel: string,
  handlers: NotificationHandlers,
): Promise<NotificationFeed> {
  return pglite.listen(channel, handlers.onPayload).then((unlisten) => {
    handlers.onLive(true);
    return {
      async close() {
        handlers.onLive(false);
        await unlisten().catch(() => {});
      },
    };
  });
}
