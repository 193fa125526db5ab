import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn, type S3StandIn } from '#api/test/s3-stand-in.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { buildDemoApk } from './zip-writer.ts';

/**
 * The whole path over real HTTP with STORAGE=s3: a browser-style multipart upload of a 20 MB APK
 * into the API, multipart-uploaded on to the (SigV4-checking) bucket stand-in, then downloaded
 * through the API's public link, byte for byte.
 */
let standIn: S3StandIn;
let t: TestApp;
let base: string;
beforeAll(async () => {
  standIn = await startS3StandIn({ bucket: 'apk-releases' });
  t = await createTestApp(standIn.env());
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('APK upload and download with STORAGE=s3, over HTTP', () => {
  it('stores a 20 MB APK in the bucket in parts and serves it back identical', async () => {
    const login = await fetch(`${base}/api/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: testAdmin.email, password: testAdmin.password }),
    });
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
    // A Force update needs a step-up (decision 046).
    const stepUp = await fetch(`${base}/api/v1/admin/profile/step-up`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: testAdmin.password }),
    });
    expect(stepUp.status).toBe(200);

    const apk = buildDemoApk('com.example.s3', 42, 20 * 1024 * 1024);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      appName: 'com.example.s3',
      versionCode: '42',
      versionName: '4.2.0',
      remark: 'S3',
      updateDesc: 'Stored in a bucket',
      updateType: '2',
    })) {
      form.append(k, v);
    }
    form.append('apk', new Blob([apk]), 'device-4.2.0.apk');
    const res = await fetch(`${base}/api/v1/admin/system/updates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      body: form,
    });
    const created = ((await res.json()) as { data: { apkUrl: string; apkSha256: string; apkSize: number } })
      .data;
    expect(res.status).toBe(201);
    expect(created).toMatchObject({ apkSize: apk.length, apkSha256: sha256(apk) });

    // Into the bucket in 8 MiB parts, each signed with its body's hash; no upload left open.
    const ops = standIn.requests.map((r) => r.operation);
    expect(ops).toEqual([
      'CreateMultipartUpload',
      'UploadPart',
      'UploadPart',
      'UploadPart',
      'CompleteMultipartUpload',
    ]);
    expect(standIn.requests.every((r) => r.signedBody)).toBe(true);
    expect(standIn.failures).toEqual([]);
    expect(standIn.openUploads()).toBe(0);
    const [key] = [...standIn.objects.keys()];
    expect(key).toMatch(/^apks\/[a-f0-9]{32}\.apk$/);
    expect(standIn.objects.get(key!)?.contentType).toBe('application/vnd.android.package-archive');

    // The public link, without a token, as the mobile app fetches it.
    const download = await fetch(`${base}${new URL(created.apkUrl).pathname}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/vnd.android.package-archive');
    expect(download.headers.get('content-length')).toBe(String(apk.length));
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="device-4.2.0.apk"');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.length).toBe(apk.length);
    expect(sha256(bytes)).toBe(sha256(apk));
    expect(standIn.requests.at(-1)?.operation).toBe('GetObject');
  });
});
