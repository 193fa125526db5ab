import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/test-app.ts';
import type { Database } from './client.ts';
import { rowsOf } from './rows-of.ts';

/*
 * PostgreSQL can end a connection while a transaction holds it between two statements (an
 * operator's pg_terminate_backend, a failover). That must fail the transaction, not the process:
 * without a listener on the checked-out connection, node-postgres's 'error' event was an uncaught
 * exception (it once broke a test run, from a scratch database dropped WITH (FORCE)).
 */

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
});
afterAll(() => drop());

const backendGone = async (pid: number) => {
  const deadline = Date.now() + 5000;
  for (;;) {
    const rows = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where pid = ${pid}`),
    );
    if (rows[0]!.n === 0) return;
    if (Date.now() > deadline) throw new Error(`backend ${pid} still there after 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('a connection ended inside a transaction', () => {
  it('fails that transaction and leaves the database usable', async () => {
    const transaction = database.db.transaction(async (tx) => {
      const pid = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`))[0]!.pid;
      await database.db.execute(sql`select pg_terminate_backend(${pid})`);
      await backendGone(pid);
      // The server's goodbye has reached the idle connection by now; give Node a turn to read it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.execute(sql`select 1`);
    });
    await expect(transaction).rejects.toThrow();
    expect(rowsOf(await database.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
  });
});
