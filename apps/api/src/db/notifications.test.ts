import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/test-app.ts';
import type { Database } from './client.ts';

/*
 * The database's notices as the credential cache depends on them (decision 038): every payload
 * arrives, and the feed says when notices may have been missed. On PostgreSQL that includes the
 * listening connection being killed: the feed goes not-live, reconnects, and goes live again.
 */

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
});
afterAll(() => drop());

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('database notices', () => {
  it('delivers each notice, says when the feed is live, and recovers a lost connection', async () => {
    const payloads: string[] = [];
    const states: boolean[] = [];
    const feed = await database.listen('notices_test', {
      onPayload: (p) => payloads.push(p),
      onLive: (live) => states.push(live),
    });
    await until(() => states.at(-1) === true, 'the feed to go live');
    await database.db.execute(sql`select pg_notify('notices_test', 'one')`);
    await database.db.execute(sql`select pg_notify('another_channel', 'not ours')`);
    await until(() => payloads.length === 1, 'the first notice');
    expect(payloads).toEqual(['one']);

    if (database.kind === 'postgres') {
      // The listening connection dies (a failover, an operator): nothing may be trusted until
      // it is back, and then notices flow again.
      await database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and query like 'LISTEN %'`,
      );
      await until(() => states.includes(false), 'the feed to go not-live');
      await until(() => states.at(-1) === true, 'the feed to be live again');
      await database.db.execute(sql`select pg_notify('notices_test', 'two')`);
      await until(() => payloads.length === 2, 'a notice after the reconnect');
      expect(payloads).toEqual(['one', 'two']);
      expect(states).toEqual([true, false, true]);
    }

    await feed.close();
    expect(states.at(-1)).toBe(false);
  });
});
