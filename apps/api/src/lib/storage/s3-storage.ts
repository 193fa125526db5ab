import { open, rm } from 'node:fs/promises';
import type { Agent } from 'node:http';
import type { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Config } from '#api/config-storage.ts';
import { receiveToTempFile, sweepStaleTempFiles } from './disk-storage.ts';
import type { PutOptions, Storage } from './storage.ts';
import { assertValidKey } from './storage-key.ts';

/** S3 wants every part but the last to be at least 5 MiB; 8 MiB keeps a 200 MB APK at 25 parts. */
export const defaultPartSize = 8 * 1024 * 1024;

type Sdk = typeof S3Sdk;

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/**
 * Files in an S3-compatible bucket (AWS, MinIO, Ceph, R2, ...), under the same keys as on disk.
 *
 * An upload first streams into a private temp file (size-limited and hashed on the way, like the disk
 * adapter), so the content check runs on a complete local file and the bucket only ever sees checked,
 * complete objects: an aborted, oversized or refused upload never reaches it. The file then goes up
 * one part at a time (one PutObject when it fits in a part): memory stays at about one part whatever
 * the file's size. Every part's body is hashed into its SigV4 signature, so the store verifies it.
 *
 * The SDK is loaded on first use: a server on disk storage never pays for it.
 */
export function createS3Storage(
  config: S3Config,
  tmpDir: string,
  // httpAgent: the tests reach a bucket's own host name (virtual-hosted addressing) through an agent
  // that resolves it to the local stand-in; production uses the SDK's default agents.
  options: { partSize?: number; httpAgent?: Agent } = {},
): Storage {
  const partSize = options.partSize ?? defaultPartSize;
  sweepStaleTempFiles(tmpDir);
  let loaded: Promise<{ sdk: Sdk; client: S3Sdk.S3Client }> | null = null;
  const s3 = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.credentials,
        // The SDK's default extra CRC32 headers are refused by several S3-compatible stores; the
        // signed SHA-256 of each body already protects it end to end.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 3,
        ...(options.httpAgent ? { requestHandler: { httpAgent: options.httpAgent } } : {}),
      }),
    })));
  const Bucket = config.bucket;

  async function upload(key: string, localPath: string, size: number, contentType: string | undefined) {
    const { sdk, client } = await s3();
    const file = await open(localPath, 'r');
    try {
      // One buffer for every part: each send has finished (retries included) before the next read
      // overwrites it, so memory stays at one part instead of waiting on the collector.
      const buffer = Buffer.allocUnsafe(Math.min(partSize, size));
      const readPart = async (position: number) => {
        const length = Math.min(partSize, size - position);
        const { bytesRead } = await file.read(buffer, 0, length, position);
        if (bytesRead !== length) throw new Error('temp file shorter than received');
        return buffer.subarray(0, length);
      };
      if (size <= partSize) {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket,
            Key: key,
            Body: await readPart(0),
            ContentLength: size,
            ContentType: contentType,
          }),
        );
        return;
      }
      const { UploadId } = await client.send(
        new sdk.CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }),
      );
      if (!UploadId) throw new Error('the store returned no UploadId');
      try {
        const parts: { PartNumber: number; ETag: string }[] = [];
        for (let position = 0, PartNumber = 1; position < size; position += partSize, PartNumber++) {
          const Body = await readPart(position);
          const { ETag } = await client.send(
            new sdk.UploadPartCommand({
              Bucket,
              Key: key,
              UploadId,
              PartNumber,
              Body,
              ContentLength: Body.length,
            }),
          );
          if (!ETag) throw new Error(`the store returned no ETag for part ${PartNumber}`);
          parts.push({ PartNumber, ETag });
        }
        await client.send(
          new sdk.CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
      } catch (error) {
        // Parts of an unfinished upload are billed and invisible: abort so none linger.
        await client
          .send(new sdk.AbortMultipartUploadCommand({ Bucket, Key: key, UploadId }))
          .catch(() => undefined);
        throw error;
      }
    } finally {
      await file.close();
    }
  }

  return {
    kind: 's3',
    async put(key, source, options: PutOptions = {}) {
      assertValidKey(key);
      const { tmpPath, received } = await receiveToTempFile(tmpDir, source, options.maxBytes);
      try {
        if (options.check) await options.check(tmpPath, received);
        await upload(key, tmpPath, received.size, options.contentType);
        return received;
      } finally {
        await rm(tmpPath, { force: true });
      }
    },
    async get(key) {
      assertValidKey(key);
      const { sdk, client } = await s3();
      try {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        if (!out.Body || out.ContentLength === undefined) throw new Error('the store sent no body or length');
        // In Node the SDK's body is the HTTP response itself: a stream, never buffered.
        return { stream: out.Body as Readable, size: out.ContentLength, contentType: out.ContentType };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    },
    async delete(key) {
      assertValidKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async exists(key) {
      assertValidKey(key);
      const { sdk, client } = await s3();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw error;
      }
    },
  };
}
