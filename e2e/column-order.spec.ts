import { test, expect, signIn, expectAccessible, addAdminWithRole } from './support/fixtures.ts';

test.describe.configure({ timeout: 150_000 });

test('a column moved by keyboard and a page size follow the admin to another browser after signing out', async ({
  page,
  browser,
  request,
}) => {
  // An admin of their own (the Auditor reads the logs), so no other spec's choices are in the way.
  const admin = await addAdminWithRole(request, 'Auditor');
  await signIn(page, admin);
  await page.goto('/admin/logs-management');
  const table = page.getByRole('table', { name: 'Access logs' });
  const headers = table.getByRole('columnheader');
  await expect(headers).toHaveText(['Sr No', 'Resource', 'What Happened', 'Location', 'User', 'Time']);

  await page.getByRole('button', { name: 'Columns' }).click();
  const up = page.getByRole('button', { name: 'Move Time up' });
  await up.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Time moved to position 4 of 5.')).toBeAttached();
  await expect(up).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Time moved to position 3 of 5.')).toBeAttached();
  await expect(up).toBeFocused();
  await expect(headers).toHaveText(['Sr No', 'Resource', 'What Happened', 'Time', 'Location', 'User']);
  // Moving down moves the row's own element: focus must stay on it all the same.
  const down = page.getByRole('button', { name: 'Move Location down' });
  await down.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('Location moved to position 5 of 5.')).toBeAttached();
  await expect(down).toBeFocused();
  await expect(down).toHaveAttribute('aria-disabled', 'true');
  await expect(headers).toHaveText(['Sr No', 'Resource', 'What Happened', 'Time', 'User', 'Location']);
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Columns' })).toBeFocused();

  const kept = page.waitForResponse((r) => r.url().includes('/preferences/lists/logs') && r.ok());
  await page.getByLabel('Rows per page').selectOption('25');
  await kept;

  await page.locator('.profile-button').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login-admin$/);

  // Another browser: nothing of the first one's storage, only the server's.
  const other = await browser.newContext();
  const second = await other.newPage();
  try {
    await signIn(second, admin);
    const firstList = second.waitForResponse((r) => r.url().includes('/access-logs/all') && r.ok());
    await second.goto('/admin/logs-management');
    // The first request already asks for the kept size.
    expect(new URL((await firstList).url()).searchParams.get('limit')).toBe('25');
    await expect(second.getByLabel('Rows per page')).toHaveValue('25');
    const again = second.getByRole('table', { name: 'Access logs' });
    await expect(again.getByRole('columnheader')).toHaveText([
      'Sr No',
      'Resource',
      'What Happened',
      'Time',
      'User',
      'Location',
    ]);
    await expectAccessible(second);
  } finally {
    await other.close();
  }
});
