import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import {
  listenOnPglite,
  listenOnPostgres,
  type NotificationFeed,
  type NotificationHandlers,
} from './notifications.ts';
import {
  clientWithPlannedStatements,
  markNamedStatements,
  plannedStatementsOn,
} from './pglite-planned-statements.ts';
import {
  executeSqlOnPglite,
  executeSqlOnPool,
  installJobQueue,
  type ExecuteSql,
} from './job-queue-schema.ts';
import { refuseInheritedClinicRole } from './clinic-role-check.ts';

/** Both drivers give the same query builder; services only see this type. */
export type Db = PgDatabase<PgQueryResultHKT>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  ping: () => Promise<void>;
  /** Notices on a channel (NOTIFY), with whether none can have been missed (notifications.ts). */
  listen: (channel: string, handlers: NotificationHandlers) => Promise<NotificationFeed>;
  /**
   * Runs start-up work (migrations, the first admin, demo data) while holding the start-up lock: on
   * PostgreSQL an advisory lock, so instances started together on one database take turns instead
   * of racing (issue 32 finding 10: of five started at once, four died in migrations). PGlite is
   * one process: the work just runs.
   */
  startupLock: <T>(work: () => Promise<T>) => Promise<T>;
  /** Raw SQL on this database's connections, for the job queue (db/job-queue-schema.ts). */
  executeSql: ExecuteSql;
  /** PGlite only: its data directory as a tarball, for npm run backup (lib/backup, decision 076). */
  dumpDataDir?: () => Promise<Blob>;
  close: () => Promise<void>;
};

/** The advisory lock key of start-up work: any number the application uses for nothing else. */
const startupLockKey = 0x5e70_0001;

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** PGlite in `dataDir` (or in memory when dataDir is null); node-postgres when a URL is given. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string | null;
  connectTimeoutMs?: number;
  /** PGlite only: a dumped data directory to start from (the tests' migrated template). */
  loadDataDir?: Blob;
}): Promise<Database> {
  const databaseUrl = opts.databaseUrl;
  if (databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      // Without a bound, a request waits forever for a connection while the server is down or
      // unreachable; with it, the wait ends in an error the handler answers 503.
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      // Notice a silently dropped peer (a failed-over host, a dead NAT entry) on idle connections.
      keepAlive: true,
    });
    // A dropped connection must not crash the process; the pool discards it and the next query
    // opens a new one, so the API recovers when the database is back without a restart.
    pool.on('error', () => {});
    // The pool listens only to its idle connections. One checked out for a transaction that the
    // server ends between two statements (an operator, a failover) emits 'error' with no listener,
    // which Node turns into an uncaught exception: the process would die. With this one, the
    // transaction's next statement fails instead, and the pool discards the connection.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzle(pool);
    const startupLock = async <T>(work: () => Promise<T>): Promise<T> => {
      // A session lock on a connection of its own: the work's queries run on other connections
      // of the pool, and other instances wait in pg_advisory_lock until this one is done.
      const holder = await pool.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [startupLockKey]);
        try {
          return await work();
        } finally {
          await holder.query('select pg_advisory_unlock($1)', [startupLockKey]);
        }
      } finally {
        holder.release();
      }
    };
    const executeSql = executeSqlOnPool(pool);
    await startupLock(async () => {
      await migrate(db, { migrationsFolder });
      await installJobQueue(executeSql);
    });
    await refuseInheritedClinicRole(executeSql);
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      startupLock,
      executeSql,
      ping: async () => void (await db.execute(sql`select 1`)),
      listen: async (channel, handlers) =>
        listenOnPostgres(
          { connectionString: databaseUrl, connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000 },
          channel,
          handlers,
        ),
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dir: string | undefined;
  if (opts.dataDir) {
    dir = path.join(opts.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
  }
  // One options object: with a positional undefined dataDir, PGlite ignores the options (and the extension).
  const client = await PGlite.create({
    dataDir: dir,
    loadDataDir: opts.loadDataDir,
    extensions: { pg_trgm },
  });
  const planned = plannedStatementsOn(client);
  const db = drizzle({ client: clientWithPlannedStatements(client, planned) });
  markNamedStatements(db, planned);
  await migrate(db, { migrationsFolder });
  const executeSql = executeSqlOnPglite(client);
  await installJobQueue(executeSql);
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    executeSql,
    ping: async () => void (await client.query('select 1')),
    listen: (channel, handlers) => listenOnPglite(client, channel, handlers),
    startupLock: (work) => work(),
    dumpDataDir: () => dumpPgliteDataDir(client),
    close: () => client.close(),
  };
}

/**
 * The data directory as PGlite's tarball, consistent: the dump is made in one synchronous pass
 * between two queries, so it is what a crash at that moment would leave, which PostgreSQL recovers
 * from its WAL; the CHECKPOINT first leaves little to replay.
 */
export async function dumpPgliteDataDir(client: {
  exec: (query: string) => Promise<unknown>;
  dumpDataDir: (compression: 'none') => Promise<Blob>;
}): Promise<Blob> {
  await client.exec('checkpoint');
  return client.dumpDataDir('none');
}
