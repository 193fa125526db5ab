import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { S3Config } from '#api/config-storage.ts';
import { loopbackAgent, startS3StandIn, type S3StandIn } from '#api/test/s3-stand-in.ts';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.ts';
import { createS3Storage } from './s3-storage.ts';
import { storageKey } from './storage-key.ts';

let standIn: S3StandIn;
let tmp: string;
beforeAll(async () => {
  standIn = await startS3StandIn();
});
afterAll(() => standIn.close());
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 's3-storage-test-'));
  standIn.requests.length = 0;
  standIn.failures.length = 0;
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const configOf = (over: Partial<S3Config> = {}): S3Config => ({
  endpoint: standIn.endpoint,
  bucket: standIn.bucket,
  region: standIn.region,
  credentials: { accessKeyId: standIn.accessKeyId, secretAccessKey: standIn.secretAccessKey },
  forcePathStyle: true,
  ...over,
});
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const chunksOf = (b: Buffer, size = 64 * 1024) =>
  Readable.from(
    Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size)),
  );
const tempFiles = () => readdirSync(tmp, { recursive: true });

describe('S3 storage (against the local SigV4-checking stand-in)', () => {
  it('puts a small file in one signed PutObject, reads it back as a stream, and deletes it', async () => {
    const storage = createS3Storage(configOf(), tmp);
    const key = storageKey('test', 'txt');
    const body = Buffer.from('hello bucket '.repeat(500));
    expect(await storage.put(key, chunksOf(body), { contentType: 'text/plain' })).toEqual({
      size: body.length,
      sha256: sha256(body),
    });
    expect(standIn.requests.map((r) => `${r.operation} ${r.style}`)).toEqual(['PutObject path']);
    expect(standIn.objects.get(key)?.contentType).toBe('text/plain');
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got?.size).toBe(body.length);
    expect(got?.stream).toBeInstanceOf(Readable);
    expect((await buffer(got!.stream)).equals(body)).toBe(true);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await storage.delete(key); // a missing key is not an error
    expect(standIn.failures.filter((f) => f !== 'NoSuchKey')).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });

  it('sends a large file as a multipart upload, one bounded part at a time', async () => {
    const storage = createS3Storage(configOf(), tmp, { partSize: 5 * MiB });
    const key = storageKey('apks', 'apk');
    const body = randomBytes(12 * MiB + 123);
    expect(await storage.put(key, chunksOf(body))).toEqual({ size: body.length, sha256: sha256(body) });
    expect(standIn.requests.map((r) => r.operation)).toEqual([
      'CreateMultipartUpload',
      'UploadPart',
      'UploadPart',
      'UploadPart',
      'CompleteMultipartUpload',
    ]);
    // No request carried more than one part.
    expect(Math.max(...standIn.requests.map((r) => r.bytes))).toBeLessThanOrEqual(5 * MiB);
    // Every body went up hashed into its signature: the store can tell a corrupted part.
    expect(standIn.requests.every((r) => r.signedBody)).toBe(true);
    expect(sha256(await buffer((await storage.get(key))!.stream))).toBe(sha256(body));
    expect(standIn.openUploads()).toBe(0);
    expect(tempFiles()).toEqual([]);
  });

  it("addresses the bucket by its own host name (virtual-hosted, AWS's default) when path style is off", async () => {
    const storage = createS3Storage(
      configOf({ endpoint: standIn.virtualHostedEndpoint, forcePathStyle: false }),
      tmp,
      { partSize: 5 * MiB, httpAgent: loopbackAgent() },
    );
    const small = storageKey('avatars', 'png');
    const large = storageKey('apks', 'apk');
    const smallBody = randomBytes(1000);
    const largeBody = randomBytes(6 * MiB);
    await storage.put(small, chunksOf(smallBody));
    await storage.put(large, chunksOf(largeBody));
    expect((await buffer((await storage.get(small))!.stream)).equals(smallBody)).toBe(true);
    expect(sha256(await buffer((await storage.get(large))!.stream))).toBe(sha256(largeBody));
    await storage.delete(small);
    expect(await storage.exists(small)).toBe(false);

    expect(standIn.requests.map((r) => r.operation)).toEqual([
      'PutObject',
      'CreateMultipartUpload',
      'UploadPart',
      'UploadPart',
      'CompleteMultipartUpload',
      'GetObject',
      'GetObject',
      'DeleteObject',
      'HeadObject',
    ]);
    // Every request went to <bucket>.<endpoint host>, with the key alone as its path, and was signed for that host.
    expect(new Set(standIn.requests.map((r) => `${r.style} ${r.host}`))).toEqual(
      new Set([`virtual-hosted ${standIn.bucket}.s3.stand-in.test`]),
    );
    expect(standIn.requests.every((r) => !r.path.startsWith(`/${standIn.bucket}/`))).toBe(true);
    expect(standIn.failures).toEqual(['NoSuchKey']);
  });

  it('fails with a wrong secret key: the stand-in refuses the signature and nothing is stored', async () => {
    const storage = createS3Storage(
      configOf({ credentials: { accessKeyId: standIn.accessKeyId, secretAccessKey: 'not-the-secret' } }),
      tmp,
    );
    const key = storageKey('test');
    await expect(storage.put(key, chunksOf(Buffer.from('x')))).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
    });
    expect(standIn.objects.has(key)).toBe(false);
    await expect(storage.get(key)).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    const unknown = createS3Storage(
      configOf({ credentials: { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: standIn.secretAccessKey } }),
      tmp,
    );
    await expect(unknown.exists(key)).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    expect(tempFiles()).toEqual([]);
  });

  it('refuses more than maxBytes with a 413 before anything reaches the bucket', async () => {
    const storage = createS3Storage(configOf(), tmp);
    const key = storageKey('test');
    await expect(
      storage.put(key, chunksOf(Buffer.alloc(10_000, 1), 1000), { maxBytes: 5000 }),
    ).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(standIn.requests).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });

  it('sends nothing when the content check refuses the file or the source fails midway', async () => {
    const storage = createS3Storage(configOf(), tmp);
    const check = async () => {
      throw new UnsupportedMediaTypeError('nope');
    };
    await expect(
      storage.put(storageKey('test'), chunksOf(Buffer.from('abc')), { check }),
    ).rejects.toBeInstanceOf(UnsupportedMediaTypeError);
    async function* broken() {
      yield Buffer.alloc(64 * 1024, 2);
      throw new Error('client went away');
    }
    await expect(storage.put(storageKey('test'), broken())).rejects.toThrow('client went away');
    expect(standIn.requests).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });

  it('aborts the multipart upload when a part fails, leaving no parts behind', async () => {
    // The stand-in's 5 MiB minimum makes the completion fail for 1 MiB parts: the upload must be aborted.
    const storage = createS3Storage(configOf(), tmp, { partSize: 1 * MiB });
    const key = storageKey('test');
    await expect(storage.put(key, chunksOf(randomBytes(3 * MiB)))).rejects.toMatchObject({
      name: 'EntityTooSmall',
    });
    expect(standIn.requests.at(-1)?.operation).toBe('AbortMultipartUpload');
    expect(standIn.openUploads()).toBe(0);
    expect(standIn.objects.has(key)).toBe(false);
    expect(tempFiles()).toEqual([]);
  });

  it('sweeps temp files a crash left over a day ago, and only those', async () => {
    const old = `${Date.now() - 25 * 3600 * 1000}-dead.part`;
    const fresh = `${Date.now()}-alive.part`;
    for (const name of [old, fresh]) writeFileSync(path.join(tmp, name), 'partial');
    createS3Storage(configOf(), tmp);
    await expect.poll(() => tempFiles()).toEqual([fresh]);
  });

  it('refuses keys that are not ours', async () => {
    const storage = createS3Storage(configOf(), tmp);
    for (const key of ['../x', '/etc/passwd', 'A/B', 'a\\b', ''])
      await expect(storage.exists(key)).rejects.toThrow('invalid storage key');
  });
});
