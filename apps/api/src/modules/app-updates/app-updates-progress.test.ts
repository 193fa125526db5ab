import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { deviceInject, enrolDevice, flushCheckIns, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { multipart } from './app-updates-test-app.ts';
import { cohortPosition, inCohort } from './rollout-cohort.ts';
import { cohortTallies } from './rollout-progress.ts';
import { buildDemoApk } from './zip-writer.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  // A release at 100 % needs a step-up (decision 046).
  await t.stepUp(token);
});
afterAll(() => t.close());

async function release(versionCode: number, rolloutPercent: number) {
  const body = multipart(
    {
      appName: 'Progress App',
      versionCode: String(versionCode),
      versionName: `${versionCode}.0`,
      remark: 'r',
      updateDesc: 'd',
      updateType: '1',
      rolloutPercent: String(rolloutPercent),
    },
    { name: 'app.apk', data: buildDemoApk('com.example.progress', versionCode, 0, `${versionCode}.0`) },
  );
  const res = await t.injectAs(token, { method: 'POST', url: apiPaths.systemUpdates, ...body });
  expect(res.statusCode, res.body).toBe(201);
}

const heartbeat = (d: EnrolledDevice, versionCode: number) =>
  deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode, versionName: `${versionCode}.0` },
  });

describe('rollout progress on the App Update list', () => {
  it("counts each release's targeted, updated and still-old machines from their check-ins", async () => {
    const machines = await Promise.all(Array.from({ length: 16 }, () => enrolDevice(t)));
    // The database's cohort is the one the update check uses.
    const tallies = await cohortTallies(t.database.db);
    const buckets = new Map<number, number>();
    for (const m of machines) {
      const b = Math.floor(cohortPosition(m.deviceId) / 100);
      buckets.set(b, (buckets.get(b) ?? 0) + 1);
    }
    expect(new Map(tallies.map((r) => [r.bucket, r.machines]))).toEqual(buckets);

    await release(7, 100);
    await release(8, 40);
    const [silent, ...reporting] = machines;
    const inStage = machines.filter((m) => inCohort(m.deviceId, 40));
    // Every machine reports 7 but one in the 40 % stage, which took 8, and one that never reports.
    const updater = inStage.find((m) => m !== silent);
    for (const m of reporting) expect((await heartbeat(m, m === updater ? 8 : 7)).statusCode).toBe(200);
    await flushCheckIns(t);

    const res = await t.injectAs(token, {
      method: 'GET',
      url: `${apiPaths.systemUpdatesAll}?page=1&limit=10`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const byVersion = new Map(
      (res.json().data.allSystems as { versionCode: number; progress: unknown }[]).map((r) => [
        r.versionCode,
        r.progress,
      ]),
    );
    const updated = updater ? 1 : 0;
    const silentInStage = inStage.includes(silent!) ? 1 : 0;
    expect(byVersion.get(8)).toEqual({
      targeted: inStage.length,
      updated,
      onOldVersion: inStage.length - silentInStage - updated,
    });
    expect(byVersion.get(7)).toEqual({ targeted: 16, updated: 15, onOldVersion: 0 });
  });
});
