import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { startS3StandIn, type S3StandIn } from '#api/test/s3-stand-in.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/** The largest APK the test app takes (APK_MAX_BYTES). */
export const limit = 64 * 1024;

/** The app under test, its admin's token, and (on STORAGE=s3) the bucket's local stand-in. */
export const ctx = {} as { t: TestApp; token: string; standIn: S3StandIn | null };

/** Starts the app on `kind` storage before the tests of the calling describe, and stops it after. */
export function onStorage(kind: 'disk' | 's3') {
  beforeAll(async () => {
    ctx.standIn = kind === 's3' ? await startS3StandIn() : null;
    ctx.t = await createTestApp({
      APK_MAX_BYTES: String(limit),
      APK_MAX_ENTRIES: '500',
      APK_MAX_UNCOMPRESSED_BYTES: String(1024 * 1024),
      // These tests are about the upload: its release goes to every machine at once (decision 051).
      ROLLOUT_SECOND_ADMIN: 'false',
      ...ctx.standIn?.env(),
    });
    ctx.token = await ctx.t.login();
    // A release for every machine (the uploads here name no first stage) needs a step-up (decision 046).
    await ctx.t.stepUp(ctx.token);
  });
  afterAll(async () => {
    await ctx.t.close();
    await ctx.standIn?.close();
  });
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export type Fields = Record<string, string>;
export const fieldsFor = (over: Fields = {}): Fields => ({
  appName: 'com.example.device',
  versionCode: '1',
  versionName: '1.0.0',
  remark: 'First release',
  updateDesc: 'Initial version',
  updateType: '1',
  ...over,
});

type UploadFile = { name: string; data: Buffer; field?: string };

/**
 * A multipart/form-data body as a browser sends it: fields first, then the file; `fileFirst`
 * sends the file before the fields (then nothing can be checked before the file is stored).
 */
export function multipart(fields: Fields, file?: UploadFile, { fileFirst = false } = {}) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const fieldChunks = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  const chunks: Buffer[] = fileFirst ? [] : [...fieldChunks];
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${file.field ?? 'apk'}"; filename="${file.name}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  if (fileFirst) chunks.push(...fieldChunks);
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const upload = (fields: Fields, file?: UploadFile, options?: { fileFirst?: boolean }) => {
  const body = multipart(fields, file, options);
  return ctx.t.injectAs(ctx.token, { method: 'POST', url: '/api/v1/admin/system/updates', ...body });
};

export const filesUnder = (root: string) => {
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
};
/** Every file the upload left anywhere: on disk (files/, the S3 adapter's temp folder) and in the bucket. */
export const storedFiles = () => [
  ...filesUnder(path.join(ctx.t.config.dataDir, 'files')),
  ...filesUnder(path.join(ctx.t.config.dataDir, 'upload-tmp')),
  ...[...(ctx.standIn?.objects.keys() ?? [])].map((key) => key.split('/').pop()!),
];
export const rowCount = async () => (await ctx.t.database.db.select().from(appUpdates)).length;
