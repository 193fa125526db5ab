import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutMessages } from '@app/contract/app-update-rollouts';
import type { AppUpdateListItem } from '@app/contract/app-updates';
import { apiPaths } from '@app/contract/paths';
import { signatureMessages } from '@app/contract/signatures';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { users } from '#api/db/schema/users.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { codeAt, enrol, nextStep, password as enrolledPassword } from '../auth/mfa-test-helpers.ts';
import { contentHashOf } from '../signatures/canonical-json.ts';
import { multipart } from './app-updates-test-app.ts';
import { buildDemoApk } from './zip-writer.ts';

/*
 * A second admin's approval of a rollout is an electronic signature with meaning (issue 38 item 2,
 * decision 083): the approver's password (and code), the meaning, and the signature shown with the
 * release. ROLLOUT_SECOND_ADMIN is on by default: a Force release waits for approval.
 */
let t: TestApp;
let first: string;
let firstId: string;
let approver: Awaited<ReturnType<typeof signInWithPermissions>>;
beforeAll(async () => {
  t = await createTestApp();
  first = await t.stepUp(await t.login());
  approver = await signInWithPermissions(t, first, ['devices.view', 'app-updates.publish']);
  const [row] = await t.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, testAdmin.email));
  firstId = row!.id;
});
afterAll(() => t.close());

let versionCode = 0;
/** A Force release of its own app, waiting for a second admin. */
async function heldRelease(appName: string) {
  const code = ++versionCode;
  const body = multipart(
    {
      appName,
      versionCode: String(code),
      versionName: `${code}.0`,
      remark: 'r',
      updateDesc: 'd',
      updateType: '2',
    },
    { name: 'a.apk', data: buildDemoApk('com.example.signed', code, 0, `${code}.0`) },
  );
  const res = await t.injectAs(first, { method: 'POST', url: apiPaths.systemUpdates, ...body });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().data.approvalPending).toBe('release');
  return res.json().data as { _id: string };
}
const approve = (token: string, id: string, signature?: Record<string, unknown>) =>
  t.injectAs(token, {
    method: 'POST',
    url: apiPaths.appUpdateRollout(id),
    payload: { action: 'approve', ...(signature && { signature }) },
  });
async function listed(id: string): Promise<AppUpdateListItem> {
  const res = await t.injectAs(first, { method: 'GET', url: `${apiPaths.systemUpdatesAll}?limit=100` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.allSystems as AppUpdateListItem[]).find((r) => r._id === id)!;
}
/** The signing events in the audit trail of the rollout route, oldest first (a refused request names no record). */
const signingEvents = async (email: string) =>
  (
    await t.database.db
      .select({ event: accessLogs.event, statusCode: accessLogs.statusCode, recordId: accessLogs.recordId })
      .from(accessLogs)
      .where(
        and(
          eq(accessLogs.userEmail, email),
          eq(accessLogs.resource, `POST ${apiPaths.appUpdateRollout(':id')}`),
        ),
      )
      .orderBy(accessLogs.createdAt, accessLogs.id)
  ).map((r) => [r.statusCode, r.event, r.recordId]);

describe('a signed approval', () => {
  it('keeps the printed name, time, meaning and the hash of what was approved, shown on the release', async () => {
    const { _id } = await heldRelease('Signed Approval');
    expect((await listed(_id)).signatures).toEqual([]);
    // The approver's session has not confirmed the password lately: the signature stands for it.
    const res = await approve(approver.token, _id, { meaning: 'approval', password: approver.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      msg: rolloutMessages.changed.approve,
      data: { approvalPending: null },
    });

    const [row] = await t.database.db.select().from(appUpdates).where(eq(appUpdates.id, _id));
    const item = await listed(_id);
    expect(item.signatures).toEqual([
      {
        id: expect.any(String),
        signerName: 'Per Mission',
        signerEmail: approver.email,
        meaning: 'approval',
        signedAt: t.clock.now.toISOString(),
        contentHash: contentHashOf({
          releaseId: _id,
          appName: 'Signed Approval',
          versionCode: row!.versionCode,
          versionName: row!.versionName,
          apkSha256: row!.apkSha256,
          updateType: 2,
          approved: 'release',
          requestedBy: firstId,
          rolloutPercent: 100,
        }),
      },
    ]);
    expect(await signingEvents(approver.email)).toEqual([[200, 'signature.success', _id]]);
  });

  it('takes any meaning of the list, and refuses one that is not on it naming the field', async () => {
    const { _id } = await heldRelease('Signed Meaning');
    const odd = await approve(approver.token, _id, { meaning: 'agreement', password: approver.password });
    expect(odd.statusCode).toBe(400);
    expect(odd.json().data.errors).toEqual([
      { path: 'signature.meaning', message: signatureMessages.meaningInvalid },
    ]);
    const res = await approve(approver.token, _id, {
      meaning: 'responsibility',
      password: approver.password,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await listed(_id)).signatures.map((s) => s.meaning)).toEqual(['responsibility']);
  });
});

describe('an approval that is not signed', () => {
  it('is refused without a signature, naming it, and a signature on another action is refused too', async () => {
    const { _id } = await heldRelease('Unsigned Approval');
    const bare = await approve(approver.token, _id);
    expect([bare.statusCode, bare.json().data.errors]).toEqual([
      400,
      [{ path: 'signature', message: signatureMessages.required }],
    ]);
    const pause = await t.injectAs(first, {
      method: 'POST',
      url: apiPaths.appUpdateRollout(_id),
      payload: { action: 'pause', signature: { meaning: 'approval', password: testAdmin.password } },
    });
    expect([pause.statusCode, pause.json().msg]).toEqual([400, rolloutMessages.signatureOnlyWithApprove]);
    expect((await listed(_id)).approvalPending).toBe('release');
  });

  it('is refused with a wrong password naming signature.password: nothing approved, nothing signed, a failure audited', async () => {
    const { _id } = await heldRelease('Wrong Password');
    const other = await signInWithPermissions(t, first, ['devices.view', 'app-updates.publish']);
    const res = await approve(other.token, _id, { meaning: 'approval', password: 'Not-The-Passw0rd' });
    expect([res.statusCode, res.json().data.errors]).toEqual([
      400,
      [{ path: 'signature.password', message: signatureMessages.passwordWrong }],
    ]);
    const item = await listed(_id);
    expect([item.approvalPending, item.signatures]).toEqual(['release', []]);
    expect(await signingEvents(other.email)).toEqual([[400, 'signature.failure', null]]);
  });

  it('asks an approver with two-step sign-in for the code, and takes a current one', async () => {
    const { _id } = await heldRelease('Two Step Approval');
    const { token, secret } = await enrol(t, `signer-${versionCode}@example.test`);
    const input = { meaning: 'approval', password: enrolledPassword };
    const without = await approve(token, _id, input);
    expect([without.statusCode, without.json().data.errors]).toEqual([
      400,
      [{ path: 'signature.code', message: signatureMessages.codeRequired }],
    ]);
    const wrong = await approve(token, _id, { ...input, code: '000000' });
    expect(wrong.json().data.errors).toEqual([
      { path: 'signature.code', message: signatureMessages.codeInvalid },
    ]);
    nextStep(t);
    const signed = await approve(token, _id, { ...input, code: codeAt(t, secret) });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await listed(_id)).signatures).toMatchObject([
      { signerEmail: `signer-${versionCode}@example.test` },
    ]);
  });
});
