import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDemoApk, buildZip } from './zip-writer.ts';
import {
  ctx,
  onStorage,
  fieldsFor,
  filesUnder,
  limit,
  multipart,
  rowCount,
  sha256,
  storedFiles,
  upload,
} from './app-updates-test-app.ts';

// Every route test runs twice: on disk storage and on S3 storage (the SigV4-checking stand-in).
describe.each(['disk', 's3'] as const)('app updates on %s storage', (kind) => {
  onStorage(kind);

  describe('POST /api/v1/admin/system/updates', () => {
    it('stores a valid APK with its size and SHA-256, lists it, and serves it back byte for byte', async () => {
      const apk = buildDemoApk('com.example.device', 1, 4000);
      // A Force update needs a step-up (decision 046; refused without one in auth/step-up.test.ts).
      await ctx.t.stepUp(ctx.token);
      const res = await upload(fieldsFor({ updateType: '2' }), { name: 'device-app-1.0.0.apk', data: apk });
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json().data;
      // The file is where this run's storage keeps it: in the bucket, or under DATA_DIR/files.
      const apksOnDisk = filesUnder(path.join(ctx.t.config.dataDir, 'files', 'apks')).map(
        (name) => `apks/${name}`,
      );
      expect(ctx.standIn ? [...ctx.standIn.objects.keys()] : apksOnDisk).toEqual([
        expect.stringMatching(/^apks\/[a-f0-9]{32}\.apk$/),
      ]);
      if (ctx.standIn) expect(apksOnDisk).toEqual([]);
      expect(created).toMatchObject({
        appName: 'com.example.device',
        versionCode: 1,
        versionName: '1.0.0',
        remark: 'First release',
        updateDesc: 'Initial version',
        updateType: 2,
        fileName: 'device-app-1.0.0.apk',
        packageName: 'com.example.device',
        apkSize: apk.length,
        apkSha256: sha256(apk),
      });
      expect(created.apkUrl).toBe(`${ctx.t.config.publicUrl}/api/v1/app/updates/${created.id}/apk`);

      const list = await ctx.t.injectAs(ctx.token, {
        method: 'GET',
        url: '/api/v1/admin/system/updates/all?page=1&limit=10',
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().data).toMatchObject({ totalPages: 1, total: 1, page: 1, limit: 10 });
      // No machine has reported version 1 yet.
      expect(list.json().data.allSystems[0]).toEqual({
        ...created,
        deviceCount: 0,
        progress: {
          targeted: 0,
          updated: 0,
          onOldVersion: 0,
          otherApp: 0,
          appUnknown: 0,
          notReported: 0,
          waitingForWindow: 0,
          waitingForTreatment: 0,
        },
        // Nothing approved: no signature (decision 083).
        signatures: [],
      });

      // The mobile app downloads without any token.
      const download = await ctx.t.app.inject({ method: 'GET', url: new URL(created.apkUrl).pathname });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/vnd.android.package-archive');
      expect(download.headers['content-length']).toBe(String(apk.length));
      expect(download.headers['content-disposition']).toBe('attachment; filename="device-app-1.0.0.apk"');
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(sha256(download.rawPayload)).toBe(sha256(apk));
    });

    it('refuses a text file named .apk with 415 and keeps nothing', async () => {
      const before = { files: storedFiles().length, rows: await rowCount() };
      const res = await upload(fieldsFor({ versionCode: '50' }), {
        name: 'fake.apk',
        data: Buffer.from('just some text, not a zip\n'.repeat(50)),
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ code: 415, msg: 'Only APK files are allowed', data: null });
      expect({ files: storedFiles().length, rows: await rowCount() }).toEqual(before);
    });

    it('refuses a ZIP without AndroidManifest.xml with 415', async () => {
      const before = { files: storedFiles().length, rows: await rowCount() };
      const zip = buildZip([
        { name: 'readme.txt', data: 'hello' },
        { name: 'classes.dex', data: 'dex' },
      ]);
      const res = await upload(fieldsFor({ versionCode: '51' }), { name: 'app.apk', data: zip });
      expect(res.statusCode).toBe(415);
      expect(res.json().msg).toBe('Only APK files are allowed');
      expect({ files: storedFiles().length, rows: await rowCount() }).toEqual(before);
    });

    it('refuses a file whose name does not end in .apk', async () => {
      const res = await upload(fieldsFor({ versionCode: '52' }), {
        name: 'app.zip',
        data: buildDemoApk('x', 1),
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().msg).toBe('Only APK files are allowed');
    });

    it('refuses an APK over the configured size limit with 413 and keeps nothing', async () => {
      const before = { files: storedFiles().length, rows: await rowCount() };
      const big = buildDemoApk('com.example.device', 60, limit + 10);
      const res = await upload(fieldsFor({ versionCode: '60' }), { name: 'big.apk', data: big });
      expect(res.statusCode).toBe(413);
      expect(res.json().msg).toMatch(/^The APK file is too large/);
      expect({ files: storedFiles().length, rows: await rowCount() }).toEqual(before);
    });

    it('refuses a versionCode the app already has with 409 and keeps only the first file', async () => {
      const first = await upload(fieldsFor({ appName: 'com.example.dup', versionCode: '7' }), {
        name: 'a.apk',
        data: buildDemoApk('dup', 7),
      });
      expect(first.statusCode).toBe(201);
      const files = storedFiles().length;
      const again = await upload(fieldsFor({ appName: 'com.example.dup', versionCode: '7' }), {
        name: 'b.apk',
        data: buildDemoApk('dup', 7),
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().msg).toBe('This version code already exists for this app');
      expect(storedFiles().length).toBe(files);
      // The file first, the fields after: the duplicate is found after the upload and the file removed.
      const body = multipart({}, { name: 'c.apk', data: buildDemoApk('dup', 7) });
      const tail = multipart(fieldsFor({ appName: 'com.example.dup', versionCode: '7' }));
      const boundary = body.headers['content-type'].split('boundary=')[1]!;
      const reordered = Buffer.concat([
        body.payload.subarray(0, body.payload.length - `--${boundary}--\r\n`.length),
        Buffer.from(
          tail.payload
            .toString('latin1')
            .replaceAll(tail.headers['content-type'].split('boundary=')[1]!, boundary),
          'latin1',
        ),
      ]);
      const late = await ctx.t.injectAs(ctx.token, {
        method: 'POST',
        url: '/api/v1/admin/system/updates',
        payload: reordered,
        headers: body.headers,
      });
      expect(late.statusCode, late.body).toBe(409);
      expect(storedFiles().length).toBe(files);
      // Another app may use the same versionCode.
      const other = await upload(fieldsFor({ appName: 'com.example.other', versionCode: '7' }), {
        name: 'o.apk',
        data: buildDemoApk('o', 7),
      });
      expect(other.statusCode).toBe(201);
    });

    it('gives every validation message of the form', async () => {
      const empty = await upload({});
      expect(empty.statusCode).toBe(400);
      for (const msg of [
        'App name is required',
        'Version code is required',
        'Version name is required',
        'Remark is required',
        'Update description is required',
        'Update type is required',
      ]) {
        expect(empty.json().msg).toContain(msg);
      }
      const badType = await upload(fieldsFor({ updateType: '3', versionCode: '70' }), {
        name: 'a.apk',
        data: buildDemoApk('a', 70),
      });
      expect(badType.statusCode).toBe(400);
      expect(badType.json().msg).toBe('Invalid update type');
      const noFile = await upload(fieldsFor({ versionCode: '71' }));
      expect(noFile.statusCode).toBe(400);
      expect(noFile.json().msg).toBe('File is required');
      const badCode = await upload(fieldsFor({ versionCode: '1.5' }), {
        name: 'a.apk',
        data: buildDemoApk('a', 1),
      });
      expect(badCode.statusCode).toBe(400);
      expect(badCode.json().msg).toMatch(/^Version code must be a whole number/);
    });

    it('answers a non-multipart body and a missing token with 4xx, never a 500', async () => {
      const json = await ctx.t.injectAs(ctx.token, {
        method: 'POST',
        url: '/api/v1/admin/system/updates',
        payload: { appName: 'x' },
      });
      expect(json.statusCode).toBe(415);
      const garbage = await ctx.t.injectAs(ctx.token, {
        method: 'POST',
        url: '/api/v1/admin/system/updates',
        payload: 'not really multipart',
        headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
      });
      expect(garbage.statusCode).toBeGreaterThanOrEqual(400);
      expect(garbage.statusCode).toBeLessThan(500);
      const cut = multipart(fieldsFor({ versionCode: '80' }), {
        name: 'cut.apk',
        data: buildDemoApk('cut', 80, 5000),
      });
      const truncated = await ctx.t.injectAs(ctx.token, {
        method: 'POST',
        url: '/api/v1/admin/system/updates',
        payload: cut.payload.subarray(0, cut.payload.length - 3000),
        headers: cut.headers,
      });
      expect(truncated.statusCode).toBe(400);
      expect(truncated.json().msg).toBe('The upload was incomplete or is not valid multipart/form-data');
      const anonymous = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/system/updates',
        ...multipart(fieldsFor()),
      });
      expect(anonymous.statusCode).toBe(401);
      expect(
        (await ctx.t.app.inject({ method: 'GET', url: '/api/v1/admin/system/updates/all' })).statusCode,
      ).toBe(401);
    });
  });

  describe('GET /api/v1/app/updates/latest (public, for the mobile app)', () => {
    it('returns the newest version and says whether the update must be forced', async () => {
      const app = 'com.example.latest';
      for (const [code, type] of [
        [1, '1'],
        [2, '2'],
        [3, '1'],
      ] as const) {
        const res = await upload(fieldsFor({ appName: app, versionCode: String(code), updateType: type }), {
          name: 'l.apk',
          data: buildDemoApk(app, code),
        });
        expect(res.statusCode).toBe(201);
      }
      const plain = await ctx.t.app.inject({
        method: 'GET',
        url: `/api/v1/app/updates/latest?appName=${app}`,
      });
      expect(plain.statusCode).toBe(200);
      expect(plain.json().data).toMatchObject({
        versionCode: 3,
        updateType: 1,
        updateAvailable: null,
        forceUpdate: false,
      });
      // Version 1 skipped the Force release 2: it must update even though 3 is Flexible.
      const fromOne = await ctx.t.app.inject({
        method: 'GET',
        url: `/api/v1/app/updates/latest?appName=${app}&versionCode=1`,
      });
      expect(fromOne.json().data).toMatchObject({ versionCode: 3, updateAvailable: true, forceUpdate: true });
      const fromTwo = await ctx.t.app.inject({
        method: 'GET',
        url: `/api/v1/app/updates/latest?appName=${app}&versionCode=2`,
      });
      expect(fromTwo.json().data).toMatchObject({ updateAvailable: true, forceUpdate: false });
      const current = await ctx.t.app.inject({
        method: 'GET',
        url: `/api/v1/app/updates/latest?appName=${app}&versionCode=3`,
      });
      expect(current.json().data).toMatchObject({ updateAvailable: false, forceUpdate: false });
      const unknown = await ctx.t.app.inject({
        method: 'GET',
        url: '/api/v1/app/updates/latest?appName=com.nobody',
      });
      expect(unknown.statusCode).toBe(404);
      const missing = await ctx.t.app.inject({ method: 'GET', url: '/api/v1/app/updates/latest' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().msg).toBe('App name is required');
    });

    it('answers an unknown or malformed download id with 404 or 400', async () => {
      expect(
        (
          await ctx.t.app.inject({
            method: 'GET',
            url: '/api/v1/app/updates/00000000-0000-4000-8000-000000000000/apk',
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await ctx.t.app.inject({ method: 'GET', url: '/api/v1/app/updates/../../etc/apk' })).statusCode,
      ).toBeLessThan(500);
      expect(
        (await ctx.t.app.inject({ method: 'GET', url: '/api/v1/app/updates/nope/apk' })).statusCode,
      ).toBe(400);
    });
  });
});
