import type { Page } from '@playwright/test';
import { addAdminWithRole, expect, signIn, test } from './support/fixtures.ts';

/*
 * Dark mode (issue 17, decision 054): picked in the profile menu by keyboard, kept on the server so
 * it follows the admin to another browser, and 'Use system setting' follows the browser. A fresh
 * admin of its own, so the other specs keep the default mode.
 */
const html = (page: Page) => page.locator('html');

test('an admin picks Dark by keyboard, and it follows them to another browser', async ({
  page,
  browser,
  request,
}) => {
  const admin = await addAdminWithRole(request, 'Support');
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page, admin);
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'light');

  const menuButton = page.locator('.profile-button');
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Profile menu' });
  const theme = menu.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('menuitemradio', { name: 'Use system setting' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  // Profile, Update Profile, Change Password, then Light, Dark.
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await expect(theme.getByRole('menuitemradio', { name: 'Dark' })).toBeFocused();
  const saved = page.waitForResponse((r) => r.url().endsWith('/preferences/color-mode') && r.ok());
  await page.keyboard.press('Enter');
  await saved;
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'dark');

  await menuButton.click();
  await expect(theme.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login-admin$/);

  // Another browser, light by its system setting and with nothing remembered: the server's Dark.
  const other = await browser.newContext({ colorScheme: 'light' });
  const second = await other.newPage();
  await signIn(second, admin);
  await expect(html(second)).toHaveAttribute('data-bs-theme', 'dark');
  await other.close();
});

test("'Use system setting' follows the browser's colour scheme as it changes", async ({ page, request }) => {
  const admin = await addAdminWithRole(request, 'Support');
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, admin);
  // The default mode is the system's.
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'dark');

  await page.locator('.profile-button').click();
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'light');

  await page.locator('.profile-button').click();
  await page.getByRole('menuitemradio', { name: 'Use system setting' }).click();
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'dark');
  // Kept after a reload, which starts in it before the server answers.
  await page.reload();
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'dark');
  await page.screenshot({ path: test.info().outputPath('dashboard-dark.png'), fullPage: true });
});
