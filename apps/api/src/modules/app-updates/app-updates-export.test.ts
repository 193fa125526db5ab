import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutProgressText, rolloutStateLabels } from '@app/contract/app-update-rollouts';
import { updateTypeLabel, type AppUpdateListItem } from '@app/contract/app-updates';
import { apiPaths } from '@app/contract/paths';
import { permissionMessages } from '@app/contract/permissions';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { devices } from '#api/db/schema/devices.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { accessRowsOf } from '#api/test/audit-rows.ts';
import { csvCells } from '#api/test/csv-file.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/* Issue 17 item 3: App Update as a CSV file holds the list's rows, in its order, with its columns. */

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  const db = t.database.db;
  await db.insert(appUpdates).values(
    Array.from({ length: 14 }, (_, i) => ({
      appName: i === 3 ? '@evil' : 'com.example.device',
      versionCode: i + 1,
      versionName: `1.${i}`,
      remark: i === 5 ? 'Fixes, "quoted"' : `Release ${i + 1}`,
      updateDesc: 'Notes',
      updateType: (i % 2) + 1,
      storageKey: `k${i}`,
      fileName: `app-${i}.apk`,
      apkSize: 100,
      apkSha256: 'a'.repeat(64),
      rolloutPercent: i === 13 ? 25 : 100,
      // Two releases share a time: the file orders them by id, as the list does.
      createdAt: new Date(Date.UTC(2026, 0, 1 + Math.min(i, 12))),
    })),
  );
  await db.insert(devices).values(
    [3, 3, 14].map((appVersionCode, i) => ({
      machineNumber: `AU-${i}`,
      serialNumber: `AUS-${i}`,
      location: 'Clinic',
      latitude: 1,
      longitude: 2,
      city: 'Oslo',
      country: 'Norway',
      address: 'Main St 1',
      appVersionCode,
      appPackage: 'com.example.device',
    })),
  );
});
afterAll(() => t.close());

async function listed(): Promise<AppUpdateListItem[]> {
  const rows: AppUpdateListItem[] = [];
  for (let page = 1; ; page++) {
    const res = await t.injectAs(token, {
      method: 'GET',
      url: apiPaths.systemUpdatesAll,
      query: { page: String(page), limit: '5' },
    });
    rows.push(...(res.json().data.allSystems as AppUpdateListItem[]));
    if (page >= res.json().data.totalPages) return rows;
  }
}

describe('GET system/updates/export', () => {
  it('holds every release of the list, in its order, with its columns, and is audited', async () => {
    const audit = await accessRowsOf(t, async () => {
      const res = await t.injectAs(token, { method: 'GET', url: apiPaths.systemUpdatesExport });
      expect(res.statusCode, res.body).toBe(200);
      const [header, ...rows] = csvCells(res.body);
      expect(header).toEqual([
        'App Name',
        'Version Code',
        'Version Name',
        'Update Type',
        'Remark',
        'Machines Running',
        'Rollout',
        'Date',
        'APK',
      ]);
      const list = await listed();
      expect(list).toHaveLength(14);
      expect(rows).toEqual(
        list.map((u) => [
          u.appName.replace(/^@/, "'@"),
          String(u.versionCode),
          u.versionName,
          updateTypeLabel(u.updateType),
          u.remark,
          String(u.deviceCount),
          `${rolloutStateLabels[u.rolloutState]} · ${u.rolloutPercent} %: ${rolloutProgressText(u.progress)}`,
          u.createdAt,
          u.apkUrl,
        ]),
      );
      expect(rows.find((r) => r[1] === '3')?.[5]).toBe('2');
    });
    expect(audit.map((r) => r.resource)).toContain('EXPORT app-updates 14 rows: all');
  });

  it('needs the list permission, devices.view, and takes no filter', async () => {
    const { token: without } = await signInWithPermissions(t, token, ['patients.view']);
    const refused = await t.injectAs(without, { method: 'GET', url: apiPaths.systemUpdatesExport });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe(permissionMessages.missing('devices.view'));
    const unknown = await t.injectAs(token, { method: 'GET', url: `${apiPaths.systemUpdatesExport}?page=2` });
    expect(unknown.statusCode).toBe(400);
  });
});
