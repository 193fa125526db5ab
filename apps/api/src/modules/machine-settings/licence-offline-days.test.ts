import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupPaths } from '@app/contract/groups';
import { licencePaths, type LicenceClaims } from '@app/contract/licences';
import {
  settingsMessages,
  settingsPaths,
  type AppSettings,
  type MachineSettingsView,
} from '@app/contract/machine-settings';
import { adminToken, deviceInject, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { createLicenceTokens } from '../licence-tokens/licence-tokens-service.ts';

/*
 * The offline validity of a machine's signed licence as a setting (issue 37 item 3, decision 079):
 * fleet, group or machine, the nearest winning, in whole days from 1 to the server's
 * LICENCE_OFFLINE_DAYS (5 here), which is also the default: retired signing keys are published only
 * that long, so a longer licence could outlive its key.
 */

const maxDays = 5;
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ LICENCE_OFFLINE_DAYS: String(maxDays) });
  admin = await adminToken(t);
});
afterAll(() => t.close());

const change = (url: string, payload: Record<string, unknown>) =>
  t.injectAs(admin, { method: 'PATCH', url, payload });
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as LicenceClaims;
/** How many days the machine's next licence is valid offline (exp after iat). */
const licenceDays = async (d: EnrolledDevice) => {
  const res = await deviceInject(t, d.credential, { method: 'GET', url: licencePaths.appLicence });
  expect(res.statusCode, res.body).toBe(200);
  const { token, expiresAt } = res.json().data as { token: string; expiresAt: string };
  const claims = claimsOf(token);
  expect(expiresAt).toBe(new Date(claims.exp * 1000).toISOString());
  return (claims.exp - claims.iat) / 86_400;
};
/** The notice that a machine's settings changed is asynchronous: fetch until the licence says `days`. */
const licenceDaysUntil = async (d: EnrolledDevice, days: number) => {
  let got = await licenceDays(d);
  for (let i = 0; i < 100 && got !== days; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    got = await licenceDays(d);
  }
  expect(got).toBe(days);
};
const view = async (deviceId: string): Promise<MachineSettingsView> =>
  (await t.injectAs(admin, { method: 'GET', url: settingsPaths.machine(deviceId) })).json().data;
const appSettings = async (d: EnrolledDevice): Promise<AppSettings> =>
  (await deviceInject(t, d.credential, { method: 'GET', url: settingsPaths.app })).json().data;
