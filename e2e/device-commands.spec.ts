import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { confirmStepUp, e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 37 item 5: Device Details' Commands section. The admin sends "upload diagnostics" from the
 * console; a machine (the fleet simulator's client, over real HTTP) takes it, uploads its file and
 * reports; the list shows it succeed by itself and the file downloads. A queued command is
 * cancelled; a safety hold warns, needs its reason and the password, and is queued.
 */

test.describe.configure({ timeout: 120_000 });

test('an admin sends a machine commands from Device Details, sees them run, downloads diagnostics and cancels one', async ({
  page,
  baseURL,
}) => {
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const device = await admin.addDevice({
    machineNumber: `CMD-${tag}`,
    serialNumber: `SN-CMD-${tag}`,
    location: 'Command Clinic',
    latitude: 52.52,
    longitude: 13.405,
    city: 'Berlin',
    country: 'Germany',
    address: '1 Unter den Linden',
  });
  const machine = new DeviceClient({ baseUrl: baseURL! });
  await machine.enrol((await admin.issueEnrolmentCode(device._id)).code);

  await signIn(page);
  await page.goto(`/admin/device-details/${device._id}`);
  const section = page.getByRole('region', { name: 'Commands' });
  await expect(section.getByText('No commands sent to this machine yet')).toBeVisible();

  // Upload diagnostics, from the keyboard.
  await section.getByRole('button', { name: 'Send command' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Send a command to ${device.machineNumber}` });
  await expect(dialog.getByLabel(/Command/)).toBeFocused();
  await dialog.getByLabel(/Command/).selectOption({ label: 'Upload diagnostics' });
  await dialog.getByLabel('Minutes of logs').fill('30');
  await dialog.getByLabel('Minutes of logs').press('Enter');
  await expect(page.getByText('Command queued')).toBeVisible();
  await expect(dialog).toBeHidden();
  const rows = section.getByRole('table', { name: 'Command history' }).locator('tbody tr');
  await expect(rows.first()).toContainText('Logs of the last 30 minutes');
  await expect(rows.first()).toContainText('Queued');

  // The machine takes it, uploads its file and reports: the list moves on by itself.
  const [command] = await machine.pollCommands(0);
  expect(command).toMatchObject({ kind: 'upload-diagnostics', params: { minutes: 30 } });
  await machine.uploadDiagnostics(command!._id, new Uint8Array(gzipSync('app log lines\n')));
  await machine.reportCommand(command!._id, { ok: true, message: 'uploaded 1 log line' });
  await expect(rows.first()).toContainText('Succeeded');
  await expect(rows.first()).toContainText('uploaded 1 log line');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    rows
      .first()
      .getByRole('button', { name: /^Download diagnostics of Upload diagnostics/ })
      .click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^diagnostics-CMD-${tag}-.+\\.gz$`));

  // Sync now, cancelled while still queued.
  await section.getByRole('button', { name: 'Send command' }).click();
  await dialog.getByLabel(/Command/).selectOption({ label: 'Sync now' });
  await dialog.getByRole('button', { name: 'Send command' }).click();
  await expect(rows.first()).toContainText('Queued');
  await rows
    .first()
    .getByRole('button', { name: /^Cancel Sync now sent / })
    .click();
  await expect(page.getByText('Command cancelled')).toBeVisible();
  await expect(rows.first()).toContainText('Cancelled');

  // A safety hold: the warning, the contract's message under Reason, then the password.
  await section.getByRole('button', { name: 'Send command' }).click();
  await dialog.getByLabel(/Command/).selectOption({ label: 'Safety hold (interrupts the machine)' });
  await expect(dialog.getByText("This interrupts the machine's work.")).toBeVisible();
  await dialog.getByRole('button', { name: 'Send command' }).click();
  await expect(dialog.getByText('params.reason is required')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(/Reason/).fill('Pump pressure alarm under review');
  await dialog.getByRole('button', { name: 'Send command' }).click();
  await confirmStepUp(page);
  await expect(dialog).toBeHidden();
  await expect(rows.first()).toContainText('Reason: Pump pressure alarm under review');
  await expect(rows.first()).toContainText('Queued');
  await expectAccessible(page);
});
