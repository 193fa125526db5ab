import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionNames } from '@app/contract/permissions';
import { scratchDatabase } from '#api/test/test-app.ts';
import { migrationsFolder } from './client.ts';

type Migrate = (folder: string) => Promise<void>;
type Query = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * A database migrated up to the migration before the role permissions (so it holds roles made
 * before permissions existed), then the rest: in-memory PGlite, or a database of its own on the
 * DATABASE_URL server.
 */
async function openBare(): Promise<{ migrate: Migrate; query: Query; close: () => Promise<void> }> {
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

/** The committed migrations up to, not including, the one whose tag ends with `tagEnd`. */
function migrationsBefore(tagEnd: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-before-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tagEnd));
  expect(at, `a migration tagged *${tagEnd}`).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

let bare: Awaited<ReturnType<typeof openBare>>;
let before: string;
beforeAll(async () => {
  bare = await openBare();
  before = migrationsBefore('_role_permissions');
});
afterAll(async () => {
  await bare.close();
  rmSync(before, { recursive: true, force: true });
});

describe('the role permissions migration', () => {
  it('gives every existing admin role every permission and app roles none, so nothing breaks', async () => {
    await bare.migrate(before);
    expect(
      await bare.query(`select column_name from information_schema.columns
        where table_name = 'roles' and column_name = 'permissions'`),
    ).toEqual([]);
    await bare.query(`insert into roles (role_name, type) values
      ('Admin', 'admin'), ('Night Shift', 'admin'), ('Doctor', 'app'), ('Clinic Manager', 'app')`);

    await bare.migrate(migrationsFolder);

    const rows = await bare.query(`select role_name, type, permissions from roles order by role_id`);
    expect(rows).toEqual([
      { role_name: 'Admin', type: 'admin', permissions: [...permissionNames] },
      { role_name: 'Night Shift', type: 'admin', permissions: [...permissionNames] },
      { role_name: 'Doctor', type: 'app', permissions: [] },
      { role_name: 'Clinic Manager', type: 'app', permissions: [] },
    ]);
  });

  it('gives a role made afterwards no permissions unless it is given some', async () => {
    await bare.query(`insert into roles (role_name, type) values ('Later', 'admin')`);
    expect(await bare.query(`select permissions from roles where role_name = 'Later'`)).toEqual([
      { permissions: [] },
    ]);
  });
});
