import { expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * The Jobs screen (issue 36 item 1) on the shared server, which runs the periodic jobs on the queue
 * in its embedded database: the alarm checks ran once at start and wait for their next period.
 */
test('an admin sees the periodic jobs with their last and next runs, and the latest runs', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Jobs' }).click();
  await expect(page).toHaveURL(/\/admin\/jobs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();

  const jobs = page.getByRole('table', { name: 'Periodic jobs' });
  const checks = jobs.getByRole('row').filter({ hasText: 'alarm checks' });
  await expect(checks).toContainText('Every 1 min');
  await expect(checks).toContainText('Succeeded');
  const runs = page.getByRole('table', { name: 'Latest runs of every job, newest first' });
  await expect(runs.getByRole('row').filter({ hasText: 'alarm checks' }).first()).toContainText('Succeeded');
  await expectAccessible(page);

  // Both tables are reached from the keyboard (each scrolls sideways on a narrow screen).
  await page.getByRole('region', { name: 'Periodic jobs' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('region', { name: 'Latest runs of every job, newest first' })).toBeFocused();
});
