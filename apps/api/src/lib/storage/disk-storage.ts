import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PayloadTooLargeError } from '../errors.ts';
import type { PutOptions, PutResult, Storage } from './storage.ts';
import { assertValidKey } from './storage-key.ts';

/** The refusal of a file past the limit, whether its size was declared or counted. */
export const fileTooLarge = (maxBytes: number) =>
  new PayloadTooLargeError(`File is larger than the limit of ${formatBytes(maxBytes)}`);

/** Counts and hashes bytes as they pass, failing once more than `maxBytes` went through. */
export function meter(maxBytes: number | undefined) {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) {
        callback(fileTooLarge(maxBytes));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  return { stream, result: (): PutResult => ({ size, sha256: hash.digest('hex') }) };
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KB`;
  return `${n} bytes`;
}

/**
 * Receives a stream into a private temp file under `tmpDir`. Resolves with the file's path and what
 * it holds; on any failure (source aborted, size limit, disk error) the temp file is already gone.
 */
export async function receiveToTempFile(
  tmpDir: string,
  source: Readable | AsyncIterable<Uint8Array>,
  maxBytes?: number,
) {
  await mkdir(tmpDir, { recursive: true });
  const tmpPath = path.join(tmpDir, `${Date.now()}-${randomBytes(12).toString('hex')}.part`);
  const m = meter(maxBytes);
  // Created before the first byte: a write stream opens its file asynchronously, so when the source
  // failed at once the file could appear after the rm below and stay until the day-old sweep.
  const file = await open(tmpPath, 'wx', 0o600);
  try {
    await pipeline(source, m.stream, file.createWriteStream());
    return { tmpPath, received: m.result() };
  } catch (error) {
    await rm(tmpPath, { force: true });
    throw error;
  }
}

const staleTempMs = 24 * 60 * 60 * 1000;

/** A crash mid-upload leaves a .part file; sweep old ones (other instances may share the disk, so only old ones). */
export function sweepStaleTempFiles(tmpDir: string): void {
  void (async () => {
    const names = await readdir(tmpDir).catch(() => [] as string[]);
    for (const name of names) {
      const created = Number(name.split('-')[0]);
      if (name.endsWith('.part') && Number.isFinite(created) && Date.now() - created > staleTempMs) {
        await rm(path.join(tmpDir, name), { force: true }).catch(() => undefined);
      }
    }
  })();
}

/** Files under `root/<key>`; uploads land in `root/.tmp` and are renamed into place when complete. */
export function createDiskStorage(root: string): Storage {
  const resolvedRoot = path.resolve(root);
  const tmpDir = path.join(resolvedRoot, '.tmp');
  const fileOf = (key: string) => {
    assertValidKey(key);
    return path.join(resolvedRoot, ...key.split('/'));
  };

  sweepStaleTempFiles(tmpDir);

  return {
    kind: 'disk',
    async put(key: string, source, options: PutOptions = {}) {
      const target = fileOf(key);
      const { tmpPath, received } = await receiveToTempFile(tmpDir, source, options.maxBytes);
      try {
        if (options.check) await options.check(tmpPath, received);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmpPath, target);
        return received;
      } catch (error) {
        await rm(tmpPath, { force: true });
        throw error;
      }
    },
    async get(key) {
      const file = fileOf(key);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return { stream: createReadStream(file), size: info.size };
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async exists(key) {
      const info = await stat(fileOf(key)).catch(() => null);
      return info?.isFile() ?? false;
    },
  };
}
