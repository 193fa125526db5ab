import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { count } from 'drizzle-orm';
import { openDatabase } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { users } from '#api/db/schema/users.ts';
import { backupFormat, dataDirFiles, isStorageKey, type BackupManifest } from './data-dir-backup.ts';
import { readTar, type TarFileEntry } from './tar-stream.ts';

/*
 * Restores a backup of npm run backup into DATA_DIR (decision 076): everything is unpacked into a
 * folder beside it and checked there (every entry against the backup's own list of sizes and
 * SHA-256, then the database opened as the server opens it, migrations included). Only then is
 * DATA_DIR moved aside to <DATA_DIR>.before-restore-<time> and the new folder renamed into its place:
 * two renames in one parent folder, so DATA_DIR is either the old data or the new, never a mix.
 * Any failure before that leaves DATA_DIR as it was and removes the new folder.
 */

/** A refusal or failure the operator reads as it is. */
export class RestoreError extends Error {}

export type RestoreResult = {
  dataDir: string;
  /** Where the data that was in DATA_DIR now is; null when DATA_DIR did not exist. */
  previous: string | null;
  createdAt: string;
  pglite: string;
  storage: 'disk' | 's3';
  files: number;
  users: number;
  devices: number;
  hasJwtSecret: boolean;
};

const stamp = (now: Date) => now.toISOString().replace(/[:.]/g, '-');
const manifestLimit = 16 * 1024 * 1024;

const allowedName = (name: string) =>
  name === 'database.tar' ||
  dataDirFiles.includes(name) ||
  (name.startsWith('files/') && isStorageKey(name.slice('files/'.length)));

async function readAll(entry: TarFileEntry, limit: number): Promise<Buffer> {
  if (entry.size > limit) throw new RestoreError(`${entry.name} is larger than a backup writes it`);
  const pieces: Buffer[] = [];
  for await (const piece of entry.body) pieces.push(piece);
  return Buffer.concat(pieces);
}

/** Unpacks the archive into `staging`; returns the database dump and the checked manifest. */
async function unpack(file: string, staging: string) {
  const gunzip = createGunzip();
  void pipeline(createReadStream(file), gunzip).catch(() => undefined);
  const got = new Map<string, { size: number; sha256: string }>();
  let database: Buffer[] | null = null;
  let manifest: BackupManifest | null = null;
  try {
    for await (const entry of readTar(gunzip)) {
      if (manifest) throw new RestoreError(`${entry.name} comes after the backup's list of contents`);
      if (entry.name === 'backup.json') {
        manifest = JSON.parse((await readAll(entry, manifestLimit)).toString('utf8')) as BackupManifest;
        continue;
      }
      if (!allowedName(entry.name)) throw new RestoreError(`unexpected entry ${JSON.stringify(entry.name)}`);
      if (got.has(entry.name)) throw new RestoreError(`${entry.name} is in it twice`);
      const hash = createHash('sha256');
      let size = 0;
      if (entry.name === 'database.tar') {
        database = [];
        for await (const piece of entry.body) {
          database.push(piece);
          hash.update(piece);
          size += piece.length;
        }
      } else {
        const target = path.join(staging, ...entry.name.split('/'));
        await mkdir(path.dirname(target), { recursive: true });
        const handle = await open(target, 'wx', 0o600);
        try {
          for await (const piece of entry.body) {
            await handle.write(piece);
            hash.update(piece);
            size += piece.length;
          }
        } finally {
          await handle.close();
        }
      }
      got.set(entry.name, { size, sha256: hash.digest('hex') });
    }
  } finally {
    gunzip.destroy();
  }
  if (!manifest) throw new RestoreError('it has no list of contents (backup.json): it was cut short');
  if (manifest.format !== backupFormat || manifest.version !== 1)
    throw new RestoreError(`its list of contents is not of a known backup format (${manifest.format})`);
  if (!database) throw new RestoreError('it holds no database');
  const listed = new Map(manifest.entries.map((e) => [e.name, e]));
  for (const [name, { size, sha256 }] of got) {
    const expected = listed.get(name);
    if (!expected) throw new RestoreError(`${name} is not in its list of contents`);
    if (expected.size !== size || expected.sha256 !== sha256)
      throw new RestoreError(`${name} differs from its list of contents (damaged)`);
  }
  const missing = [...listed.keys()].filter((name) => !got.has(name));
  if (missing.length) throw new RestoreError(`it lacks ${missing.join(', ')}`);
  await checkDataDirDump(database);
  return { database, manifest };
}

