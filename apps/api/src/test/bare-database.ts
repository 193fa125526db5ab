import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder } from '../db/client.ts';
import { scratchDatabase } from './test-app.ts';

/*
 * For the tests of one migration's effect on data that was there before it: a database that is
 * not migrated (not the pool's template), migrated up to the migration before, filled, then
 * migrated to the end. In-memory PGlite, or a database of its own on the DATABASE_URL server.
 */

type Migrate = (folder: string) => Promise<void>;
type Query = (text: string) => Promise<Record<string, unknown>[]>;
export type BareDatabase = { migrate: Migrate; query: Query; close: () => Promise<void> };

export async function openBare(): Promise<BareDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzle(client);
    return {
      migrate: (folder) => migrate(db, { migrationsFolder: folder }),
      query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
      close: () => client.close(),
    };
  }
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const scratch = await scratchDatabase(serverUrl);
  const pool = new Pool({ connectionString: scratch.url, max: 2 });
  const db = drizzle(pool);
  return {
    migrate: (folder) => migrate(db, { migrationsFolder: folder }),
    query: async (text) => (await db.execute(sql.raw(text))).rows,
    close: async () => {
      await pool.end();
      await scratch.drop();
    },
  };
}

/**
 * A copy of the committed migrations up to, not including, the one whose tag ends with `tagEnd`
 * (a temporary folder: the caller removes it). Throws when no migration has that tag.
 */
export function migrationsBefore(tagEnd: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-before-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tagEnd));
  if (at <= 0) throw new Error(`no migration tagged *${tagEnd} (after the first)`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}
