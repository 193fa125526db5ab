import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandBatchPaths } from '@app/contract/command-batches';
import { groupPaths } from '@app/contract/groups';
import { permissionMessages } from '@app/contract/permissions';
import { safetyNoticeMessages, type NoticeMachines, type SafetyNotice } from '@app/contract/safety-notices';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { signatureMessages } from '@app/contract/signatures';
import type { SimMachine } from '@app/fleet-simulator/machine';
import { asc, eq, like } from 'drizzle-orm';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { devices } from '#api/db/schema/devices.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { addDevice, flushCheckIns } from '#api/test/device-fixtures.ts';
import { simulatedFleet } from '#api/test/sim-machines.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { subscriptionRequests } from '../subscriptions/subscription-test-requests.ts';

/*
 * Field safety notices (issue 38 item 6, decision 084; EU MDR Art. 87-89): machines selected by
 * serial range, app version and group; the set frozen at sending; one mail per clinic contact in
 * the outbox with a link that acknowledges once; remedied when the machine reports the release's
 * version or its command succeeds, as simulated machines do over real HTTP; the regulator's CSV.
 */

let t: TestApp;
let token: string;
let fleet: Awaited<ReturnType<typeof simulatedFleet>>;
type Provisioned = {
  machine: SimMachine;
  device: { _id: string; serialNumber: string; machineNumber: string };
};
/** a and b: one clinic, version 30; c: version 31, no subscription; far: outside the range. */
let a: Provisioned, b: Provisioned, c: Provisioned;
let far: { deviceId: string; serialNumber: string };
let groupId: string;
const unknownId = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp({ ROLLOUT_SECOND_ADMIN: '0' });
  fleet = await simulatedFleet(t, 'fsn');
  token = await t.login();
  const old = { code: 30, name: '1.2.0' };
  a = (await fleet.provision({ app: old })) as Provisioned;
  b = (await fleet.provision({ app: old })) as Provisioned;
  c = (await fleet.provision({ app: { code: 31, name: '1.2.1' } })) as Provisioned;
  far = await addDevice(t, { serialNumber: 'ZZ-FSN-OUTSIDE', machineNumber: 'MN-FSN-OUTSIDE' });
  await flushCheckIns(t);
  const { add } = subscriptionRequests(() => ({ t, token }));
  for (const m of [a, b]) {
    const res = await add({
      fullName: 'Clinic North',
      email: 'north@clinic.example',
      machineSerialNumber: m.device.serialNumber,
      amount: 10,
      isRecurring: false,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const group = await t.injectAs(token, {
    method: 'POST',
    url: groupPaths.groups,
    payload: { name: `FSN ${a.device.serialNumber}`, kind: 'static' },
  });
  groupId = group.json().data._id;
  await t.injectAs(token, {
    method: 'POST',
    url: groupPaths.members(groupId),
    payload: { ids: [a.device._id, c.device._id] },
  });
}, 120_000);
afterAll(() => t?.close());

let refCount = 0;
const body = (over: Record<string, unknown> = {}) => ({
  reference: `FSN-${a.device.serialNumber}-${++refCount}`,
  title: 'Pump pressure may drift',
  description: 'Under sustained load the pump pressure may drift above the set point.',
  kind: 'corrective-action',
  remedyText: 'Install app 1.3.0; until then keep sessions under 20 minutes.',
  selection: { serialRanges: [{ from: a.device.serialNumber, to: c.device.serialNumber }] },
  ...over,
});
const create = (payload: unknown, as = token) =>
  t.injectAs(as, { method: 'POST', url: safetyNoticePaths.list, payload: payload as object });
const draft = async (over: Record<string, unknown> = {}) => {
  const res = await create(body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as SafetyNotice;
};
const preview = async (id: string) =>
  (await t.injectAs(token, { method: 'GET', url: `${safetyNoticePaths.preview(id)}?limit=100` })).json()
    .data as { machines: { serialNumber: string }[]; total: number; contacts: number; noContact: number };
/** Sends, signed with the sender's password and the meaning "responsibility". */
const send = (id: string, as = token, password: string = testAdmin.password) =>
  t.injectAs(as, {
    method: 'POST',
    url: safetyNoticePaths.send(id),
    payload: { signature: { meaning: 'responsibility', password } },
  });
const status = async (id: string, query = '') =>
  (
    await t.injectAs(token, { method: 'GET', url: `${safetyNoticePaths.machines(id)}?limit=100${query}` })
  ).json().data as NoticeMachines;
const serials = (rows: { serialNumber: string }[]) => rows.map((r) => r.serialNumber).sort();
/** The acknowledgement link of the newest mail to this address mentioning the notice. */
async function linkFor(reference: string, to: string): Promise<string> {
  const rows = await t.database.db
    .select()
    .from(mailOutbox)
    .where(like(mailOutbox.subject, `%${reference}%`));
  const mail = rows.find((r) => r.to === to);
  const match = mail?.text.match(/\/safety-notice\/([A-Za-z0-9_-]+)/);
  expect(match, `a link in the mail to ${to}`).toBeTruthy();
  return match![1]!;
}

describe('selecting the affected machines', () => {
  it('takes the machines of a serial range, narrowed by app version and by group', async () => {
    const range = await draft();
    expect(serials((await preview(range._id)).machines)).toEqual(serials([a.device, b.device, c.device]));
    const p = await preview(range._id);
    expect([p.total, p.contacts, p.noContact]).toEqual([3, 1, 1]);
    const version = await draft({ selection: { appVersionCodes: [31] } });
    expect(serials((await preview(version._id)).machines)).toContain(c.device.serialNumber);
    expect(serials((await preview(version._id)).machines)).not.toContain(a.device.serialNumber);
    const both = await draft({
      selection: { serialRanges: [{ from: a.device.serialNumber, to: c.device.serialNumber }], groupId },
    });
    expect(serials((await preview(both._id)).machines)).toEqual(serials([a.device, c.device]));
    const narrowed = await draft({ selection: { appVersionCodes: [30], groupId } });
    expect(serials((await preview(narrowed._id)).machines)).toEqual([a.device.serialNumber]);
  });

  it('names the field of bad input: a reversed range, an unknown group, no criterion, an unknown remedy', async () => {
    const reversed = await create(body({ selection: { serialRanges: [{ from: 'SN-9', to: 'SN-1' }] } }));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().data.errors[0].path).toBe('selection.serialRanges.0.to');
    const group = await create(body({ selection: { groupId: unknownId } }));
    expect(group.statusCode).toBe(400);
    expect(group.json().msg).toBe(safetyNoticeMessages.groupUnknown);
    const none = await create(body({ selection: {} }));
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toContain(safetyNoticeMessages.selectionRequired);
    const remedy = await create(body({ remedy: { kind: 'app-update', id: unknownId } }));
    expect(remedy.statusCode).toBe(400);
    expect(remedy.json().data.errors[0].path).toBe('remedy.id');
    const taken = await draft();
    const again = await create(body({ reference: taken.reference.toLowerCase() }));
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe(safetyNoticeMessages.referenceTaken);
  });

  it('refuses to send a notice that matches no machine, naming the selection', async () => {
    const empty = await draft({ selection: { serialRanges: [{ from: 'A-NONE-1', to: 'A-NONE-2' }] } });
    const res = await send(empty._id);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(safetyNoticeMessages.noMachines);
  });
});

describe('sending, acknowledging and remedying', () => {
  it('freezes the set, mails each contact once with a working link, and counts acknowledgements', async () => {
    const notice = await draft();
    const res = await send(notice._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.counts).toMatchObject({ machines: 3, contacts: 1, notified: 2, noContact: 1 });
    // A machine that starts matching later is not added: the set was frozen at sending.
    const late = await addDevice(t, {
      serialNumber: `${a.device.serialNumber}0`,
      machineNumber: `MN-LATE-${a.device.machineNumber}`,
    });
    const view = await status(notice._id);
    expect(serials(view.machines)).toEqual(serials([a.device, b.device, c.device]));
    expect(serials(view.machines)).not.toContain(late.serialNumber);
    // Out of the range again, so the notices of the next tests are the three machines.
    await t.database.db
      .update(devices)
      .set({ serialNumber: `ZZ-${late.serialNumber}` })
      .where(eq(devices.id, late.deviceId));
    const frozenA = view.machines.find((m) => m.serialNumber === a.device.serialNumber)!;
    expect([frozenA.appVersionCode, frozenA.appVersionName, frozenA.contact]).toEqual([
      30,
      '1.2.0',
      'north@clinic.example',
    ]);
    expect(view.machines.find((m) => m.serialNumber === c.device.serialNumber)!.status).toBe('no-contact');
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.subject, `%${notice.reference}%`));
    expect(mails.map((m) => m.to)).toEqual(['north@clinic.example']);
    expect(mails[0]!.text).toContain(a.device.serialNumber);
    expect(mails[0]!.text).toContain(b.device.serialNumber);

    const ack = await linkFor(notice.reference, 'north@clinic.example');
    const read = await t.app.inject({ method: 'GET', url: safetyNoticePaths.acknowledgement(ack) });
    expect(read.statusCode).toBe(200);
    expect(serials(read.json().data.machines)).toEqual(serials([a.device, b.device]));
    const done = await t.app.inject({
      method: 'POST',
      url: safetyNoticePaths.acknowledgement(ack),
      payload: { name: 'Dr. Nora North' },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.acknowledgedBy).toBe('Dr. Nora North');
    const twice = await t.app.inject({
      method: 'POST',
      url: safetyNoticePaths.acknowledgement(ack),
      payload: { name: 'Someone Else' },
    });
    expect(twice.statusCode).toBe(409);
    const wrong = await t.app.inject({
      method: 'POST',
      url: safetyNoticePaths.acknowledgement(`${ack.slice(0, -2)}xx`),
      payload: { name: 'Guess' },
    });
    expect(wrong.statusCode).toBe(404);
    const after = await status(notice._id);
    expect(after.counts).toMatchObject({ acknowledged: 2, notified: 0, noContact: 1 });
    expect(serials((await status(notice._id, '&status=acknowledged')).machines)).toEqual(
      serials([a.device, b.device]),
    );
    expect((await send(notice._id)).statusCode).toBe(409);
  });

  it('counts a machine remedied once it reports the release of the remedy', async () => {
    const [release] = await t.database.db
      .insert(appUpdates)
      .values({
        appName: 'com.treatment.device',
        versionCode: 45,
        versionName: '1.4.5',
        remark: 'fix',
        updateDesc: 'Pump pressure fix',
        updateType: 1,
        storageKey: 'fsn-release.apk',
        fileName: 'fsn.apk',
        apkSize: 1,
        apkSha256: '0'.repeat(64),
      })
      .returning({ id: appUpdates.id });
    const notice = await draft({ remedy: { kind: 'app-update', id: release!.id } });
    expect(notice.remedy?.versionCode).toBe(45);
    expect((await send(notice._id)).statusCode).toBe(200);
    expect((await status(notice._id)).counts.remedied).toBe(0);
    a.machine.app = { code: 45, name: '1.4.5' };
    await a.machine.heartbeat();
    await flushCheckIns(t);
    const view = await status(notice._id, '&status=remedied');
    expect(serials(view.machines)).toEqual([a.device.serialNumber]);
    expect(view.machines[0]!.remediedAt).not.toBeNull();
    // Frozen: the version at notice stays what the machine ran when the notice was sent.
    expect([view.machines[0]!.appVersionCode, view.machines[0]!.appVersionName]).toEqual([30, '1.2.0']);
    expect(view.counts.remedied).toBe(1);
  });

  it('counts a machine remedied once its command of the remedy batch succeeded', async () => {
    const batch = await t.injectAs(token, {
      method: 'POST',
      url: commandBatchPaths.send,
      payload: { kind: 'sync-now', target: { ids: [b.device._id] } },
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const notice = await draft({ remedy: { kind: 'command-batch', id: batch.json().data._id } });
    expect((await send(notice._id)).statusCode).toBe(200);
    await vi.waitFor(
      async () => {
        await b.machine.heartbeat();
        expect((await status(notice._id, '&status=remedied')).machines.map((m) => m.serialNumber)).toEqual([
          b.device.serialNumber,
        ]);
      },
      { timeout: 5_000, interval: 100 },
    );
    expect((await status(notice._id, '&status=not-remedied')).total).toBe(2);
  });

  it("writes the regulator's CSV: one row per machine with its version at notice, contact and times", async () => {
    const notice = await draft();
    await send(notice._id);
    const res = await t.injectAs(token, { method: 'GET', url: safetyNoticePaths.export(notice._id) });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Reference,Serial,Machine number,App version at notice,Contact,Notified at,Acknowledged at,Acknowledged by,Remedied at',
    );
    expect(lines).toHaveLength(4);
    const rowC = lines.find((l) => l.includes(c.device.serialNumber))!;
    expect(rowC).toContain(
      `${notice.reference},${c.device.serialNumber},${c.device.machineNumber},1.2.1 (31),no contact`,
    );
    const rowA = lines.find((l) => l.includes(a.device.serialNumber))!;
    expect(rowA).toMatch(/north@clinic\.example,\d{4}-\d\d-\d\dT/);
    // The download is in the audit trail, as every export (decision 064): its start, then its count.
    await t.app.audit.flush();
    const trail = await t.database.db
      .select({ resource: accessLogs.resource })
      .from(accessLogs)
      .where(like(accessLogs.resource, 'EXPORT% safety-notice%'))
      .orderBy(asc(accessLogs.id));
    expect(trail.map((r) => r.resource).slice(-2)).toEqual([
      'EXPORTING safety-notice: all',
      'EXPORT safety-notice 3 rows: all',
    ]);
  });
});

describe('who may', () => {
  it('refuses an admin without safety-notices.manage, and a sending without a valid signature', async () => {
    const other = await signInWithPermissions(t, token, ['devices.view']);
    const res = await create(body(), other.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe(permissionMessages.missing('safety-notices.manage'));
    const manager = await signInWithPermissions(t, token, ['safety-notices.manage']);
    const notice = (await create(body(), manager.token)).json().data as SafetyNotice;
    const unsigned = await t.injectAs(manager.token, {
      method: 'POST',
      url: safetyNoticePaths.send(notice._id),
      payload: {},
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().msg).toContain(signatureMessages.required);
    const wrong = await send(notice._id, manager.token, 'not-the-password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data.errors[0].path).toBe('signature.password');
    expect(
      (await t.injectAs(token, { method: 'GET', url: safetyNoticePaths.notice(notice._id) })).json().data
        .state,
    ).toBe('draft');
    const signed = await send(notice._id, manager.token, manager.password);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().data.signature).toMatchObject({
      meaning: 'responsibility',
      signerEmail: manager.email,
    });
    expect(signed.json().data.signature.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(far.serialNumber).toBe('ZZ-FSN-OUTSIDE');
  });
});