/**
 * Whether the database part is PGlite's tarball of a data directory. PGlite itself, given anything
 * else, fails where no caller can catch it (its loader's gunzip error ends the process).
 */
async function checkDataDirDump(dump: Buffer[]) {
  let version = false;
  try {
    const chunks = (async function* () {
      yield* dump;
    })();
    for await (const entry of readTar(chunks, { directories: true }))
      if (entry.name.replace(/^\/+/, '') === 'PG_VERSION') version = true;
  } catch (error) {
    throw new RestoreError(`its database part is damaged: ${(error as Error).message}`);
  }
  if (!version) throw new RestoreError('its database part is not a PostgreSQL data directory');
}

/**
 * Restores `file` into `dataDir`. `serverRunning` is asked before anything is unpacked and again
 * just before the swap: a server on DATA_DIR holds the database open and would keep using the old one.
 */
export async function restoreBackup(opts: {
  file: string;
  dataDir: string;
  serverRunning: () => Promise<boolean>;
  now?: Date;
}): Promise<RestoreResult> {
  const stopFirst = () =>
    new RestoreError(`A server is running on ${opts.dataDir}: stop it first, then restore.`);
  const file = path.resolve(opts.file);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new RestoreError(`No backup file at ${file}.`);
  if (await opts.serverRunning()) throw stopFirst();

  const dataDir = path.resolve(opts.dataDir);
  const parent = path.dirname(dataDir);
  const base = path.basename(dataDir);
  const time = stamp(opts.now ?? new Date());
  const staging = path.join(parent, `${base}.restoring-${time}`);
  const previous = path.join(parent, `${base}.before-restore-${time}`);
  await mkdir(parent, { recursive: true });
  await mkdir(staging, { mode: 0o700 });
  try {
    let unpacked;
    try {
      unpacked = await unpack(file, staging);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new RestoreError(`${file} is not a whole backup made by npm run backup: ${detail}.`);
    }
    const { database: dump, manifest } = unpacked;
    let counts;
    try {
      const database = await openDatabase({ dataDir: staging, loadDataDir: new Blob(dump) });
      try {
        const [u] = await database.db.select({ n: count() }).from(users);
        const [d] = await database.db.select({ n: count() }).from(devices);
        counts = { users: u!.n, devices: d!.n };
      } finally {
        await database.close();
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new RestoreError(`The database in ${file} does not open: ${detail}.`);
    }

    if (await opts.serverRunning()) throw stopFirst();
    const hadData = Boolean(await stat(dataDir).catch(() => null));
    if (hadData) {
      await rename(dataDir, previous).catch((error: NodeJS.ErrnoException) => {
        throw new RestoreError(
          `Could not move ${dataDir} aside (${error.code ?? error.message}); if it is a mount point, mount the folder above it and keep DATA_DIR inside.`,
        );
      });
    }
    try {
      await rename(staging, dataDir);
    } catch (error) {
      if (hadData) await rename(previous, dataDir);
      throw error;
    }
    // The data before the last restore is kept until this one has succeeded; older ones go (and
    // one that cannot be removed now stays for the next restore: the restore itself is done).
    for (const name of await readdir(parent).catch(() => [])) {
      if (name.startsWith(`${base}.before-restore-`) && path.join(parent, name) !== previous)
        await rm(path.join(parent, name), { recursive: true, force: true }).catch(() => undefined);
    }
    return {
      dataDir,
      previous: hadData ? previous : null,
      createdAt: manifest.createdAt,
      pglite: manifest.pglite,
      storage: manifest.storage,
      files: manifest.entries.filter((e) => e.name.startsWith('files/')).length,
      ...counts,
      hasJwtSecret: manifest.entries.some((e) => e.name === 'jwt-secret'),
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
