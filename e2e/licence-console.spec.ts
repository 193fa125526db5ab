import { randomBytes } from 'node:crypto';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { confirmStepUp, e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';
import { ownServerUrl, startOwnServer, type OwnServer } from './support/own-server.ts';
import { addSubscriptionInConsole, payAsCustomer } from './support/subscriptions.ts';

/*
 * Issue 34 item 4, the console's side of the licence: the dashboard's Licences figures link to
 * Device Management filtered to them; the Licence column (optional, chosen in Columns) and facet;
 * Device Details' Licence card, where the admin exempts a machine with a reason and an end date
 * after confirming the password (the route's step-up). Every screen passes axe, and the card's
 * dialog is worked by keyboard.
 *
 * A server of its own: a one-time payment licenses 10 days here (LICENCE_ONE_TIME_DAYS), so a
 * machine paid today is "lapsing within 14 days" without moving any clock; sign-in is no step-up.
 */
const portOffset = 75;
const baseURL = ownServerUrl(portOffset);

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ baseURL });

let server: OwnServer | undefined;
let admin: AdminClient;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({
    name: 'licence-console',
    portOffset,
    admin: e2eAdmin,
    env: { LICENCE_ONE_TIME_DAYS: '10', SIGN_IN_STEP_UP: '0' },
  });
  admin = new AdminClient({ baseUrl: baseURL }, e2eAdmin.email, e2eAdmin.password);
  await admin.signIn();
});
test.afterAll(() => server?.stop());

const run = randomBytes(3).toString('hex');
const addMachine = (label: string) =>
  admin.addDevice({
    machineNumber: `LC-${label}-${run}`,
    serialNumber: `SN-LC-${label}-${run}`,
    location: `Clinic ${label}`,
    latitude: 52.52,
    longitude: 13.4,
    city: 'Berlin',
    country: 'Germany',
    address: `Street ${label}`,
  });

test('the dashboard links to the machines whose licence lapses soon; the Licence column and facet show them; an admin exempts one with a reason', async ({
  page,
  browser,
}) => {
  const paid = await addMachine('PAID');
  const never = await addMachine('NEVER');
  await signIn(page);
  const customer = { fullName: `Clinic Owner ${run}`, email: `owner-${run}@example.com` };
  const { link } = await addSubscriptionInConsole(page, { ...customer, serial: paid.serialNumber });
  await payAsCustomer(browser, link);

  // The dashboard: the paid machine's 10 days end within 14; none in grace or lapsed.
  await page.goto('/admin/dashboard');
  const licences = page.getByRole('region', { name: 'Licences' });
  await expect(licences.getByRole('link', { name: '0 In grace' })).toBeVisible();
  await expect(licences.getByRole('link', { name: '0 Lapsed' })).toBeVisible();
  const lapsing = licences.getByRole('link', { name: '1 Lapsing within 14 days' });
  await expect(lapsing).toBeVisible();
  await expectAccessible(page);
  await lapsing.click();
  await expect(page).toHaveURL(/\/admin\/device\?licenceEndsWithin=14$/);
  await expect(page.getByRole('combobox', { name: 'Licence ends' })).toHaveValue('14');

  // The Licence column is optional: the admin turns it on in Columns, by keyboard.
  const table = page.getByRole('table', { name: 'Devices' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('columnheader', { name: 'Licence' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Columns' }).focus();
  await page.keyboard.press('Enter');
  const column = page.getByRole('checkbox', { name: 'Licence' });
  await column.focus();
  await page.keyboard.press('Space');
  await expect(column).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: 'Licence' })).toBeVisible();
  const paidRow = table.getByRole('row').filter({ hasText: paid.machineNumber });
  await expect(paidRow).toContainText('Active until');
  await expect(table.getByRole('row').filter({ hasText: never.machineNumber })).toHaveCount(0);
  await expectAccessible(page);

  // The Licence facet: the machine never paid for is Unlicensed.
  await page.getByRole('combobox', { name: 'Licence ends' }).selectOption({ label: 'Any time' });
  await page.getByRole('combobox', { name: 'Licence', exact: true }).selectOption('unlicensed');
  await expect(page).toHaveURL(/licence=unlicensed/);
  await expect(table.getByRole('row').filter({ hasText: never.machineNumber })).toContainText('Unlicensed');
  await expect(table.getByRole('row').filter({ hasText: paid.machineNumber })).toHaveCount(0);

  // Device Details' Licence card: the state, its dates and the history with the payment.
  await page.goto(`/admin/device-details/${paid._id}`);
  const card = page.getByRole('region', { name: 'Licence' });
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  const history = card.getByRole('table', { name: 'Licence history' });
  await expect(history.getByRole('row').nth(1)).toContainText('Unlicensed → Active');
  await expect(history.getByRole('row').nth(1)).toContainText('Payment');
  await expectAccessible(page);

  // Exempt it by keyboard: a kind, a reason and an end date; the route asks for the password first.
  await card.getByRole('button', { name: 'Exempt' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Exempt ${paid.machineNumber}` });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel('Kind').selectOption({ label: 'Loaner' });
  await dialog.getByLabel('Reason').fill('Loaner while the clinic machine is repaired');
  const until = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  await dialog.getByLabel('End date').fill(until);
  await dialog.getByLabel('End date').press('Enter');
  await confirmStepUp(page);
  await expect(page.getByText('The machine is exempt until the end date')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Exempt', { exact: true })).toBeVisible();
  await expect(card.getByText('Loaner while the clinic machine is repaired').first()).toBeVisible();
  await expect(history.getByRole('row').nth(1)).toContainText('Active → Exempt');
  await expect(history.getByRole('row').nth(1)).toContainText(e2eAdmin.email);
  await expectAccessible(page);

  // Device Management follows: the machine is Exempt in the column and the facet.
  await page.goto('/admin/device?licence=exempt');
  await expect(table.getByRole('row').filter({ hasText: paid.machineNumber })).toContainText('Exempt');
});
