import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupPaths } from '@app/contract/groups';
import { settingsPaths, type MachineSettingsView } from '@app/contract/machine-settings';
import { simulatedFleet } from '#api/test/sim-machines.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * The fleet simulator applies settings as the app does (issue 37 item 6): simulated machines
 * (tools/fleet-simulator) against the real app on a port, over real HTTP. An admin sets a group's
 * heartbeat interval; each machine's next heartbeat names the new version, it fetches, applies and
 * reports it, and the console's drift clears. A new offline licence validity makes it fetch its
 * licence again.
 */

let t: TestApp;
let token: string;
let provision: Awaited<ReturnType<typeof simulatedFleet>>['provision'];

beforeAll(async () => {
  t = await createTestApp();
  ({ provision } = await simulatedFleet(t, 'set'));
  token = await t.login();
}, 60_000);
afterAll(() => t?.close());

const view = async (deviceId: string): Promise<MachineSettingsView> =>
  (await t.injectAs(token, { method: 'GET', url: settingsPaths.machine(deviceId) })).json().data;

describe('a group’s heartbeat interval', () => {
  it('reaches the simulated machines, which apply it and report the version: drift clears', async () => {
    const machines = [(await provision()).machine, (await provision()).machine];
    const ids = machines.map((m) => m.client.deviceId!);
    const created = await t.injectAs(token, {
      method: 'POST',
      url: groupPaths.groups,
      payload: { name: `Night ward ${ids[0]!.slice(0, 6)}`, kind: 'static' },
    });
    const group = created.json().data as { _id: string };
    await t.injectAs(token, { method: 'POST', url: groupPaths.members(group._id), payload: { ids } });

    const set = await t.injectAs(token, {
      method: 'PATCH',
      url: settingsPaths.group(group._id),
      payload: { heartbeatSeconds: 45, language: 'de' },
    });
    expect(set.statusCode, set.body).toBe(200);
    for (const id of ids) expect((await view(id)).driftSince).not.toBeNull();

    // The notice reaches the heartbeat's memory asynchronously: a few heartbeats at most.
    for (let i = 0; i < 50 && machines.some((m) => m.settings.values.heartbeatSeconds !== 45); i++)
      for (const m of machines) await m.heartbeat();
    for (const [i, m] of machines.entries()) {
      expect(m.settings.values).toMatchObject({ heartbeatSeconds: 45, language: 'de' });
      expect(m.appLog.since(60).some((l) => /Settings \d+ applied: .*heartbeatSeconds=45/.test(l))).toBe(
        true,
      );
      const shown = await view(ids[i]!);
      expect(shown).toMatchObject({ appliedVersion: shown.version, driftSince: null });
      expect(m.ledger.surprises).toEqual([]);
    }
    // Applied once: more heartbeats fetch nothing again.
    const before = machines[0]!.settings.history.length;
    await machines[0]!.heartbeat();
    expect(machines[0]!.settings.history.length).toBe(before);
  });
});

describe('a group’s offline licence validity', () => {
  it('makes a simulated machine fetch its licence again, now valid that many days', async () => {
    const { machine } = await provision();
    const id = machine.client.deviceId!;
    await machine.heartbeat();
    const before = machine.licence.claims!;
    expect(before.exp - before.iat).toBe(t.config.licences.offlineDays * 86_400);
    const created = await t.injectAs(token, {
      method: 'POST',
      url: groupPaths.groups,
      payload: { name: `Short leash ${id.slice(0, 6)}`, kind: 'static' },
    });
    const group = created.json().data as { _id: string };
    await t.injectAs(token, { method: 'POST', url: groupPaths.members(group._id), payload: { ids: [id] } });
    const set = await t.injectAs(token, {
      method: 'PATCH',
      url: settingsPaths.group(group._id),
      payload: { licenceOfflineDays: 2 },
    });
    expect(set.statusCode, set.body).toBe(200);

    for (let i = 0; i < 50 && machine.settings.values.licenceOfflineDays !== 2; i++)
      await machine.heartbeat();
    const after = machine.licence.claims!;
    expect(after.exp - after.iat).toBe(2 * 86_400);
    expect(machine.ledger.surprises).toEqual([]);
  });
});
