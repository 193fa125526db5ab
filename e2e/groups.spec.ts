import { randomBytes } from 'node:crypto';
import { expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 37 item 1: the Groups screen. An admin adds a dynamic group by keyboard, gives it a
 * maintenance window and a heartbeat interval, and sees the list say so; axe on the screen and on
 * each dialog.
 */

test('an admin adds a dynamic group, sets its window and its settings, and deletes it', async ({ page }) => {
  const name = `Ward ${randomBytes(3).toString('hex')}`;
  await signIn(page);
  await page.goto('/admin/groups');
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Add group' }).focus();
  await page.keyboard.press('Enter');
  const add = page.getByRole('dialog', { name: 'Add group' });
  await add.getByLabel(/Name/).fill(name);
  await add.getByLabel(/Kind/).selectOption({ label: 'Dynamic' });
  await add.getByLabel('Country').fill('Germany');
  // A city no machine is in: its settings must not reach other specs' machines.
  await add.getByLabel('City').fill(name);
  await expectAccessible(page);
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Group created')).toBeVisible();
  await page.getByRole('searchbox').or(page.getByPlaceholder('Search')).first().fill(name);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(`Country: Germany, City: ${name}`);
  await expect(row).toContainText('None');

  await row.getByRole('button', { name: `Maintenance window of group ${name}` }).click();
  const window = page.getByRole('dialog', { name: `Maintenance window of group ${name}` });
  await window.getByLabel(/From/).fill('02:00');
  await window.getByLabel(/Until/).fill('04:00');
  await window.getByLabel(/Time zone/).selectOption('Europe/Berlin');
  await expectAccessible(page);
  await window.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('02:00–04:00 Europe/Berlin');

  await row.getByRole('button', { name: `Settings of group ${name}` }).click();
  const settings = page.getByRole('dialog', { name: `Settings of group ${name}` });
  await settings.getByRole('spinbutton', { name: 'Heartbeat interval' }).fill('60');
  await expectAccessible(page);
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(settings).toBeHidden();

  await row.getByRole('button', { name: `Delete group ${name}` }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /Yes|Delete/ })
    .click();
  await expect(page.getByText('Group deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
});
