import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '@app/fake-data/random';
import { appVersion, summaryLine } from '@app/fleet-simulator/fleet';
import { createStorage } from '../lib/storage/create-storage.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { seedAppUpdates } from './app-updates-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the fleet simulator beside the demo data', () => {
  it('runs a release of the device app that the demo publishes', async () => {
    await seedAppUpdates(t.database.db, createRng(1), {
      now: new Date(),
      devices: [],
      storage: createStorage(t.config),
    });
    const token = await t.login();
    const list = (
      await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/system/updates/all?limit=100' })
    ).json().data;
    const published = list.allSystems.map(
      (u: { appName: string; versionCode: number; versionName: string }) =>
        `${u.appName} ${u.versionCode} ${u.versionName}`,
    );
    expect(published).toContain(`${appVersion.appName} ${appVersion.code} ${appVersion.name}`);
  });

  it('says the records it saw refused are the ones it made bad on purpose', () => {
    const run = { devices: 5, accepted: 1200, duplicates: 0 };
    expect(summaryLine({ ...run, refused: 37, refusedMeant: 37 })).toBe(
      'simulated 5 devices: 1200 records accepted, 37 refused (all made bad on purpose by the simulator, to check that the server refuses them), 0 duplicates',
    );
    expect(summaryLine({ ...run, refused: 39, refusedMeant: 37 })).toBe(
      'simulated 5 devices: 1200 records accepted, 39 refused (37 made bad on purpose by the simulator, to check that the server refuses them; 2 unexpected), 0 duplicates',
    );
    expect(summaryLine({ ...run, refused: 0, refusedMeant: 0 })).toBe(
      'simulated 5 devices: 1200 records accepted, 0 refused, 0 duplicates',
    );
  });
});
