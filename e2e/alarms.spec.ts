import { runFleet } from '@app/fleet-simulator/fleet';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';
import { ownServerUrl, startOwnServer, type OwnServer } from './support/own-server.ts';

/*
 * Issue 16 "Done when" (item 1): simulated machines (the fleet simulator, a real HTTP client of the
 * device API) go quiet and raise an offline alarm, which the bell counts and an admin acknowledges.
 * A server of its own, so its thresholds touch no other spec: a machine is Offline after 6 s
 * (DEVICE_OFFLINE_MINUTES=0.1), its alarm comes at once (ALARM_OFFLINE_HOURS=0), the rules run every
 * 2 s, and no error-log burst can come of the fleet's own error logs.
 */
const portOffset = 90;

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ baseURL: ownServerUrl(portOffset) });

let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({
    name: 'alarms',
    portOffset,
    admin: e2eAdmin,
    env: {
      DEVICE_OFFLINE_MINUTES: '0.1',
      ALARM_OFFLINE_HOURS: '0',
      ALARM_CHECK_SECONDS: '2',
      ALARM_ERROR_BURST: '100000',
    },
  });
});

test.afterAll(() => server?.stop());

test('machines that go quiet raise offline alarms, the bell counts them, and an admin acknowledges one', async ({
  page,
  baseURL,
}) => {
  // Two machines enrol, check in and record for a few seconds, then the simulator stops: they go quiet.
  const fleet = await runFleet({
    url: baseURL!,
    adminEmail: e2eAdmin.email,
    adminPassword: e2eAdmin.password,
    devices: 2,
    minutes: 0.1,
    concurrency: 2,
    seed: 16,
  });
  expect(fleet.surprises).toEqual([]);
  const [first, second] = fleet.machines.map((m) => m.machine.machineNumber) as [string, string];

  await signIn(page);
  // Each page load reads the bell's count: load the dashboard until both machines' alarms are open.
  const bell = page.getByRole('link', { name: '2 open alarms' });
  await expect(async () => {
    await page.goto('/admin/dashboard');
    await expect(bell).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(bell).toHaveText('2');

  // The bell leads to the open alarms.
  await bell.click();
  await expect(page).toHaveURL(/\/admin\/alarms\?state=open$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Alarms' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Open alarms' });
  for (const machine of [first, second]) {
    const row = table
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: machine, exact: true }) });
    await expect(row).toContainText('Offline too long');
    await expect(row).toContainText('Quiet since');
    await expect(row).toContainText('Open');
  }

  // Search by machine: the URL keeps it.
  await page.getByLabel('Search alarms by machine').fill(first);
  await expect(page).toHaveURL(new RegExp(`search=${first}`));
  await expect(table.getByRole('link', { name: second, exact: true })).toBeHidden();

  // Acknowledge, after the confirmation (checked with axe while open).
  await table.getByRole('button', { name: `Acknowledge Offline too long on ${first}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Acknowledge alarm' });
  await expect(dialog).toContainText(`Acknowledge "Offline too long" on ${first}?`);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Acknowledge', exact: true }).click();
  await expect(page.getByText('Alarm acknowledged')).toBeVisible();
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: first, exact: true }) });
  await expect(row).toContainText('Acknowledged');
  await expect(row).toContainText(e2eAdmin.email);
  await expect(table.getByRole('button', { name: `Acknowledge Offline too long on ${first}` })).toBeHidden();
  // Acknowledged is still open: the bell still counts it.
  await expect(page.getByRole('link', { name: '2 open alarms' })).toBeVisible();

  // Its history names who acknowledged it.
  await row.getByRole('button', { name: `History of Offline too long on ${first}` }).click();
  const history = page.getByRole('dialog', { name: `History of "Offline too long" on ${first}` });
  await expect(history).toContainText('Opened: Quiet since');
  await expect(history).toContainText(`Acknowledged by ${e2eAdmin.email}`);
  await expectAccessible(page);
  await history.getByRole('button', { name: 'Close' }).click();
  await expect(history).toBeHidden();
});
