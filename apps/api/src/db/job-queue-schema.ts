import PgBoss from 'pg-boss';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';

/*
 * The job queue's tables (pg-boss 10, decision 075) live in their own schema of the application's
 * database, on PostgreSQL and on the embedded PGlite alike. They are installed (or upgraded, when a
 * newer pg-boss brings a newer schema) with our migrations, at every open of the database, so the
 * Jobs screen can read them on an instance that runs no job, and the tests' migrated template
 * (test/pglite-template.ts) already holds them.
 */

export const jobQueueSchema = 'pgboss';

/** One result: the rows of a statement, or of a script's last one. */
export type SqlResult = { rows: unknown[]; rowCount: number };

/**
 * Raw SQL on the database's own connections, as pg-boss's `db` option calls it: with values, one
 * statement; without, possibly a script of several (pg-boss's maintenance and migrations are
 * `BEGIN; ...; COMMIT;` scripts).
 */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<SqlResult>;

/**
 * Over our own pool, so the queue takes no connections of its own (decision 075, the budget). A
 * failed script may leave its transaction open on its connection: that connection is destroyed
 * rather than handed to the next request.
 */
export function executeSqlOnPool(pool: Pool): ExecuteSql {
  return async (text, values) => {
    if (values?.length) {
      const result = await pool.query(text, values);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    }
    const client = await pool.connect();
    let failure: Error | undefined;
    try {
      // A script answers one result per statement.
      const results = (await client.query(text)) as unknown as
        { rows: unknown[]; rowCount: number | null } | { rows: unknown[]; rowCount: number | null }[];
      const last = Array.isArray(results) ? results.at(-1) : results;
      return { rows: last?.rows ?? [], rowCount: last?.rowCount ?? 0 };
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(failure);
    }
  };
}

/**
 * Over the PGlite client. Its `query` is the extended protocol, which refuses a script ("cannot
 * insert multiple commands into a prepared statement"): a call without values goes through `exec`.
 * PGlite is one connection, so a script that failed inside its own BEGIN is rolled back here, or
 * every later statement of the process would fail with "current transaction is aborted".
 */
export function executeSqlOnPglite(client: PGlite): ExecuteSql {
  return async (text, values) => {
    if (values?.length) {
      const result = await client.query(text, values);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    try {
      const results = await client.exec(text);
      const last = results.at(-1);
      return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
    } catch (error) {
      if (client.isInTransaction()) await client.exec('rollback');
      throw error;
    }
  };
}

/**
 * Creates the queue's schema, or brings it to this pg-boss's version; a no-op (two reads) when it is
 * there. pg-boss takes its own advisory lock for this, so instances starting together are safe even
 * outside our start-up lock.
 */
export async function installJobQueue(executeSql: ExecuteSql): Promise<void> {
  const boss = new PgBoss({
    db: { executeSql },
    schema: jobQueueSchema,
    migrate: true,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}
