import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutProgressText, type RolloutProgress } from '@app/contract/app-update-rollouts';
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

const heartbeat = (d: EnrolledDevice, versionCode: number, appName?: string) =>
  deviceInject(t, d.credential, {
    method: 'POST',
    url: apiPaths.appHeartbeat,
    payload: { versionCode, versionName: `${versionCode}.0`, ...(appName ? { appName } : {}) },
  });

describe('rollout progress on the App Update list', () => {
  it("counts each release's machines by app and version, each in exactly one part, the parts adding up", async () => {
    const machines = await Promise.all(Array.from({ length: 16 }, () => enrolDevice(t)));
    // The database's cohort is the one the update check uses.
    const tallies = await cohortTallies(t.database.db);
    const buckets = new Map<number, number>();
    for (const m of machines) {
      const b = Math.floor(cohortPosition(m.deviceId) / 100);
      buckets.set(b, (buckets.get(b) ?? 0) + 1);
    }
    const perBucket = new Map<number, number>();
    for (const r of tallies) perBucket.set(r.bucket, (perBucket.get(r.bucket) ?? 0) + r.machines);
    expect(perBucket).toEqual(buckets);

    await release(7, 100);
    await release(8, 40);
    // One machine never reports; one runs another app with the same versionCode (issue 35 item 2:
    // it is not this app's machine); one reports a version without its app (an older app); the rest
    // report this app's 7, but one in the 40 % stage, which took 8.
    const [silent, otherApp, noApp, ...rest] = machines;
    const inStage = machines.filter((m) => inCohort(m.deviceId, 40));
    const updater = rest.find((m) => inStage.includes(m));
    expect((await heartbeat(otherApp!, 7, 'Technician App')).statusCode).toBe(200);
    expect((await heartbeat(noApp!, 7)).statusCode).toBe(200);
    for (const m of rest)
      expect((await heartbeat(m, m === updater ? 8 : 7, 'Progress App')).statusCode).toBe(200);
    await flushCheckIns(t);

    const res = await t.injectAs(token, {
      method: 'GET',
      url: `${apiPaths.systemUpdatesAll}?page=1&limit=10`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data.allSystems as {
      versionCode: number;
      deviceCount: number;
      progress: RolloutProgress;
    }[];
    const byVersion = new Map(rows.map((r) => [r.versionCode, r]));
    const stage = (m: EnrolledDevice | undefined) => (m && inStage.includes(m) ? 1 : 0);
    const updated = updater ? 1 : 0;
    expect(byVersion.get(8)!.progress).toEqual({
      targeted: inStage.length,
      updated,
      onOldVersion: inStage.length - stage(silent) - stage(otherApp) - stage(noApp) - updated,
      otherApp: stage(otherApp),
      appUnknown: stage(noApp),
      notReported: stage(silent),
      waitingForWindow: 0,
      waitingForTreatment: 0,
    });
    expect(byVersion.get(7)!.progress).toEqual({
      targeted: 16,
      updated: 13,
      onOldVersion: 0,
      otherApp: 1,
      appUnknown: 1,
      notReported: 1,
      waitingForWindow: 0,
      waitingForTreatment: 0,
    });
    for (const { progress: p } of rows)
      expect(p.updated + p.onOldVersion + p.otherApp + p.appUnknown + p.notReported).toBe(p.targeted);
    // Machines Running: this app's machines at exactly that version, not the other app's 7.
    expect(byVersion.get(7)!.deviceCount).toBe(13 - updated);
    expect(byVersion.get(8)!.deviceCount).toBe(updated);
    expect(rolloutProgressText(byVersion.get(7)!.progress)).toBe(
      '13 of 16 updated, 1 on another app, 1 not saying which app, 1 not reported yet',
    );
  });
});
