import { addAdminWithRole, expect, signIn, test } from './support/fixtures.ts';

/*
 * Issue 35 item 7: on a 1280 px window, every list shows its chosen columns without scrolling
 * sideways, its actions in view; a long text is cut to one line, and its whole text shows on hover
 * and on keyboard focus.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const lists = [
  { path: '/admin/device', table: 'Devices' },
  { path: '/admin/roles', table: 'Roles' },
  { path: '/admin/logs-management', table: 'Access logs' },
  { path: '/admin/user-management', table: 'Users' },
  { path: '/admin/customers', table: 'Customers' },
  { path: '/admin/subscription-management', table: 'Subscriptions' },
  { path: '/admin/app-update', table: 'App updates' },
  { path: '/admin/alarms', table: 'Open alarms' },
  { path: '/admin/treatments', table: 'Treatment records' },
  { path: '/admin/outbox', table: 'Messages' },
  { path: '/admin/jobs', table: 'Periodic jobs' },
];

test('every list fits a 1280 px window with its default columns, its actions in view', async ({
  page,
  request,
}) => {
  // Eleven lists, each loaded and measured: past the default minute on a busy host.
  test.slow();
  // An admin of their own: no other spec's column choices are in the way.
  await signIn(page, await addAdminWithRole(request, 'Admin'));
  for (const { path, table } of lists) {
    await page.goto(path);
    const grid = page.getByRole('table', { name: table });
    // A row, or the list's empty text: the columns have their widths.
    await expect(grid.locator('tbody tr').first()).toBeVisible();
    await expect(grid.locator('.spinner-border')).toHaveCount(0);
    const region = page.getByRole('region', { name: table });
    const { scrollWidth, clientWidth } = await region.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth, `${path}: the table is wider than its box`).toBeLessThanOrEqual(clientWidth);
    const lastHeader = await grid.locator('thead th').last().boundingBox();
    expect(lastHeader!.x + lastHeader!.width, `${path}: the last column ends off screen`).toBeLessThanOrEqual(
      1280,
    );
  }
});

test('a cut text shows whole on hover and on keyboard focus, and Escape hides it', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/app-update');
  const grid = page.getByRole('table', { name: 'App updates' });
  // The demo data's "New technician app" is longer than the Remark column's 9em.
  const remark = grid.getByText('New technician app', { exact: true });
  await expect(remark).toBeVisible();
  await expect(remark).toHaveAttribute('tabindex', '0');
  expect(await remark.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  const bubble = page.locator('.truncated-text-bubble');

  await remark.hover();
  await expect(bubble).toHaveText('New technician app');
  await page.mouse.move(0, 0);
  await expect(bubble).toHaveCount(0);

  // Focus, as the keyboard gives it (a cut text is a tab stop), shows it whole.
  await remark.focus();
  await expect(bubble).toHaveText('New technician app');
  await page.keyboard.press('Escape');
  await expect(bubble).toHaveCount(0);
  await expect(remark).toBeFocused();
  // A text that is not cut is no tab stop.
  await expect(grid.getByText('Bug fixes', { exact: true })).not.toHaveAttribute('tabindex', '0');
});
