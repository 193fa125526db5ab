import { randomBytes } from 'node:crypto';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 38 item 1 "Done when": an admin edits a device and sees the old and new values in its
 * History (decision 081). The device is added through the API; the edit is made on Device Details'
 * own Edit dialog, and the History section shows the changed fields, old struck through and new
 * inserted, by the admin, newest first, without a reload.
 */

test('an admin edits a device and sees the old and new values in its History', async ({ page, baseURL }) => {
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const device = await admin.addDevice({
    machineNumber: `HIS-${tag}`,
    serialNumber: `SN-HIS-${tag}`,
    location: 'History Clinic',
    latitude: 41.15,
    longitude: -8.61,
    city: 'Braga',
    country: 'Portugal',
    address: '1 Rua Nova',
  });

  await signIn(page);
  await page.goto(`/admin/device-details/${device._id}`);
  const history = page.getByRole('region', { name: 'History', exact: true });
  const table = history.getByRole('table', { name: 'Change history' });
  // The creation is the first entry: the city from no value, by this admin.
  await expect(table.getByRole('row', { name: /City/ })).toContainText('Braga');

  await page
    .getByRole('region', { name: 'Device Details', exact: true })
    .getByRole('button', { name: 'Edit' })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Device' });
  await edit.getByLabel('City').fill('Porto');
  await edit.getByLabel('Location').fill('Clinic by the river');
  await edit.getByRole('button', { name: 'Update Device' }).click();
  await expect(page.getByText('Device updated successfully')).toBeVisible();
  await expect(edit).toBeHidden();

  // Newest first: the edit's two fields, in the record's order, each old → new by the admin.
  const rows = table.getByRole('row');
  const location = rows.nth(1);
  const city = rows.nth(2);
  await expect(location).toContainText('Location');
  await expect(location.locator('del')).toHaveText('History Clinic');
  await expect(location.locator('ins')).toHaveText('Clinic by the river');
  await expect(city).toContainText('City');
  await expect(city.locator('del')).toHaveText('Braga');
  await expect(city.locator('ins')).toHaveText('Porto');
  await expect(city).toContainText(e2eAdmin.email);
  // A screen reader hears it as a change from one value to the other.
  await expect(city.getByRole('cell').nth(3)).toHaveText('From Braga → to Porto');
  await expectAccessible(page);
});
