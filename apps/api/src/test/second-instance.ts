import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { rowsOf } from '../db/rows-of.ts';
import type { TestApp } from './test-app.ts';

/**
 * Another API instance on the test app's database, as a second server behind the same load
 * balancer would be: its own app, services, mailer and jobs, the same settings and clock. On
 * PostgreSQL it has its own connection pool to the same database; on PGlite (one process) it shares
 * the test app's database handle. `settings` changes some of them (e.g. `smtpUrl`).
 */
export async function secondInstance(
  t: TestApp,
  settings: Partial<Config> = {},
): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  let database: Database = t.database;
  let own = false;
  const serverUrl = process.env.DATABASE_URL;
  if (t.database.kind === 'postgres' && serverUrl) {
    const [row] = rowsOf<{ name: string }>(
      await t.database.db.execute(sql`select current_database() as name`),
    );
    const url = new URL(serverUrl);
    url.pathname = `/${row!.name}`;
    database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
    own = true;
  }
  const app = await buildApp({
    config: { ...t.config, ...settings },
    database,
    now: () => t.clock.now,
    logger: false,
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      if (own) await database.close();
    },
  };
}
