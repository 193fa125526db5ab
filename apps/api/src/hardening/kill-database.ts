import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { apiEnv } from './api-process.ts';
import { createScratchDatabase } from './private-postgres.ts';

/*
 * The two databases the kill -9 suites run on, each fresh for one test: a new database on the
 * shared PostgreSQL, or a PGlite data directory (the default). The suites kill and restart servers
 * on it, then read what those left on disk.
 */

type KillDatabase = 'PostgreSQL' | 'PGlite';
/** As a test name says it. */
const inWords: Record<KillDatabase, string> = { PostgreSQL: 'PostgreSQL', PGlite: 'the embedded PGlite' };

/** A SQL query on the database the servers wrote, answering its rows. */
export type SqlQuery = (text: string) => Promise<Array<Record<string, unknown>>>;

/**
 * Runs `body` with the settings of a server on a fresh `database` (`name` prefixes what it creates).
 * `openQuery()` is for once the last server has stopped: a PGlite directory opens in one process
 * at a time. Afterwards the database, its data directory and the connection are gone.
 */
async function onFreshDatabase(
  database: KillDatabase,
  { name, port }: { name: string; port: number },
  body: (env: Record<string, string>, openQuery: () => Promise<SqlQuery>) => Promise<void>,
): Promise<void> {
  const scratch = database === 'PostgreSQL' ? await createScratchDatabase(name) : null;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `${name}-${database.toLowerCase()}-`));
  let close = async () => {};
  const openQuery = async (): Promise<SqlQuery> => {
    if (scratch) {
      const client = new pg.Client({ connectionString: scratch.url });
      close = () => client.end().catch(() => {});
      await client.connect();
      return async (q) => (await client.query(q)).rows as Array<Record<string, unknown>>;
    }
    const opened = await openDatabase({ dataDir });
    close = () => opened.close();
    return async (q) =>
      ((await opened.db.execute(sql.raw(q))) as unknown as { rows: Array<Record<string, unknown>> }).rows;
  };
  try {
    await body(apiEnv({ port, dataDir, env: scratch ? { DATABASE_URL: scratch.url } : {} }), openQuery);
  } finally {
    try {
      await close();
    } finally {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

/**
 * One test per database, named "`title` on PostgreSQL" and "`title` on the embedded PGlite": `body`
 * runs on a fresh one (onFreshDatabase), the server listening on `ports[database]`. `onFailure`
 * runs before a failure is thrown, for the suite's result file.
 */
export function itOnEachDatabase(
  title: string,
  { name, ports, onFailure }: { name: string; ports: Record<KillDatabase, number>; onFailure: () => void },
  body: (
    database: KillDatabase,
    env: Record<string, string>,
    openQuery: () => Promise<SqlQuery>,
  ) => Promise<void>,
): void {
  for (const database of ['PostgreSQL', 'PGlite'] as const)
    it(`${title} on ${inWords[database]}`, () =>
      onFreshDatabase(database, { name, port: ports[database] }, (env, openQuery) =>
        body(database, env, openQuery),
      ).catch((error: unknown) => {
        onFailure();
        throw error;
      }));
}
