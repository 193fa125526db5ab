import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutMessages } from '@app/contract/app-update-rollouts';
import { appUpdateMessages } from '@app/contract/app-updates';
import { deviceApiMessages } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { stepUpMessages } from '@app/contract/step-up';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { deviceInject, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { filesUnder, multipart } from './app-updates-test-app.ts';
import { inCohort } from './rollout-cohort.ts';
import { buildDemoApk } from './zip-writer.ts';

let t: TestApp;
let token: string;
/** Another session of the same admin, stepped up: a release for every machine asks for it. */
let uploader: string;
beforeAll(async () => {
  // Below versionCode 2 a machine is no longer supported: it must update (minimum-supported-version.ts).
  // One admin here: the second admin's approval has its own file (app-updates-approval.test.ts).
  t = await createTestApp({ MIN_SUPPORTED_APP_VERSION_CODE: '2', ROLLOUT_SECOND_ADMIN: 'false' });
  // Not stepped up: advancing to 100 % asks this session for one.
  token = await t.loginWithoutStepUp();
  uploader = await t.login();
  await t.stepUp(uploader);
});
afterAll(() => t.close());

const pkg = 'com.example.rollout';

async function release(appName: string, versionCode: number, extra: Record<string, string> = {}) {
  const body = multipart(
    {
      appName,
      versionCode: String(versionCode),
      versionName: `${versionCode}.0.0`,
      remark: 'r',
      updateDesc: 'd',
      updateType: '1',
      ...extra,
    },
    { name: 'app.apk', data: buildDemoApk(pkg, versionCode, 0, `${versionCode}.0.0`) },
  );
  const res = await t.injectAs(uploader, { method: 'POST', url: apiPaths.systemUpdates, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { _id: string; rolloutPercent: number; rolloutState: string };
}

const rollout = (id: string, payload: Record<string, unknown>) =>
  t.injectAs(token, { method: 'POST', url: apiPaths.appUpdateRollout(id), payload });

/** The update check as an enrolled machine (its credential) or, without one, as anybody. */
async function check(appName: string, versionCode: number | undefined, machine?: EnrolledDevice) {
  const query =
    versionCode === undefined ? `appName=${appName}` : `appName=${appName}&versionCode=${versionCode}`;
  const options = { method: 'GET' as const, url: `${apiPaths.appUpdateLatest}?${query}` };
  const res = machine ? await deviceInject(t, machine.credential, options) : await t.app.inject(options);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    versionCode: number;
    updateAvailable: boolean | null;
    forceUpdate: boolean;
    rollback: boolean;
  };
}
const offered = async (appName: string, installed: number, machine?: EnrolledDevice) => {
  const answer = await check(appName, installed, machine);
  return answer.updateAvailable ? answer.versionCode : null;
};

/** Enrolled machines until at least one is inside a `percent` stage and one outside it. */
async function machinesAround(percent: number) {
  const inside: EnrolledDevice[] = [];
  const outside: EnrolledDevice[] = [];
  while (inside.length === 0 || outside.length === 0) {
    const machine = await enrolDevice(t);
    (inCohort(machine.deviceId, percent) ? inside : outside).push(machine);
    expect(inside.length + outside.length).toBeLessThan(60);
  }
  return { inside: inside[0]!, outside: outside[0]! };
}

describe('staged rollout of a release', () => {
  it('offers a release at 25 % to the machines of that cohort, and to everyone once at 100 %', async () => {
    const app = 'Rollout Stages';
    await release(app, 2);
    const staged = await release(app, 3, { rolloutPercent: '25' });
    expect(staged).toMatchObject({ rolloutPercent: 25, rolloutState: 'active' });
    const { inside, outside } = await machinesAround(25);

    expect(await offered(app, 2, inside)).toBe(3);
    expect(await offered(app, 2, outside)).toBeNull();
    // Without a credential there is no cohort: only what every machine may have.
    expect(await offered(app, 2)).toBeNull();
    expect((await check(app, undefined)).versionCode).toBe(2);

    // Advancing keeps every machine that was in (the cohort is a hash of the id).
    const advanced = await rollout(staged._id, { action: 'advance', percent: 50 });
    expect(advanced.statusCode, advanced.body).toBe(200);
    expect(advanced.json()).toMatchObject({
      msg: rolloutMessages.changed.advance,
      data: { rolloutPercent: 50, rolloutState: 'active' },
    });
    expect(await offered(app, 2, inside)).toBe(3);
    expect(await offered(app, 2, outside)).toBe(inCohort(outside.deviceId, 50) ? 3 : null);

    // 100 % reaches every machine: a dangerous step that needs a fresh step-up.
    const unconfirmed = await rollout(staged._id, { action: 'advance', percent: 100 });
    expect([unconfirmed.statusCode, unconfirmed.json().msg]).toEqual([403, stepUpMessages.required]);
    expect(unconfirmed.json().data).toMatchObject({ stepUpRequired: true });
    await t.stepUp(token);
    expect((await rollout(staged._id, { action: 'advance', percent: 100 })).statusCode).toBe(200);
    expect(await offered(app, 2, outside)).toBe(3);
    expect(await offered(app, 2)).toBe(3);
  });

  it('pauses and resumes; a halted release reaches no new machine; a withdrawn one sends its machines back', async () => {
    const app = 'Rollout Halt';
    await release(app, 2);
    const staged = await release(app, 3, { rolloutPercent: '25' });
    const { inside } = await machinesAround(25);
    const other = await enrolDevice(t);

    expect((await rollout(staged._id, { action: 'pause' })).json().data.rolloutState).toBe('paused');
    expect(await offered(app, 2, inside)).toBeNull();
    // A machine that already took it keeps it and hears of nothing newer.
    expect(await check(app, 3, inside)).toMatchObject({ versionCode: 3, updateAvailable: false });
    expect((await rollout(staged._id, { action: 'resume' })).json().data.rolloutState).toBe('active');
    expect(await offered(app, 2, inside)).toBe(3);

    expect((await rollout(staged._id, { action: 'halt' })).json().data.rolloutState).toBe('halted');
    expect(await offered(app, 2, inside)).toBeNull();
    const resume = await rollout(staged._id, { action: 'resume' });
    expect([resume.statusCode, resume.json().msg]).toEqual([
      409,
      rolloutMessages.notAllowed('resume', 'halted'),
    ]);

    await t.stepUp(token);
    const withdrawn = await rollout(staged._id, { action: 'withdraw' });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({
      msg: rolloutMessages.changed.withdraw,
      data: { rolloutState: 'withdrawn' },
    });
    // The machine that took 3 is offered 2, the previous good release, and must take it.
    expect(await check(app, 3, inside)).toMatchObject({
      versionCode: 2,
      updateAvailable: true,
      forceUpdate: true,
      rollback: true,
    });
    expect(await check(app, 3)).toMatchObject({ versionCode: 2, rollback: true });
    expect(await check(app, 2, other)).toMatchObject({
      versionCode: 2,
      updateAvailable: false,
      rollback: false,
    });

    const audited = await t.database.db
      .select()
      .from(accessLogs)
      .where(
        and(
          eq(accessLogs.resource, 'POST /api/v1/admin/system/updates/:id/rollout'),
          eq(accessLogs.statusCode, 200),
        ),
      );
    expect(audited.filter((r) => r.recordId === staged._id)).toHaveLength(4);
    expect(audited[0]).toMatchObject({ userEmail: testAdmin.email, recordKind: 'app-update' });
  });

  it('forces a machine below the minimum supported version to update', async () => {
    const app = 'Rollout Minimum';
    await release(app, 1);
    await release(app, 2);
    const machine = await enrolDevice(t);
    expect(await check(app, 1, machine)).toMatchObject({
      versionCode: 2,
      updateAvailable: true,
      forceUpdate: true,
    });
    expect(await check(app, 2, machine)).toMatchObject({ updateAvailable: false, forceUpdate: false });
  });

  it('refuses a bad change with a 4xx naming the field, and a bad credential with 401', async () => {
    const staged = await release('Rollout Refusals', 5, { rolloutPercent: '5' });
    const answer = async (payload: Record<string, unknown>, id = staged._id) => {
      const res = await rollout(id, payload);
      return [res.statusCode, res.json().msg];
    };
    expect(await answer({ action: 'explode' })).toEqual([400, rolloutMessages.actionInvalid]);
    expect((await answer({ action: 'advance' }))[0]).toBe(400);
    expect((await answer({ action: 'advance' }))[1]).toContain(rolloutMessages.percentRequired);
    expect((await answer({ action: 'advance', percent: 150 }))[1]).toContain(rolloutMessages.percentInvalid);
    expect(await answer({ action: 'advance', percent: 5 })).toEqual([
      400,
      rolloutMessages.percentNotAbove(5),
    ]);
    expect((await answer({ action: 'pause', percent: 20 }))[0]).toBe(400);
    expect((await answer({ action: 'pause', extra: 1 }))[0]).toBe(400);
    expect(await answer({ action: 'resume' })).toEqual([409, rolloutMessages.notAllowed('resume', 'active')]);
    expect(await answer({ action: 'pause' }, '00000000-0000-4000-8000-000000000000')).toEqual([
      404,
      appUpdateMessages.notFound,
    ]);
    expect((await answer({ action: 'pause' }, 'not-a-uuid'))[0]).toBe(400);

    const url = `${apiPaths.appUpdateLatest}?appName=Rollout%20Refusals&versionCode=1`;
    for (const authorization of ['Device dvc_forged', 'Bearer x.y.z']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization } });
      expect([res.statusCode, res.json().msg]).toEqual([401, deviceApiMessages.credentialInvalid]);
    }
  });

  it("takes the first stage from the upload's rolloutPercent, naming the field when it is wrong", async () => {
    expect(await release('Rollout Upload', 1, { rolloutPercent: '' })).toMatchObject({ rolloutPercent: 100 });
    const body = multipart(
      {
        appName: 'Rollout Upload',
        versionCode: '2',
        versionName: '2.0.0',
        remark: 'r',
        updateDesc: 'd',
        updateType: '1',
        rolloutPercent: '0',
      },
      { name: 'app.apk', data: buildDemoApk(pkg, 2, 0, '2.0.0') },
    );
    const res = await t.injectAs(token, { method: 'POST', url: apiPaths.systemUpdates, ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.errors).toEqual([
      { path: 'rolloutPercent', message: rolloutMessages.percentInvalid },
    ]);
  });

  it('asks for a step-up to upload a release for every machine, as advancing to 100 % does, storing nothing without it', async () => {
    const app = 'Rollout Step-up';
    // A session that has not confirmed the password (ROLLOUT_SECOND_ADMIN is off here).
    const fresh = await t.loginWithoutStepUp();
    const send = (extra: Record<string, string>, options?: { fileFirst?: boolean }) => {
      const body = multipart(
        {
          appName: app,
          versionCode: '1',
          versionName: '1.0.0',
          remark: 'r',
          updateDesc: 'd',
          updateType: '1',
          ...extra,
        },
        { name: 'app.apk', data: buildDemoApk(pkg, 1, 0, '1.0.0') },
        options,
      );
      return t.injectAs(fresh, { method: 'POST', url: apiPaths.systemUpdates, ...body });
    };
    const apkFiles = () => filesUnder(path.join(t.config.dataDir, 'files', 'apks')).length;
    const filesBefore = apkFiles();
    // A Flexible release at the default stage (100 %), at 100 % said, or with the fields after the file.
    for (const [extra, options] of [
      [{}, undefined],
      [{ rolloutPercent: '100' }, undefined],
      [{}, { fileFirst: true }],
      [{ updateType: '2', rolloutPercent: '5' }, undefined],
    ] as const) {
      const refused = await send(extra, options);
      expect([refused.statusCode, refused.json()], JSON.stringify([extra, options])).toEqual([
        403,
        { code: 403, msg: stepUpMessages.required, data: { stepUpRequired: true, needsCode: false } },
      ]);
    }
    expect(await t.database.db.select().from(appUpdates).where(eq(appUpdates.appName, app))).toEqual([]);
    expect(apkFiles()).toBe(filesBefore);

    // A first stage below 100 % does not ask; advancing it to 100 % does, as the upload at 100 % did.
    const staged = await send({ rolloutPercent: '50' });
    expect(staged.statusCode, staged.body).toBe(201);
    const advance = await t.injectAs(fresh, {
      method: 'POST',
      url: apiPaths.appUpdateRollout(staged.json().data._id as string),
      payload: { action: 'advance', percent: 100 },
    });
    expect([advance.statusCode, advance.json().msg]).toEqual([403, stepUpMessages.required]);
  });
});
