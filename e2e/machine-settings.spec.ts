import { randomBytes } from 'node:crypto';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { AppliedSettings } from '@app/fleet-simulator/app-settings';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 37 "Done when": an admin sets a group's heartbeat interval and sees the simulated machines
 * apply it (drift clears). Two machines in a group; the group's interval set; Device Details'
 * Settings card says where it comes from and that it is not applied yet, Device Management's
 * Settings filter lists both; the machines (the fleet simulator's settings, over a device client)
 * heartbeat, fetch, apply and report: applied, and the filter empties. Then the admin changes one
 * machine's language on its card, by keyboard, and it applies that too.
 */

test.describe.configure({ timeout: 120_000 });

test('a group’s heartbeat interval reaches its machines, which apply it; a machine’s own language too', async ({
  page,
  baseURL,
  request,
}) => {
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const machines = await Promise.all(
    ['A', 'B'].map(async (n) => {
      const device = await admin.addDevice({
        machineNumber: `SET-${tag}-${n}`,
        serialNumber: `SN-SET-${tag}-${n}`,
        location: 'Settings Clinic',
        latitude: 50.85,
        longitude: 4.35,
        city: 'Brussels',
        country: 'Belgium',
        address: `${n} Rue Neuve`,
      });
      const client = new DeviceClient({ baseUrl: baseURL! });
      await client.enrol((await admin.issueEnrolmentCode(device._id)).code);
      const settings = new AppliedSettings(client, () => undefined);
      /** The app's loop: check in, and take new settings when the answer names them. */
      const heartbeat = async () => {
        const answer = await client.heartbeat(40, '1.3.0');
        if (settings.wants(answer.settingsVersion)) await settings.refresh();
        return answer;
      };
      await heartbeat();
      return { device, settings, heartbeat };
    }),
  );
  const [a] = machines;

  // The group and its interval (the Groups screen is not built yet: the API).
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const group = await request.post('/api/v1/admin/groups', {
    headers,
    data: { name: `Night ward ${tag}`, kind: 'static' },
  });
  expect(group.status(), await group.text()).toBe(201);
  const groupId = (await group.json()).data._id as string;
  await request.post(`/api/v1/admin/groups/${groupId}/members`, {
    headers,
    data: { ids: machines.map((m) => m.device._id) },
  });
  const set = await request.patch(`/api/v1/admin/groups/${groupId}/settings`, {
    headers,
    data: { heartbeatSeconds: 60 },
  });
  expect(set.status(), await set.text()).toBe(200);

  await signIn(page);
  await page.goto(`/admin/device-details/${a!.device._id}`);
  const card = page.getByRole('region', { name: 'Settings' });
  const interval = card.getByRole('row', { name: /Heartbeat interval/ });
  await expect(interval).toContainText('60 s');
  await expect(interval).toContainText(`Group Night ward ${tag}`);
  await expect(card.getByText(/^Not applied yet: waiting since/)).toBeVisible();
  await expectAccessible(page);

  // Device Management's Settings filter: both machines drift.
  await page.goto(`/admin/device?search=set-${tag.toLowerCase()}&settings=drift`);
  const table = page.getByRole('table', { name: 'Devices' });
  await expect(table.getByRole('cell', { name: `SET-${tag}-A`, exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: `SET-${tag}-B`, exact: true })).toBeVisible();
  await expect(page.getByLabel('Settings', { exact: true })).toHaveValue('drift');

  // The machines check in, fetch, apply and report (the heartbeat's memory learns of the change
  // through a database notice: a few heartbeats at most).
  await expect(async () => {
    for (const m of machines) expect((await m.heartbeat()).nextHeartbeatSeconds).toBe(60);
  }).toPass();
  for (const m of machines) expect(m.settings.values.heartbeatSeconds).toBe(60);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Devices' }).getByText('No customers found.')).toBeVisible();

  // The admin changes machine A's language on its card, by keyboard.
  await page.goto(`/admin/device-details/${a!.device._id}`);
  await expect(card.getByText(/^Applied \(version 1\)$/)).toBeVisible();
  await card.getByRole('button', { name: 'Change settings' }).focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: `Settings of SET-${tag}-A` });
  await form.getByLabel(/Language/).selectOption({ label: 'German' });
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(form).toBeHidden();
  const language = card.getByRole('row', { name: /Language/ });
  await expect(language).toContainText('German');
  await expect(language).toContainText('This machine');
  await expect(card.getByText(/^Not applied yet/)).toBeVisible();
  await expect(async () => {
    await a!.heartbeat();
    expect(a!.settings.values.language).toBe('de');
  }).toPass();
  await page.reload();
  await expect(card.getByText(/^Applied \(version 2\)$/)).toBeVisible();
});
