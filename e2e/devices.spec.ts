import { test, expect, signIn, expectAccessible, openFirstPatient } from './support/fixtures.ts';

// Serial: the later tests open the device the first one adds. Generous time: CI machines are small.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const tag = `${Date.now().toString(36).slice(-5)}`.toUpperCase();
const machineNumber = `E2E-${tag}`;
const serialNumber = `SN-E2E-${tag}`;

test('adds a device, finds it, sorts, changes its status and edits it', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/device');
  await expect(page.getByRole('heading', { name: 'Device Management' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Devices' }).getByRole('row')).toHaveCount(11);
  await expectAccessible(page);

  // The form's own messages, before anything is sent.
  await page.getByRole('button', { name: 'Add New Device' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Device' });
  await dialog.getByRole('button', { name: 'Add Device' }).click();
  await expect(dialog.getByText('Machine number is required')).toBeVisible();
  await expect(dialog.getByText('Address is required')).toBeVisible();
  await dialog.getByLabel('Latitude').fill('north');
  await dialog.getByRole('button', { name: 'Add Device' }).click();
  await expect(dialog.getByText('Latitude must be a number')).toBeVisible();
  await expectAccessible(page);

  await dialog.getByLabel('Machine Number').fill(machineNumber);
  await dialog.getByLabel('Serial Number').fill(serialNumber);
  await dialog.getByLabel('Location').fill('E2E Test Clinic');
  await dialog.getByLabel('City').fill('Lisbon');
  await dialog.getByLabel('Latitude').fill('38.7223');
  await dialog.getByLabel('Longitude').fill('-9.1393');
  await dialog.getByLabel('Country').fill('Portugal');
  await dialog.getByLabel('Address').fill('1 Rua Augusta, Lisbon');
  await dialog.getByRole('button', { name: 'Add Device' }).click();
  await expect(page.getByText('Device added')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Search is debounced, lands in the URL and survives a reload.
  await page.getByLabel('Search devices').fill(machineNumber.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`search=${machineNumber.toLowerCase()}`));
  const table = page.getByRole('table', { name: 'Devices' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('cell', { name: machineNumber, exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Search devices')).toHaveValue(machineNumber.toLowerCase());
  await expect(table.getByRole('cell', { name: serialNumber, exact: true })).toBeVisible();

  // Status from the row's select.
  await table.getByLabel(`Status of ${machineNumber}`).selectOption({ label: 'Inactive' });
  await expect(page.getByText('Status updated successfully!')).toBeVisible();
  await expect(table.getByLabel(`Status of ${machineNumber}`)).toHaveValue('1');

  // Edit: machine and serial number are read-only.
  await table.getByRole('button', { name: `Edit ${machineNumber}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Device' });
  await expect(edit.getByLabel('Machine Number')).toHaveAttribute('readonly', '');
  await expect(edit.getByLabel('Serial Number')).toHaveAttribute('readonly', '');
  await expect(edit.getByLabel('Machine Number')).toHaveValue(machineNumber);
  await edit.getByLabel('City').fill('Porto');
  await edit.getByRole('button', { name: 'Update Device' }).click();
  await expect(page.getByText('Device updated successfully')).toBeVisible();
  await expect(edit).toBeHidden();

  // Sorting: a new column starts ascending, the same column flips; the URL keeps it.
  await page.getByLabel('Search devices').fill('');
  await expect(page).not.toHaveURL(/search=/);
  await page.getByRole('button', { name: 'Machine Number' }).click();
  await expect(page).toHaveURL(/sort=machineNumber&direction=asc/);
  await expect(page.getByRole('columnheader', { name: 'Machine Number' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await page.getByRole('button', { name: 'Machine Number' }).click();
  await expect(page).toHaveURL(/direction=desc/);
  await expect(page.getByRole('columnheader', { name: 'Machine Number' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );

  // Pager: next page, and Back returns to page 1.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
  await expect(table.getByRole('cell', { name: '11', exact: true })).toBeVisible();
  await page.goBack();
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
});

test('opens a new device and shows every empty text', async ({ page }) => {
  await signIn(page);
  await page.goto(`/admin/device?search=${machineNumber}`);
  await page.getByRole('link', { name: `View ${machineNumber}` }).click();
  await expect(page.getByRole('heading', { name: 'Device Details', level: 1 })).toBeVisible();
  const card = page.getByRole('region', { name: 'Device Details' });
  await expect(card.getByText('Porto')).toBeVisible();
  await expect(card.getByText('Inactive')).toBeVisible();
  // No subscription, and the machine has never called: Last Seen and App Version read N/A too.
  await expect(card.getByText('N/A')).toHaveCount(3);
  await expect(card.getByText('Never seen')).toBeVisible();
  await expect(page.getByText('No Doctor found.')).toBeVisible();
  await page.getByRole('tab', { name: 'Patients' }).click();
  await expect(page.getByText('No Patient found.')).toBeVisible();
  await page.getByRole('tab', { name: 'Technicians' }).click();
  await expect(page.getByText('No Technician found.')).toBeVisible();
  await expect(page.getByText('No Treatment found.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/admin\/device$/);
});

test('walks from a demo device to its doctor, a patient and a treatment', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/device?search=MN-1001');
  await page.getByRole('link', { name: 'View MN-1001' }).click();
  await expect(
    page.getByRole('region', { name: 'Device Details' }).getByText('Berlin', { exact: true }),
  ).toBeVisible();

  // A treatment with its details.
  const treatments = page.getByRole('table', { name: 'Treatment records' });
  await treatments
    .getByRole('button', { name: /^View treatment of / })
    .first()
    .click();
  const modal = page.getByRole('dialog', { name: 'Treatment Details' });
  await expect(modal.getByText('Treatment Plan')).toBeVisible();
  await expect(modal.getByText('Total Energy Output')).toBeVisible();
  await expectAccessible(page);
  await modal.getByRole('button', { name: 'Close' }).click();

  // A doctor of the device, with the device in the breadcrumbs.
  await page
    .getByRole('table', { name: 'Doctors' })
    .getByRole('link', { name: /^View dr\./ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/admin\/view-doctor\//);
  await expect(page.getByRole('heading', { name: 'Doctor Details', level: 1 })).toBeVisible();
  for (const label of [
    'Doctor ID',
    'User Name',
    'Email',
    'Phone Number',
    'Created Time',
    'Status',
    'Address',
  ]) {
    await expect(
      page.getByRole('region', { name: 'Doctor Details' }).getByText(label, { exact: true }),
    ).toBeVisible();
  }
  await expect(page.getByRole('region', { name: 'Patient And Treatment Details' })).toBeVisible();
  await page.getByRole('tab', { name: 'Treatment List' }).click();
  await expect(page.getByRole('region', { name: 'Logs Details' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Device View' }).click();
  await expect(page).toHaveURL(/\/admin\/device-details\//);

  // A patient of the device.
  await openFirstPatient(page);
  for (const label of ['Patient Name', 'Email', 'Phone Number', 'Created Time']) {
    await expect(
      page.getByRole('region', { name: 'Patient Details' }).getByText(label, { exact: true }),
    ).toBeVisible();
  }
  await expect(page.getByRole('tab', { name: 'Treatment List' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Access Logs List' })).toBeVisible();
  await expectAccessible(page);
});

test("fits the whole list on a 1280 px screen, every row's buttons in view", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page);
  await page.goto('/admin/device');
  const table = page.getByRole('table', { name: 'Devices' });
  await expect(table.getByRole('row')).toHaveCount(11);
  const overflow = await table.evaluate((element) => {
    const box = element.parentElement!;
    const right = box.getBoundingClientRect().right;
    const cut = Array.from(element.querySelectorAll('tbody button, tbody a')).filter(
      (control) => control.getBoundingClientRect().right > right,
    );
    return { sideways: box.scrollWidth - box.clientWidth, cut: cut.length };
  });
  expect(overflow).toEqual({ sideways: 0, cut: 0 });
});