const staticGroup = async (ids: string[]) => {
  const created = await t.injectAs(admin, {
    method: 'POST',
    url: groupPaths.groups,
    payload: { name: `Offline ${ids[0]!.slice(0, 8)}`, kind: 'static' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const group = created.json().data as { _id: string; name: string };
  await t.injectAs(admin, { method: 'POST', url: groupPaths.members(group._id), payload: { ids } });
  return group;
};

describe('licenceOfflineDays', () => {
  it("is the server's LICENCE_OFFLINE_DAYS until set: the licence, the console and the app say so", async () => {
    const d = await enrolDevice(t);
    expect(await licenceDays(d)).toBe(maxDays);
    const shown = await view(d.deviceId);
    expect(shown.effective.licenceOfflineDays).toBe(maxDays);
    expect(shown.sources.licenceOfflineDays).toEqual({ source: 'default', group: null });
    expect((await appSettings(d)).settings.licenceOfflineDays).toBe(maxDays);
    const fleet = await t.injectAs(admin, { method: 'GET', url: settingsPaths.fleet });
    expect(fleet.json().data.defaults.licenceOfflineDays).toBe(maxDays);
  });

  it('set on a group to 3 days gives its machine a licence valid 3 days, and its own value wins', async () => {
    const [d, other] = [await enrolDevice(t), await enrolDevice(t)];
    expect(await licenceDays(d)).toBe(maxDays); // its settings are in memory from here: the notice must reach them
    const group = await staticGroup([d.deviceId]);
    const set = await change(settingsPaths.group(group._id), { licenceOfflineDays: 3 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({ values: { licenceOfflineDays: 3 }, machinesChanged: 1 });

    await licenceDaysUntil(d, 3);
    expect(await licenceDays(other)).toBe(maxDays);
    const shown = await view(d.deviceId);
    expect(shown.effective.licenceOfflineDays).toBe(3);
    expect(shown.sources.licenceOfflineDays).toEqual({
      source: 'group',
      group: { _id: group._id, name: group.name },
    });
    expect(await appSettings(d)).toMatchObject({ version: 1, settings: { licenceOfflineDays: 3 } });

    expect((await change(settingsPaths.machine(d.deviceId), { licenceOfflineDays: 1 })).statusCode).toBe(200);
    await licenceDaysUntil(d, 1);
    expect((await change(settingsPaths.machine(d.deviceId), { licenceOfflineDays: null })).statusCode).toBe(
      200,
    );
    await licenceDaysUntil(d, 3);
  });

  it('set on the fleet reaches the machines that set none nearer', async () => {
    const d = await enrolDevice(t);
    expect(await licenceDays(d)).toBe(maxDays);
    expect((await change(settingsPaths.fleet, { licenceOfflineDays: 2 })).statusCode).toBe(200);
    await licenceDaysUntil(d, 2);
    expect((await change(settingsPaths.fleet, { licenceOfflineDays: null })).statusCode).toBe(200);
    await licenceDaysUntil(d, maxDays);
  });

  it("refuses, at every level, a value above the server's maximum or below a whole day, naming the key", async () => {
    const d = await enrolDevice(t);
    const group = await staticGroup([d.deviceId]);
    const above = settingsMessages.licenceOfflineDaysAbove(maxDays);
    for (const url of [
      settingsPaths.fleet,
      settingsPaths.group(group._id),
      settingsPaths.machine(d.deviceId),
    ]) {
      const tooLong = await change(url, { licenceOfflineDays: maxDays + 1 });
      expect(tooLong.statusCode, url).toBe(400);
      expect(tooLong.json()).toEqual({
        code: 400,
        msg: above,
        data: { errors: [{ path: 'licenceOfflineDays', message: above }] },
      });
      expect(above).toContain(`from 1 to ${maxDays}`);
      for (const bad of [0, -1, 1.5, '3'])
        expect((await change(url, { licenceOfflineDays: bad })).json()).toMatchObject({
          code: 400,
          msg: settingsMessages.licenceOfflineDays,
          data: { errors: [{ path: 'licenceOfflineDays' }] },
        });
      // The maximum itself is allowed.
      expect((await change(url, { licenceOfflineDays: maxDays })).statusCode, url).toBe(200);
    }
    expect((await change(settingsPaths.fleet, { licenceOfflineDays: null })).statusCode).toBe(200);
  });

  it('kept from a higher LICENCE_OFFLINE_DAYS, counts as the maximum now', async () => {
    const d = await enrolDevice(t);
    await t.database.db.execute(
      sql`update devices set settings_own = '{"licenceOfflineDays": 30}'::jsonb,
            settings_version = settings_version + 1 where id = ${d.deviceId}`,
    );
    expect(await licenceDays(d)).toBe(maxDays);
    expect((await view(d.deviceId)).effective.licenceOfflineDays).toBe(maxDays);
    expect((await appSettings(d)).settings.licenceOfflineDays).toBe(maxDays);
  });
});

describe('the signed licence', () => {
  it("reads the machine's setting from memory when held there, without a read", async () => {
    const licence = {
      serialNumber: 'SN-1',
      state: 'active' as const,
      paidThrough: null,
      graceUntil: null,
      version: 2,
    };
    const tokens = createLicenceTokens({
      licences: { licence: async () => licence },
      settings: {
        peek: () => ({ version: 1, heartbeatSeconds: 300, licenceOfflineDays: 2 }),
        get: () => Promise.reject(new Error('no read while the settings are in memory')),
      },
      keys: t.app.licenceKeys,
      now: () => new Date('2026-12-01T00:00:00Z'),
      issuer: 'https://fleet.example',
      config: { enforcement: 'lapsed', offlineDays: maxDays },
    });
    const { token, expiresAt } = await tokens.forDevice('d1');
    expect(expiresAt).toBe('2026-12-03T00:00:00.000Z');
    expect(claimsOf(token)).toMatchObject({ sub: 'SN-1', ver: 2 });
  });
});
