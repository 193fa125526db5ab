import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { assertValidKey } from '../storage/storage-key.ts';
import { tarEnd, tarHeader, tarPadding } from './tar-stream.ts';

/*
 * A backup of the embedded installation (decision 076): one .tar.gz holding
 *   database.tar     PGlite's own dump of DATA_DIR/pgdata (dumpDataDir), taken between two queries
 *   files/<key>      the uploaded files, when they are stored on disk (STORAGE=disk, the default)
 *   jwt-secret       the generated secret, when JWT_SECRET is not set: licence keys and two-step
 *                    secrets in the database are sealed with it
 *   demo-fleet.json  the demo fleet's machines, when there is one
 *   backup.json      last: what is in it, each entry's size and SHA-256; a backup without it is cut short
 * The database goes first and the files after it: files are written before the rows that name them
 * and never changed, so every file the dumped database names is already there to copy.
 */

export const backupFormat = 'device-admin-console backup';

export type BackupManifest = {
  format: typeof backupFormat;
  version: 1;
  createdAt: string;
  pglite: string;
  storage: 'disk' | 's3';
  entries: Array<{ name: string; size: number; sha256: string }>;
};

export type BackupResult = {
  path: string;
  bytes: number;
  databaseBytes: number;
  files: number;
  fileBytes: number;
  storage: 'disk' | 's3';
  /** Whether DATA_DIR/jwt-secret is in it (absent when JWT_SECRET is set: keep that with the backup). */
  jwtSecret: boolean;
};

/** Top-level names in DATA_DIR that go into a backup as they are (besides the database and files/). */
export const dataDirFiles = ['jwt-secret', 'demo-fleet.json'];

export const pgliteVersion = (): string => {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@electric-sql/pglite');
  return (require(path.join(path.dirname(entry), '../package.json')) as { version: string }).version;
};

export const isStorageKey = (key: string) => {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
};

type Source = { name: string; size: number; mtime: Date; read: () => AsyncIterable<Uint8Array> };

/** Every regular file under DATA_DIR/files but the upload folder's unfinished parts (.tmp). */
async function uploadedFiles(dataDir: string): Promise<Source[]> {
  const root = path.join(dataDir, 'files');
  const found = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const sources: Source[] = [];
  for (const entry of found) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const key = path.relative(root, file).split(path.sep).join('/');
    // Unfinished uploads (.tmp/) and anything the storage could not have written, nor serve.
    if (!isStorageKey(key)) continue;
    const info = await stat(file).catch(() => null);
    // Deleted since the listing: it is gone from the installation too.
    if (!info) continue;
    sources.push({
      name: `files/${key}`,
      size: info.size,
      mtime: info.mtime,
      read: () => createReadStream(file),
    });
  }
  return sources.sort((a, b) => a.name.localeCompare(b.name));
}

async function plainFiles(dataDir: string): Promise<Source[]> {
  const sources: Source[] = [];
  for (const name of dataDirFiles) {
    const file = path.join(dataDir, name);
    const info = await stat(file).catch(() => null);
    if (info?.isFile())
      sources.push({ name, size: info.size, mtime: info.mtime, read: () => createReadStream(file) });
  }
  return sources;
}

async function* archive(sources: Source[], manifest: BackupManifest): AsyncGenerator<Buffer> {
  for (const source of sources) {
    yield tarHeader(source);
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of source.read()) {
      const piece = Buffer.from(chunk);
      size += piece.length;
      if (size > source.size) throw new Error(`${source.name} grew while it was being copied`);
      hash.update(piece);
      yield piece;
    }
    if (size !== source.size) throw new Error(`${source.name} shrank while it was being copied`);
    yield tarPadding(size);
    manifest.entries.push({ name: source.name, size, sha256: hash.digest('hex') });
  }
  const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  yield tarHeader({ name: 'backup.json', size: body.length, mtime: new Date() });
  yield body;
  yield tarPadding(body.length);
  yield tarEnd();
}

let running: Promise<unknown> = Promise.resolve();

/**
 * Writes a backup to `out` (a new file; made whole under another name, then renamed into place).
 * `dumpDatabase` is PGlite's dumpDataDir after a CHECKPOINT: the server's own open database, or one
 * the command opened. One backup at a time per process: each holds its database dump in memory.
 */
export function writeBackup(opts: {
  dataDir: string;
  storage: 'disk' | 's3';
  dumpDatabase: () => Promise<Blob>;
  out: string;
}): Promise<BackupResult> {
  const run = running.then(() => write(opts));
  running = run.catch(() => undefined);
  return run;
}

async function write({
  dataDir,
  storage,
  dumpDatabase,
  out,
}: Parameters<typeof writeBackup>[0]): Promise<BackupResult> {
  const target = path.resolve(out);
  if (await stat(target).catch(() => null)) throw new Error(`${target} already exists`);
  await mkdir(path.dirname(target), { recursive: true });
  const dump = await dumpDatabase();
  const database: Source = {
    name: 'database.tar',
    size: dump.size,
    mtime: new Date(),
    read: () => dump.stream() as unknown as AsyncIterable<Uint8Array>,
  };
  const files = storage === 'disk' ? await uploadedFiles(dataDir) : [];
  const manifest: BackupManifest = {
    format: backupFormat,
    version: 1,
    createdAt: new Date().toISOString(),
    pglite: pgliteVersion(),
    storage,
    entries: [],
  };
  const partial = `${target}.${process.pid}.partial`;
  try {
    await pipeline(
      Readable.from(archive([database, ...(await plainFiles(dataDir)), ...files], manifest)),
      createGzip(),
      createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
    );
    // On disk before it is named as done: a crash after the rename must not leave a hollow backup.
    const written = await open(partial, 'r+');
    await written.sync();
    await written.close();
    if (await stat(target).catch(() => null)) throw new Error(`${target} already exists`);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  const copied = manifest.entries.filter((e) => e.name.startsWith('files/'));
  return {
    path: target,
    bytes: (await stat(target)).size,
    databaseBytes: dump.size,
    files: copied.length,
    fileBytes: copied.reduce((sum, e) => sum + e.size, 0),
    storage,
    jwtSecret: manifest.entries.some((e) => e.name === 'jwt-secret'),
  };
}
