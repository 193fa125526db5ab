import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { migrationsFolder, openDatabase, type Database } from '../db/client.ts';
import { testOutputDir } from './test-output.ts';

/*
 * New in-memory test databases start from the data directory of a just-migrated PGlite, kept as a
 * tarball (CONTRIBUTING.md, "How long the fast loop takes"): loading it costs a third of the CPU of
 * initdb plus every migration. It stays under .test-output/ from one run to the next, named by a hash
 * of everything that decides its content, the migrations, PGlite's version and pg-boss's (opening a
 * database installs the job queue's schema): a changed migration or an upgrade names another file,
 * so a stale one is never loaded. `npm test` empties .test-output/ and so always makes a new one.
 */

const cacheDir = path.join(testOutputDir, 'pglite-template');

function templateFile(): string {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  const pgliteEntry = require.resolve('@electric-sql/pglite');
  hash.update(readFileSync(path.join(path.dirname(pgliteEntry), '../package.json')));
  // The job queue's schema is installed with the migrations (db/job-queue-schema.ts).
  hash.update(readFileSync(require.resolve('pg-boss/package.json')));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
      )
      .sort();
  for (const file of files(migrationsFolder)) {
    hash.update(path.relative(migrationsFolder, file)).update('\0').update(readFileSync(file));
  }
  return path.join(cacheDir, `${hash.digest('hex').slice(0, 16)}.tar`);
}

async function save(database: Database, file: string): Promise<Blob> {
  const client = (database.db as unknown as { $client: { dumpDataDir: (c: 'none') => Promise<Blob> } })
    .$client;
  const dump = await client.dumpDataDir('none');
  mkdirSync(cacheDir, { recursive: true });
  // Written whole, then renamed: two workers saving it at once each leave a complete file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return dump;
}

/** This worker's template file and its content, read once; null while no run has saved it. */
let template: Promise<{ file: string; dump: Blob | null }> | undefined;

/** A just-migrated in-memory PGlite, from the template; the first ever is migrated and saved as it. */
export async function openMigratedPglite(): Promise<Database> {
  template ??= Promise.resolve().then(() => {
    const file = templateFile();
    try {
      return { file, dump: new Blob([readFileSync(file)]) };
    } catch {
      return { file, dump: null };
    }
  });
  const { file, dump } = await template;
  if (dump) return openDatabase({ dataDir: null, loadDataDir: dump });
  const database = await openDatabase({ dataDir: null });
  template = save(database, file).then((saved) => ({ file, dump: saved }));
  await template;
  return database;
}
