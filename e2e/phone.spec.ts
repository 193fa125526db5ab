import type { Locator, Page } from '@playwright/test';
import { test, expect, signIn, expectAccessible, e2eAdmin } from './support/fixtures.ts';

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
  ['/admin/customers', 'Customers'],
  ['/admin/subscription-management', 'Subscription Management'],
  ['/admin/app-update', 'App Update'],
  ['/admin/alarms', 'Alarms'],
  ['/admin/break-glass', 'Break-glass Review'],
  ['/admin/outbox', 'Outbox'],
  ['/admin/jobs', 'Jobs'],
  ['/admin/safety-notices', 'Field Safety Notices'],
  ['/admin/erasure-requests', 'Erasure Requests'],
  ['/admin/retention', 'Retention'],
  ['/admin/profile', 'My Profile'],
  ['/admin/change-password', 'Change Password'],
];

/** Each screen 320 px wide: no sideways page scrolling, and axe passes there. */
async function fitsAndPasses(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
  await expectAccessible(page);
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways, `${path} scrolls sideways by ${sideways} px`).toBe(0);
}

// Four parts of five, so none nears the slow timeout on a busy host (axe in both colour modes per
// screen): seven screens in one part ran out of time once the Customers screen made nineteen.
const parts = 4;
const size = Math.ceil(screens.length / parts);
for (let part = 1; part <= parts; part++) {
  const list = screens.slice((part - 1) * size, part * size);
  test(`every console screen fits 320 px without sideways page scrolling and passes axe there (part ${part} of ${parts})`, async ({
    page,
  }) => {
    test.slow();
    await signIn(page);
    for (const [path, heading] of list) await fitsAndPasses(page, path, heading);
  });
}

test('Device Details fits 320 px without sideways page scrolling and passes axe there', async ({ page }) => {
  test.slow();
  await signIn(page);
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

test("a customer's page fits 320 px without sideways page scrolling and passes axe there", async ({
  page,
  request,
}) => {
  test.slow();
  // A clinic of this run's own, holding nothing: its page with every section's empty state.
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const name = `Phone Clinic ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await request.post('/api/v1/admin/customers', {
    headers,
    data: { name, country: 'Malta' },
  });
  expect(created.status(), await created.text()).toBe(201);
  await signIn(page);
  await page.goto(`/admin/customers/${((await created.json()).data as { _id: string })._id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('This customer holds no machine now.')).toBeVisible();
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
