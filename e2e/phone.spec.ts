import type { Locator, Page } from '@playwright/test';
import { test, expect, signIn, expectAccessible } from './support/fixtures.ts';

/**
 * The console 320 CSS px wide: a phone, or a desktop browser zoomed to 400 % (WCAG 1.4.10 reflow).
 * No screen may scroll sideways as a whole (a wide table scrolls inside its own box), each passes
 * axe at that width, and the rail menu works by keyboard.
 */
test.use({ viewport: { width: 320, height: 720 } });

const screens: [path: string, heading: string][] = [
  ['/admin/dashboard', 'Dashboard'],
  ['/admin/device', 'Device Management'],
  ['/admin/groups', 'Groups'],
  ['/admin/treatments', 'Treatment Records'],
  ['/admin/roles', 'Roles'],
  ['/admin/logs-management', 'Admin Logs'],
  ['/admin/user-management', 'User Management'],
  ['/admin/subscription-management', 'Subscription Management'],
  ['/admin/app-update', 'App Update'],
  ['/admin/alarms', 'Alarms'],
  ['/admin/profile', 'My Profile'],
  ['/admin/change-password', 'Change Password'],
];

test('every console screen fits 320 px without sideways page scrolling and passes axe there', async ({
  page,
}) => {
  test.slow();
  await signIn(page);
  for (const [path, heading] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    await expectAccessible(page);
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways, `${path} scrolls sideways by ${sideways} px`).toBe(0);
  }

  // A device's detail page, reached from the list as a person would.
  await page.goto('/admin/device');
  await page
    .getByRole('link', { name: /^View / })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Device Details' })).toBeVisible();
  await expectAccessible(page);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0);
});

/** Presses Tab (or Shift+Tab) until `target` has the focus, at most `limit` times, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', limit = 30) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(key);
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${key} never reached ${target.toString()}`);
}

test('on a phone the dashboard shows the operations figures first, then the four tiles', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/dashboard');
  const operations = page.getByRole('heading', { name: 'Operations', exact: true });
  const orders = page.getByRole('link', { name: /New Orders/ });
  await expect(operations).toBeInViewport();
  await expect(orders).toBeVisible();
  const [top, tile] = await Promise.all([operations.boundingBox(), orders.boundingBox()]);
  expect(tile!.y).toBeGreaterThan(top!.y);
});

test('on a phone the device list folds its filters behind a Filters button', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/device?online=offline');
  const button = page.getByRole('button', { name: 'Filters (1 set)' });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByLabel('Online', { exact: true })).toBeHidden();
  await button.click();
  await expect(page.getByLabel('Online', { exact: true })).toHaveValue('offline');
  await expectAccessible(page);
});

test('on a phone the menu takes the keyboard while it covers the page, and gives it back', async ({
  page,
}) => {
  await signIn(page);
  const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  // Opening moves focus onto the current page's link; the menu's links follow by Tab.
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeFocused();
  await expectAccessible(page);
  await tabTo(page, menu.getByRole('link', { name: 'Roles' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/roles$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Roles', exact: true })).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  // Escape closes it and puts focus back on the toggle.
  await tabTo(page, toggle, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('link', { name: 'Roles' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();

  // Tabbing out of the menu closes it: nothing focused stays hidden behind it.
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  for (let i = 0; i < 30 && (await toggle.getAttribute('aria-expanded')) === 'true'; i++)
    await page.keyboard.press('Tab');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(false);
});
