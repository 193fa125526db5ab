import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.ts';
import { createDiskStorage } from './disk-storage.ts';
import { storageKey } from './storage-key.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'storage-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Every regular file under the root, temp folder included. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));

describe('disk storage', () => {
  it('stores a stream and returns its size and SHA-256, then reads it back', async () => {
    const storage = createDiskStorage(root);
    const key = storageKey('test', 'txt');
    const body = 'hello storage '.repeat(1000);
    const put = await storage.put(key, Readable.from([Buffer.from(body)]));
    expect(put).toEqual({ size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got?.size).toBe(body.length);
    expect(await text(got!.stream)).toBe(body);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
  });

  it('refuses more than maxBytes with a 413 and keeps nothing', async () => {
    const storage = createDiskStorage(root);
    const key = storageKey('test');
    const chunks = Array.from({ length: 10 }, () => Buffer.alloc(1000, 1));
    await expect(storage.put(key, Readable.from(chunks), { maxBytes: 5000 })).rejects.toBeInstanceOf(
      PayloadTooLargeError,
    );
    expect(await storage.exists(key)).toBe(false);
    expect(filesUnder(root)).toEqual([]);
  });

  it('removes the partial file when the source fails midway', async () => {
    const storage = createDiskStorage(root);
    const key = storageKey('test');
    async function* broken() {
      yield Buffer.alloc(64 * 1024, 2);
      throw new Error('client went away');
    }
    await expect(storage.put(key, broken())).rejects.toThrow('client went away');
    expect(filesUnder(root)).toEqual([]);
  });

  it('removes the file when the content check rejects it', async () => {
    const storage = createDiskStorage(root);
    const key = storageKey('test');
    const check = async () => {
      throw new UnsupportedMediaTypeError('nope');
    };
    await expect(storage.put(key, Readable.from([Buffer.from('abc')]), { check })).rejects.toBeInstanceOf(
      UnsupportedMediaTypeError,
    );
    expect(filesUnder(root)).toEqual([]);
  });

  it('refuses keys that could leave its folder', async () => {
    const storage = createDiskStorage(root);
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'A/B', 'a\\b', '']) {
      await expect(storage.exists(key)).rejects.toThrow('invalid storage key');
    }
  });
});
