import { randomBytes } from 'node:crypto';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { confirmStepUp, e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 37 item 4: a restart waits for the machine's maintenance window and for its treatment to
 * end. The admin sets a window that is closed now on Device Details and sends "Restart the app": the
 * history says it waits for the window and the machine's heartbeats get nothing; the window moved to
 * now, a heartbeat saying a treatment runs still gets nothing (the history says why); the next one,
 * with no treatment, gets the restart, which the machine reports.
 */

test.describe.configure({ timeout: 120_000 });

/** HH:MM in UTC, `minutes` from `at`. */
const hhmm = (at: Date, minutes: number) =>
  new Date(at.getTime() + minutes * 60_000).toISOString().slice(11, 16);

test('a restart waits for the maintenance window and for the running treatment, then reaches the machine', async ({
  page,
  baseURL,
}) => {
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const device = await admin.addDevice({
    machineNumber: `MW-${tag}`,
    serialNumber: `SN-MW-${tag}`,
    location: 'Window Clinic',
    latitude: 48.85,
    longitude: 2.35,
    city: 'Paris',
    country: 'France',
    address: '1 Rue de Rivoli',
  });
  const machine = new DeviceClient({ baseUrl: baseURL! });
  await machine.enrol((await admin.issueEnrolmentCode(device._id)).code);
  const beat = (busy: boolean) => machine.heartbeat(40, '1.3.0', { busy });
  // The server's clock (the e2e server's may be moved by other tests): windows are set around it.
  const serverNow = new Date((await beat(false)).serverTime);

  await signIn(page);
  await page.goto(`/admin/device-details/${device._id}`);
  const card = page.getByRole('region', { name: 'Maintenance Window' });
  await expect(card.getByText('None: restarts may come at any time')).toBeVisible();

  // A window two hours from now, by keyboard.
  await card.getByRole('button', { name: 'Set window' }).focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: `Maintenance window of ${device.machineNumber}` });
  await form.getByLabel(/From/).fill(hhmm(serverNow, 120));
  await form.getByLabel(/Until/).fill(hhmm(serverNow, 180));
  await form.getByLabel(/time zone/).selectOption('UTC');
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Maintenance window saved')).toBeVisible();
  await expect(
    card.getByText(`${hhmm(serverNow, 120)} to ${hhmm(serverNow, 180)}`, { exact: false }),
  ).toBeVisible();
  await expect(card.getByText('Closed')).toBeVisible();

  // Restart the app: queued, waiting for the window.
  const commands = page.getByRole('region', { name: 'Commands' });
  await commands.getByRole('button', { name: 'Send command' }).click();
  const send = page.getByRole('dialog', { name: `Send a command to ${device.machineNumber}` });
  await send.getByLabel(/Command/).selectOption({ label: 'Restart the app (interrupts the machine)' });
  await send.getByRole('button', { name: 'Send command' }).click();
  await confirmStepUp(page);
  await expect(send).toBeHidden();
  const row = commands.getByRole('table', { name: 'Command history' }).locator('tbody tr').first();
  await expect(row).toContainText('Waiting for window');
  expect((await beat(false)).commands).toEqual([]);

  // The window opened around now; a treatment runs: still held, and the history says why.
  await card.getByRole('button', { name: 'Change window' }).click();
  await form.getByLabel(/From/).fill(hhmm(serverNow, -30));
  await form.getByLabel(/Until/).fill(hhmm(serverNow, 90));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Open', { exact: true })).toBeVisible();
  expect((await beat(true)).commands).toEqual([]);
  // The busy flag is written within a second (coalesced check-ins): read the page again until then.
  await expect(async () => {
    await page.reload();
    await expect(card.getByText(/^Running since/)).toBeVisible({ timeout: 5_000 });
  }).toPass();
  await expect(row).toContainText('Waiting for the treatment to end');

  // The treatment over: the next heartbeat hands the restart over, and the machine reports it.
  const [restart] = (await beat(false)).commands;
  expect(restart).toMatchObject({ kind: 'restart-app' });
  await machine.reportCommand(restart!._id, { ok: true, message: 'restarted' });
  await expect(row).toContainText('Succeeded');
  await expect(async () => {
    await page.reload();
    await expect(card.getByText('None running')).toBeVisible({ timeout: 5_000 });
  }).toPass();
  await expectAccessible(page);
});
