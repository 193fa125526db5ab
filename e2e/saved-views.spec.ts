import type { Page } from '@playwright/test';
import { test, expect, signIn, expectAccessible, addAdminWithRole } from './support/fixtures.ts';

test.describe.configure({ timeout: 150_000 });

/** How many devices the server answers for the view's filters (offline, "germany"), once the page asks. */
async function offlineInGermany(page: Page): Promise<number> {
  const response = await page.waitForResponse(
    (r) => /\/machine\?.*online=offline/.test(r.url()) && /search=germany/.test(r.url()) && r.ok(),
  );
  return ((await response.json()) as { data: { allDevices: unknown[] } }).data.allDevices.length;
}

test('columns and a saved view (its filters and columns) follow the admin to another browser after signing out', async ({
  page,
  browser,
  request,
}) => {
  // An admin of their own, so no other spec's choices are in the way.
  const admin = await addAdminWithRole(request, 'Support');
  await signIn(page, admin);
  await page.goto('/admin/device');
  const table = page.getByRole('table', { name: 'Devices' });
  await expect(table.getByRole('columnheader', { name: 'Location' })).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Location' }).click();
  await expect(table.getByRole('columnheader', { name: 'Location' })).toBeHidden();
  await page.keyboard.press('Escape');

  // Filters in the URL, then saved as a shared view.
  await page.getByLabel('Search devices').fill('germany');
  await expect(page).toHaveURL(/search=germany/);
  // Count the rows of the filtered answer, not of the list still on screen before it arrives.
  const filtered = offlineInGermany(page);
  await page.getByRole('combobox', { name: 'Online' }).selectOption({ label: 'Offline' });
  await expect(page).toHaveURL(/online=offline/);
  const found = await filtered;
  expect(found).toBeGreaterThan(0);
  await expect(table.getByRole('row')).toHaveCount(found + 1);
  // A name of this run's own: shared views of an earlier run (--repeat-each) stay on the server.
  const name = `Offline in Germany ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('button', { name: 'Save current view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save View' });
  await dialog.getByRole('button', { name: 'Save View' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Share with every admin').check();
  await dialog.getByRole('button', { name: 'Save View' }).click();
  await expect(page.getByText('View saved')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.locator('.profile-button').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login-admin$/);

  // Another browser: nothing of the first one's storage, only the server's.
  const other = await browser.newContext();
  const second = await other.newPage();
  try {
    await signIn(second, admin);
    await second.goto('/admin/device');
    const again = second.getByRole('table', { name: 'Devices' });
    await expect(again.getByRole('columnheader', { name: 'Serial Number' })).toBeVisible();
    await expect(again.getByRole('columnheader', { name: 'Location' })).toBeHidden();
    // Shown again here; the view brings back the columns it was saved with.
    await second.getByRole('button', { name: 'Columns' }).click();
    await second.getByRole('checkbox', { name: 'Location' }).click();
    await expect(again.getByRole('columnheader', { name: 'Location' })).toBeVisible();
    await second.keyboard.press('Escape');
    await second.getByRole('button', { name: 'Views' }).click();
    const saved = second.getByRole('list', { name: 'Saved views' });
    await expect(saved.getByRole('link', { name })).toBeVisible();
    await expectAccessible(second);
    // Online means seen in the last 15 minutes, so a seeded machine can go offline between the two
    // browsers: count against the server's answer to the view's filters, not the first count.
    const refiltered = offlineInGermany(second);
    await saved.getByRole('link', { name }).click();
    await expect(second).toHaveURL(/search=germany/);
    await expect(second).toHaveURL(/online=offline/);
    await expect(second.getByLabel('Search devices')).toHaveValue('germany');
    await expect(again.getByRole('columnheader', { name: 'Location' })).toBeHidden();
    await expect(second).not.toHaveURL(/columns=/);
    const viewed = await refiltered;
    expect(viewed).toBeGreaterThan(0);
    await expect(again.getByRole('row')).toHaveCount(viewed + 1);
  } finally {
    await other.close();
  }

  // Shared: the first admin sees it too, named by who saved it, and cannot delete it.
  await signIn(page);
  await page.goto('/admin/device');
  await page.getByRole('button', { name: 'Views' }).click();
  await expect(
    page.getByRole('link', { name: `${name} (shared by ${admin.email.split('@')[0]})` }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: `Delete view ${name}` })).toHaveCount(0);
});
