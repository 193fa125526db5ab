import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildDemoApk } from '../apps/api/src/modules/app-updates/zip-writer.ts';
import { test, expect, signIn, expectAccessible, confirmStepUp } from './support/fixtures.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('adds an app update with a small APK, sees it listed and downloads it intact', async ({ page }) => {
  const appName = `com.e2e.app${Date.now() % 100000}`;
  const apk = buildDemoApk(appName, 3, 300_000);
  await signIn(page);
  await page.goto('/admin/app-update');
  await expect(page.getByRole('heading', { level: 1, name: 'App Update' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Add App Update' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add App Update' });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('App name is required')).toBeVisible();
  await expect(dialog.getByText('File is required')).toBeVisible();
  await expectAccessible(page);

  await dialog.getByLabel(/App Name/).fill(appName);
  await dialog.getByLabel(/Update Type/).selectOption({ label: 'Force' });
  await dialog.getByLabel(/Version Code/).fill('3');
  await dialog.getByLabel(/Version Name/).fill('3.0.0');
  await dialog.getByLabel(/Remark/).fill('End-to-end release');
  await dialog.getByLabel(/Update Description/).fill('Uploaded by the end-to-end test');
  await dialog.getByLabel(/APK File/).setInputFiles({
    name: 'e2e-3.0.0.apk',
    mimeType: 'application/vnd.android.package-archive',
    buffer: apk,
  });
  // Read from the file's manifest in the browser.
  await expect(dialog.getByText(`package ${appName}, version code 3`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Submit' }).click();
  // A Force update asks for the password first (decision 046); the upload is then sent again.
  await confirmStepUp(page);

  await expect(page.getByText('App update added successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: appName });
  await expect(row).toBeVisible();
  // Update Type is off until chosen (a 1280 px window fits the list without it, issue 35): shown
  // for this check, then off again for the specs after.
  const updateType = page.getByRole('checkbox', { name: /Update Type/ });
  await page.getByRole('button', { name: 'Columns' }).click();
  await updateType.check();
  await expect(row.getByRole('cell', { name: 'Force', exact: true })).toBeVisible();
  await updateType.uncheck();
  await page.keyboard.press('Escape');
  await expect(row.getByRole('cell', { name: '3.0.0', exact: true })).toBeVisible();
  // A Force update waits for a second admin (ROLLOUT_SECOND_ADMIN, on here): the admin who asked is
  // not offered Approve, and the row says why (decision 051).
  await expect(row).toContainText('Awaiting approval');
  await expect(row).toContainText('Waiting for another admin to approve');
  await expect(row.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Withdraw: ${appName} 3.0.0` })).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: `Download ${appName} 3.0.0` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('e2e-3.0.0.apk');
  const file = await download.path();
  expect(sha256(readFileSync(file))).toBe(sha256(apk));
});

test('refuses a file that is not an APK under its field, before sending it', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/app-update');
  await page.getByRole('button', { name: 'Add App Update' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add App Update' });
  await dialog.getByLabel(/App Name/).fill('com.e2e.fake');
  await dialog.getByLabel(/Update Type/).selectOption({ label: 'Flexible' });
  await dialog.getByLabel(/Version Code/).fill('1');
  await dialog.getByLabel(/Version Name/).fill('1.0.0');
  await dialog.getByLabel(/Remark/).fill('Fake');
  await dialog.getByLabel(/Update Description/).fill('A text file renamed to .apk');
  await dialog.getByLabel(/APK File/).setInputFiles({
    name: 'fake.apk',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('not an apk\n'),
  });
  // The browser reads the manifest as the file is picked (the server's refusal is the API tests').
  const error = dialog.getByText(/^The APK file has no readable AndroidManifest.xml/);
  await expect(error).toBeVisible();
  await expect(dialog.getByLabel(/APK File/)).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(error).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
