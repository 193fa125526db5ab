import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandBatchMessages, commandBatchPaths, type CommandBatch } from '@app/contract/command-batches';
import { commandMessages } from '@app/contract/commands';
import { apiPaths } from '@app/contract/paths';
import { groupPaths } from '@app/contract/groups';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { adminToken, deviceInject, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

/*
 * One command to several machines (decision 077): every machine gets its own copy, once a second
 * admin approved (ROLLOUT_SECOND_ADMIN, on here as by default).
 */

let t: TestApp;
let admin: string;
let second: { token: string; password: string };
const fleet: EnrolledDevice[] = [];
beforeAll(async () => {
  t = await createTestApp({ ROLLOUT_SECOND_ADMIN: '1' });
  admin = await adminToken(t);
  for (let i = 0; i < 3; i++) fleet.push(await enrolDevice(t));
  second = await signInWithPermissions(t, admin, ['devices.view', 'commands.send', 'commands.disruptive']);
  await t.stepUp(second.token, second.password);
});
afterAll(() => t.close());

const send = (body: object, token = admin) =>
  t.injectAs(token, { method: 'POST', url: commandBatchPaths.send, payload: body });
const batch = async (id: string): Promise<CommandBatch> =>
  (await t.injectAs(admin, { method: 'GET', url: commandBatchPaths.batch(id) })).json().data;
const heartbeat = async (d: EnrolledDevice) =>
  (
    await deviceInject(t, d.credential, {
      method: 'POST',
      url: apiPaths.appHeartbeat,
      payload: { versionCode: 1, versionName: '1.0' },
    })
  ).json().data.commands as { _id: string; kind: string }[];

describe('a command to a group', () => {
  it('waits for another admin, then every machine of the group gets its own copy', async () => {
    await t.stepUp(admin);
    const group = (
      await t.injectAs(admin, {
        method: 'POST',
        url: groupPaths.groups,
        payload: { name: `Batch ${Date.now()}`, kind: 'static' },
      })
    ).json().data;
    await t.injectAs(admin, {
      method: 'POST',
      url: groupPaths.members(group._id),
      payload: { ids: fleet.slice(0, 2).map((d) => d.deviceId) },
    });

    const res = await send({ kind: 'sync-now', target: { groupId: group._id } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().msg).toBe(commandBatchMessages.awaitingApproval);
    const sent: CommandBatch = res.json().data;
    expect(sent).toMatchObject({
      state: 'awaiting-approval',
      machineCount: 0,
      target: `group ${group.name}`,
    });
    expect(await heartbeat(fleet[0]!)).toEqual([]);

    // Not by the admin who sent it.
    const signed = (password: string) => ({ signature: { meaning: 'approval', password } });
    const self = await t.injectAs(admin, {
      method: 'POST',
      url: commandBatchPaths.approve(sent._id),
      payload: signed(testAdmin.password),
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().msg).toBe(commandBatchMessages.approverMustDiffer);

    // The approval is signed (decision 083): without a signature, or with a wrong password, nothing moves.
    const unsigned = await t.injectAs(second.token, {
      method: 'POST',
      url: commandBatchPaths.approve(sent._id),
    });
    expect([unsigned.statusCode, unsigned.json().data.errors]).toEqual([
      400,
      [{ path: 'signature', message: 'Signature is required' }],
    ]);
    const wrong = await t.injectAs(second.token, {
      method: 'POST',
      url: commandBatchPaths.approve(sent._id),
      payload: signed('Not-The-Passw0rd'),
    });
    expect([wrong.statusCode, wrong.json().data.errors]).toEqual([
      400,
      [{ path: 'signature.password', message: 'Password is incorrect' }],
    ]);
    expect(await batch(sent._id)).toMatchObject({
      state: 'awaiting-approval',
      machineCount: 0,
      signatures: [],
    });

    const approved = await t.injectAs(second.token, {
      method: 'POST',
      url: commandBatchPaths.approve(sent._id),
      payload: signed(second.password),
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ state: 'queued', machineCount: 2, counts: { queued: 2 } });
    // The batch carries the signature: printed name, meaning, time, and the hash of the batch as asked.
    expect(approved.json().data.signatures).toEqual([
      {
        id: expect.any(String),
        signerName: 'Per Mission',
        signerEmail: expect.stringMatching(/^perm-/),
        meaning: 'approval',
        signedAt: t.clock.now.toISOString(),
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);

    for (const d of fleet.slice(0, 2))
      await vi.waitFor(async () => expect((await heartbeat(d)).map((c) => c.kind)).toEqual(['sync-now']));
    expect(await heartbeat(fleet[2]!)).toEqual([]);
    // Delivered is written behind the answers, within about 100 ms (delivery-marks.ts).
    await vi.waitFor(async () =>
      expect((await batch(sent._id)).counts).toMatchObject({ queued: 0, delivered: 2 }),
    );

    const again = await t.injectAs(second.token, {
      method: 'POST',
      url: commandBatchPaths.approve(sent._id),
      payload: signed(second.password),
    });
    expect(again.statusCode).toBe(409);
  });
});

describe('picked machines and refusals', () => {
  it('needs a step-up, a target naming machines, and commands.disruptive for a disruptive kind', async () => {
    const ids = fleet.map((d) => d.deviceId);
    const lapsed = await t.lapseStepUp(await t.login());
    const asked = await send({ kind: 'sync-now', target: { ids } }, lapsed);
    expect(asked.statusCode).toBe(403);
    expect(asked.json().data).toMatchObject({ stepUpRequired: true });

    await t.stepUp(admin);
    const none = await send({ kind: 'sync-now', target: { allMatching: { city: 'Nowhere at all' } } });
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toBe(commandBatchMessages.noMachines);
    const two = await send({ kind: 'sync-now', target: { ids, groupId: ids[0] } });
    expect(two.statusCode).toBe(400);
    expect(two.json().msg).toContain(commandBatchMessages.targetOne);

    const sender = await signInWithPermissions(t, admin, ['devices.view', 'commands.send']);
    await t.stepUp(sender.token, sender.password);
    const hold = await send(
      { kind: 'safety-hold', params: { reason: 'recall' }, target: { ids } },
      sender.token,
    );
    expect(hold.statusCode).toBe(403);
    expect(hold.json().msg).toBe(commandMessages.disruptiveNeedsPermission);
  });

  it('a rejected batch reaches no machine', async () => {
    await t.stepUp(admin);
    const sent = (await send({ kind: 'sync-now', target: { ids: [fleet[2]!.deviceId] } })).json().data;
    const rejected = await t.injectAs(second.token, {
      method: 'POST',
      url: commandBatchPaths.reject(sent._id),
    });
    expect(rejected.json().data).toMatchObject({
      state: 'rejected',
      decidedBy: expect.stringContaining('@'),
    });
    expect(await heartbeat(fleet[2]!)).toEqual([]);
  });
});
