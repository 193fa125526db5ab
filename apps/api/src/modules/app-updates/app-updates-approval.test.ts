import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutMessages } from '@app/contract/app-update-rollouts';
import { apiPaths } from '@app/contract/paths';
import { stepUpMessages } from '@app/contract/step-up';
import { accessLogs } from '#api/db/schema/logs.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { enrolDevice, deviceInject } from '#api/test/device-fixtures.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { multipart } from './app-updates-test-app.ts';
import { buildDemoApk } from './zip-writer.ts';

// ROLLOUT_SECOND_ADMIN is on by default: this app runs with the defaults.
let t: TestApp;
let first: string;
let second: string;
let secondPassword: string;
/** An approval is signed with the approver's password (decision 083). */
const signedBy = (password: string) => ({ action: 'approve', signature: { meaning: 'approval', password } });
beforeAll(async () => {
  t = await createTestApp();
  first = await t.login();
  const other = await signInWithPermissions(t, first, ['devices.view', 'app-updates.publish']);
  second = other.token;
  secondPassword = other.password;
  await t.stepUp(second, other.password);
  await t.stepUp(first);
});
afterAll(() => t.close());

const upload = (token: string, appName: string, versionCode: number, extra: Record<string, string>) => {
  const body = multipart(
    {
      appName,
      versionCode: String(versionCode),
      versionName: `${versionCode}.0`,
      remark: 'r',
      updateDesc: 'd',
      updateType: '1',
      ...extra,
    },
    { name: 'a.apk', data: buildDemoApk('com.example.approval', versionCode, 0, `${versionCode}.0`) },
  );
  return t.injectAs(token, { method: 'POST', url: apiPaths.systemUpdates, ...body });
};
async function release(appName: string, versionCode: number, extra: Record<string, string> = {}) {
  const res = await upload(first, appName, versionCode, extra);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { _id: string; approvalPending: string | null };
}
const act = (token: string, id: string, payload: Record<string, unknown>) =>
  t.injectAs(token, { method: 'POST', url: apiPaths.appUpdateRollout(id), payload });
const offered = async (appName: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `${apiPaths.appUpdateLatest}?appName=${appName}&versionCode=1`,
  });
  return res.statusCode === 200 && res.json().data.updateAvailable
    ? (res.json().data.versionCode as number)
    : null;
};

describe('second-admin approval', () => {
  it('holds a Force release until another admin approves it; the one who asked cannot', async () => {
    await release('Approval Force', 1, { rolloutPercent: '5' });
    const force = await release('Approval Force', 2, { updateType: '2' });
    expect(force.approvalPending).toBe('release');
    expect(await offered('Approval Force')).toBeNull();

    const own = await act(first, force._id, signedBy(testAdmin.password));
    expect([own.statusCode, own.json().msg]).toEqual([403, rolloutMessages.approverMustDiffer]);
    expect(await offered('Approval Force')).toBeNull();

    const approved = await act(second, force._id, signedBy(secondPassword));
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      msg: rolloutMessages.changed.approve,
      data: { approvalPending: null },
    });
    expect(await offered('Approval Force')).toBe(2);
    const again = await act(second, force._id, signedBy(secondPassword));
    expect([again.statusCode, again.json().msg]).toEqual([409, rolloutMessages.nothingToApprove]);

    const audited = await t.database.db
      .select()
      .from(accessLogs)
      .where(
        and(
          eq(accessLogs.resource, 'POST /api/v1/admin/system/updates/:id/rollout'),
          eq(accessLogs.recordId, force._id),
        ),
      );
    // The approval is audited under the second admin's name, naming the release.
    expect(audited.map((r) => [r.statusCode, r.userEmail, r.recordKind])).toEqual([
      [200, expect.stringMatching(/^perm-/), 'app-update'],
    ]);
  });

  it('keeps a staged rollout at its stage until a 100 % stage is approved by another admin', async () => {
    await release('Approval Stage', 1, { rolloutPercent: '5' });
    const staged = await release('Approval Stage', 2, { rolloutPercent: '25' });
    expect(staged.approvalPending).toBeNull();
    const machine = await enrolDevice(t);
    const asked = await act(first, staged._id, { action: 'advance', percent: 100 });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({
      msg: rolloutMessages.awaitingApproval,
      data: { rolloutPercent: 25, approvalPending: 'full-stage' },
    });
    expect(await offered('Approval Stage')).toBeNull();
    // The stage that runs goes on meanwhile: the check by cohort is the same as before.
    const check = await deviceInject(t, machine.credential, {
      method: 'GET',
      url: `${apiPaths.appUpdateLatest}?appName=Approval%20Stage&versionCode=1`,
    });
    expect(check.statusCode).toBe(200);

    const approved = await act(second, staged._id, signedBy(secondPassword));
    expect(approved.json().data).toMatchObject({ rolloutPercent: 100, approvalPending: null });
    expect(await offered('Approval Stage')).toBe(2);
  });

  it('asks for a step-up to upload a release for every machine, though it then waits for approval', async () => {
    await release('Approval Upload', 1, { rolloutPercent: '5' });
    // A new session of the first admin: signed in, not stepped up.
    const fresh = await t.loginWithoutStepUp();
    for (const extra of [{}, { rolloutPercent: '100' }, { updateType: '2', rolloutPercent: '5' }] as Record<
      string,
      string
    >[]) {
      const refused = await upload(fresh, 'Approval Upload', 2, extra);
      expect([refused.statusCode, refused.json().msg], JSON.stringify(extra)).toEqual([
        403,
        stepUpMessages.required,
      ]);
    }
    // As advancing a release to 100 % asks for one, though it waits for approval too.
    const partial = (await upload(fresh, 'Approval Upload', 2, { rolloutPercent: '25' })).json().data;
    const advance = await act(fresh, partial._id, { action: 'advance', percent: 100 });
    expect([advance.statusCode, advance.json().msg]).toEqual([403, stepUpMessages.required]);

    await t.stepUp(fresh);
    const held = await upload(fresh, 'Approval Upload', 3, {});
    expect(held.statusCode, held.body).toBe(201);
    expect(held.json().data).toMatchObject({ rolloutPercent: 100, approvalPending: 'release' });
  });

  it("refuses the admin who asked before looking at the signature, and takes another admin's signature for the step-up", async () => {
    await release('Approval Order', 1, { rolloutPercent: '5' });
    const held = await release('Approval Order', 2);
    expect(held.approvalPending).toBe('release');
    const staged = await release('Approval Order', 3, { rolloutPercent: '25' });
    expect((await act(first, staged._id, { action: 'advance', percent: 100 })).statusCode).toBe(200);

    // Sessions that have not confirmed the password: the asker's is refused whatever it signs.
    const asker = await t.loginWithoutStepUp();
    const other = await signInWithPermissions(t, first, ['devices.view', 'app-updates.publish']);
    for (const id of [held._id, staged._id]) {
      const own = await act(asker, id, signedBy(testAdmin.password));
      expect([own.statusCode, own.json()]).toEqual([
        403,
        { code: 403, msg: rolloutMessages.approverMustDiffer, data: null },
      ]);
      // Another admin is not asked for a step-up: the signature's password is the confirmation.
      const another = await act(other.token, id, signedBy(other.password));
      expect(another.statusCode, another.body).toBe(200);
    }
    // Nothing to approve is said before the password is looked at.
    const nothing = await act(
      other.token,
      (await release('Approval Order', 4, { rolloutPercent: '5' }))._id,
      signedBy(other.password),
    );
    expect([nothing.statusCode, nothing.json().msg]).toEqual([409, rolloutMessages.nothingToApprove]);
  });
});
