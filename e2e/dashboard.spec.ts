import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';
import { ownServerUrl, startOwnServer, type OwnServer } from './support/own-server.ts';

/*
 * Issue 16 "Done when" (item 4): the dashboard's figures link to the list filtered to them. A server
 * of its own (no demo data, no other spec's machines), so each figure is known exactly: one machine
 * that called (the fleet simulator's client, over real HTTP) and three never seen.
 */
const portOffset = 95;

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ baseURL: ownServerUrl(portOffset) });

let server: OwnServer | undefined;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({ name: 'dashboard', portOffset, admin: e2eAdmin });
});
test.afterAll(() => server?.stop());

const machineForm = (machineNumber: string) => ({
  machineNumber,
  serialNumber: `SN-${machineNumber}`,
  location: 'Dashboard Clinic',
  latitude: 48.8566,
  longitude: 2.3522,
  city: 'Paris',
  country: 'France',
  address: '1 Rue de Rivoli',
});

test('the Operations figures count the fleet and each opens its list filtered to exactly those machines', async ({
  page,
  baseURL,
}) => {
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const quiet = ['DASH-NEVER-1', 'DASH-NEVER-2', 'DASH-NEVER-3'];
  for (const machineNumber of quiet) await admin.addDevice(machineForm(machineNumber));
  const calling = await admin.addDevice(machineForm('DASH-ONLINE-1'));
  const machine = new DeviceClient({ baseUrl: baseURL! });
  await machine.enrol((await admin.issueEnrolmentCode(calling._id)).code);
  await machine.heartbeat(42, '4.2.0');

  await signIn(page);
  // The spec's four tiles with real figures (issue 35 item 6), each a link to its list, what it
  // counts said on hover; then the Operations section.
  for (const tile of ['New Orders', 'New Customer', 'User Registrations', 'Unique Visitors'])
    await expect(page.getByRole('link', { name: new RegExp(`^\\d[\\d,]*\\s*${tile}$`) })).toBeVisible();
  await page.getByRole('link', { name: /Unique Visitors/ }).hover();
  await expect(page.getByRole('tooltip')).toHaveText('Admins who signed in during the last 30 days');
  await expectAccessible(page);
  const machines = page.getByRole('region', { name: 'Machines' });
  // Check-ins are written once a second: load again until the call shows.
  await expect(async () => {
    await page.reload();
    await expect(machines.getByRole('link', { name: '1 Online' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(machines.getByRole('link', { name: '0 Offline' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Open alarms' }).getByRole('link', { name: '0 Open alarms' }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Treatments per day, last 30 days' })).toBeAttached();
  await expectAccessible(page);

  // Never seen: the device list filtered to exactly the three quiet machines, the filter in the URL.
  await machines.getByRole('link', { name: '3 Never seen' }).click();
  await expect(page).toHaveURL(/\/admin\/device\?online=never$/);
  await expect(page.getByRole('combobox', { name: 'Online' })).toHaveValue('never');
  const table = page.getByRole('table', { name: 'Devices' });
  for (const machineNumber of quiet)
    await expect(table.getByText(machineNumber, { exact: true })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(1 + quiet.length);
  await expectAccessible(page);

  // Back on the dashboard, Online opens the one machine that called; a search keeps the filter.
  await page.goBack();
  await page.getByRole('region', { name: 'Machines' }).getByRole('link', { name: '1 Online' }).click();
  await expect(page).toHaveURL(/\/admin\/device\?online=online$/);
  await expect(table.getByText('DASH-ONLINE-1', { exact: true })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Search devices').fill('NEVER');
  await expect(page).toHaveURL(/online=online&search=NEVER|search=NEVER&online=online/);
  await expect(page.getByText('No customers found.')).toBeVisible();

  // Treatments today: Treatment Records for today's UTC day (none recorded on this server).
  await page.goto('/admin/dashboard');
  const today = new Date().toISOString().slice(0, 10);
  await page.getByRole('region', { name: 'Treatments' }).getByRole('link', { name: '0 Today' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/treatments\\?from=${today}&to=${today}$`));
  await expect(page.getByText(`Started on ${today} (UTC)`)).toBeVisible();
  await expect(page.getByText('No Treatment found.')).toBeVisible();
});
