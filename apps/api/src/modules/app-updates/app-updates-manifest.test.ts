import { describe, expect, it } from 'vitest';
import { writeBinaryManifest } from '@app/contract/android-manifest-writer';
import { apiPaths } from '@app/contract/paths';
import { deviceInject, enrolDevice, flushCheckIns } from '#api/test/device-fixtures.ts';
import { buildDemoApk, buildZip } from './zip-writer.ts';
import { ctx, fieldsFor, onStorage, rowCount, storedFiles, upload } from './app-updates-test-app.ts';

/** An APK whose manifest declares exactly this package, versionCode and versionName. */
const apkOf = (packageName: string, versionCode: number, versionName?: string) =>
  buildDemoApk(packageName, versionCode, 0, versionName);
const kept = async () => ({ files: storedFiles().length, rows: await rowCount() });

// The APK's manifest is the truth (issue 16); on both storages, as the other upload tests.
describe.each(['disk', 's3'] as const)("app updates read the APK's manifest, on %s storage", (kind) => {
  onStorage(kind);

  it('stores the package, versionCode and versionName the manifest declares', async () => {
    const res = await upload(fieldsFor({ appName: 'Device App', versionCode: '4', versionName: '4.0.1' }), {
      name: 'device.apk',
      data: apkOf('com.example.truth', 4, '4.0.1'),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      appName: 'Device App',
      packageName: 'com.example.truth',
      versionCode: 4,
      versionName: '4.0.1',
    });
    // A versionName kept in a resource cannot be read from the manifest: the form's is stored.
    const fromForm = await upload(
      fieldsFor({ appName: 'Device App', versionCode: '5', versionName: '5.0.0-beta' }),
      { name: 'device.apk', data: apkOf('com.example.truth', 5) },
    );
    expect(fromForm.statusCode, fromForm.body).toBe(201);
    expect(fromForm.json().data).toMatchObject({ versionCode: 5, versionName: '5.0.0-beta' });
  });

  it('refuses an APK without a readable manifest with 415, naming the file, and keeps nothing', async () => {
    const before = await kept();
    // A ZIP listing AndroidManifest.xml passes the structure checks; a text manifest is not one Android reads.
    const text = buildZip([
      { name: 'AndroidManifest.xml', data: '<manifest package="com.example.text"/>' },
      { name: 'classes.dex', data: 'dex' },
    ]);
    const res = await upload(fieldsFor({ appName: 'com.example.text' }), { name: 'text.apk', data: text });
    expect(res.statusCode).toBe(415);
    // The reader's own words follow, saying what it could not read.
    expect(res.json().msg).toMatch(
      /^The APK file has no readable AndroidManifest.xml \(AndroidManifest.xml: .+\)$/,
    );
    const cut = buildZip([
      {
        name: 'AndroidManifest.xml',
        data: writeBinaryManifest({ packageName: 'a.b', versionCode: 1 }).slice(0, 40),
      },
    ]);
    const cutRes = await upload(fieldsFor({ appName: 'com.example.cut' }), { name: 'cut.apk', data: cut });
    expect(cutRes.statusCode).toBe(415);
    expect(cutRes.json().msg).toMatch(/^The APK file has no readable AndroidManifest.xml \(/);
    expect(await kept()).toEqual(before);
  });

  it('refuses a form whose versionCode or versionName disagrees with the file, naming the field', async () => {
    const before = await kept();
    const apk = apkOf('com.example.form', 9, '9.0.0');
    for (const fileFirst of [false, true]) {
      const code = await upload(
        fieldsFor({ appName: 'com.example.form', versionCode: '8', versionName: '9.0.0' }),
        { name: 'form.apk', data: apk },
        { fileFirst },
      );
      expect(code.statusCode, code.body).toBe(400);
      expect(code.json()).toEqual({
        code: 400,
        msg: 'Version code does not match the APK file, which declares 9',
        data: {
          errors: [
            { path: 'versionCode', message: 'Version code does not match the APK file, which declares 9' },
          ],
        },
      });
      const name = await upload(
        fieldsFor({ appName: 'com.example.form', versionCode: '9', versionName: '9.1' }),
        { name: 'form.apk', data: apk },
        { fileFirst },
      );
      expect(name.statusCode).toBe(400);
      expect(name.json().msg).toBe('Version name does not match the APK file, which declares 9.0.0');
      expect(name.json().data.errors[0].path).toBe('versionName');
    }
    expect(await kept()).toEqual(before);
  });

  it("refuses an APK whose package is not the app's, whichever comes first, and keeps nothing", async () => {
    const app = 'com.example.pkg';
    const first = await upload(fieldsFor({ appName: app, versionCode: '1' }), {
      name: 'p1.apk',
      data: apkOf('com.example.pkg', 1),
    });
    expect(first.statusCode, first.body).toBe(201);
    const before = await kept();
    for (const fileFirst of [false, true]) {
      const res = await upload(
        fieldsFor({ appName: app, versionCode: '2' }),
        { name: 'p2.apk', data: apkOf('com.example.impostor', 2) },
        { fileFirst },
      );
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().msg).toBe(
        "Package com.example.impostor of the APK file is not this app's package (com.example.pkg)",
      );
    }
    expect(await kept()).toEqual(before);
    // The app's own package goes on.
    const next = await upload(fieldsFor({ appName: app, versionCode: '2' }), {
      name: 'p2.apk',
      data: apkOf('com.example.pkg', 2),
    });
    expect(next.statusCode, next.body).toBe(201);
  });

  it("refuses a versionCode that is not above the app's newest, whichever comes first", async () => {
    const app = 'com.example.order';
    for (const code of [5, 7]) {
      const res = await upload(fieldsFor({ appName: app, versionCode: String(code) }), {
        name: 'o.apk',
        data: apkOf(app, code),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const before = await kept();
    for (const fileFirst of [false, true]) {
      for (const [code, msg] of [
        [6, 'Version code must be above 7, the newest release of this app'],
        [5, 'Version code must be above 7, the newest release of this app'],
        [7, 'This version code already exists for this app'],
      ] as const) {
        const res = await upload(
          fieldsFor({ appName: app, versionCode: String(code) }),
          { name: 'o.apk', data: apkOf(app, code) },
          { fileFirst },
        );
        expect(res.statusCode, `${code} ${res.body}`).toBe(409);
        expect(res.json().msg).toBe(msg);
      }
    }
    expect(await kept()).toEqual(before);
    // Another app starts its own count.
    const other = await upload(fieldsFor({ appName: 'com.example.order2', versionCode: '1' }), {
      name: 'o.apk',
      data: apkOf('com.example.order2', 1),
    });
    expect(other.statusCode, other.body).toBe(201);
  });

  it('lists with each release how many machines last reported its app at its versionCode', async () => {
    const app = 'com.example.count';
    for (const code of [301, 302, 303]) {
      const res = await upload(fieldsFor({ appName: app, versionCode: String(code) }), {
        name: 'c.apk',
        data: apkOf(app, code),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const heartbeat = async (credential: string, versionCode: number, appName: string | null = app) => {
      const res = await deviceInject(ctx.t, credential, {
        method: 'POST',
        url: apiPaths.appHeartbeat,
        payload: { versionCode, versionName: `v${versionCode}`, ...(appName ? { appName } : {}) },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const machines = await Promise.all([1, 2, 3, 4].map(() => enrolDevice(ctx.t)));
    for (const [machine, code] of machines.map((m, i) => [m, i < 3 ? 301 : 302] as const))
      await heartbeat(machine.credential, code);
    await flushCheckIns(ctx.t);
    // A machine that updates counts for its new version only.
    await heartbeat(machines[0]!.credential, 302);
    // Another app's 301, and a 301 that does not say its app, are not this app's (issue 35 item 2).
    const [other, unnamed] = await Promise.all([enrolDevice(ctx.t), enrolDevice(ctx.t)]);
    await heartbeat(other.credential, 301, 'com.example.technician');
    await heartbeat(unnamed.credential, 301, null);
    await flushCheckIns(ctx.t);

    const list = await ctx.t.injectAs(ctx.token, {
      method: 'GET',
      url: `${apiPaths.systemUpdatesAll}?page=1&limit=100`,
    });
    expect(list.statusCode).toBe(200);
    const counts = Object.fromEntries(
      (list.json().data.allSystems as { appName: string; versionCode: number; deviceCount: number }[])
        .filter((u) => u.appName === app)
        .map((u) => [u.versionCode, u.deviceCount]),
    );
    expect(counts).toEqual({ 301: 2, 302: 2, 303: 0 });
  });
});
