import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { migrationsFolder, openDatabase } from '../db/client.ts';
import { testOutputDir } from './test-output.ts';

/*
 * The data directory of a just-migrated PGlite, as a tarball new test databases start from
 * (CONTRIBUTING.md, "How long the fast loop takes"). Starting from it costs a third of the CPU of
 * initdb plus every migration. It is kept under .test-output/ from one run to the next, named by a
 * hash of everything that decides its content: the migrations and PGlite's version. A changed
 * migration or a PGlite upgrade names another file, so a stale one is never loaded; `npm test`
 * empties .test-output/ and so always starts from a new one.
 */

const cacheDir = path.join(testOutputDir, 'pglite-template');

function templateName(): string {
  const hash = createHash('sha256');
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(readFileSync(path.join(path.dirname(pgliteEntry), '../package.json')));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
      )
      .sort();
  for (const file of files(migrationsFolder)) {
    hash.update(path.relative(migrationsFolder, file)).update('\0').update(readFileSync(file));
  }
  return `${hash.digest('hex').slice(0, 16)}.tar`;
}

async function build(file: string): Promise<Blob> {
  const database = await openDatabase({ dataDir: null });
  try {
    const client = (database.db as unknown as { $client: { dumpDataDir: (c: 'none') => Promise<Blob> } })
      .$client;
    const dump = await client.dumpDataDir('none');
    mkdirSync(cacheDir, { recursive: true });
    // Written whole, then renamed: two workers building it at once each leave a complete file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  } finally {
    await database.close();
  }
}

let template: Promise<Blob> | undefined;

/** The just-migrated data directory, read from .test-output/ or made there once. */
export function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = path.join(cacheDir, templateName());
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      return build(file);
    }
  })();
  return template;
}
