import { test, expect, signIn, expectAccessible, e2eAdmin, confirmStepUp } from './support/fixtures.ts';

test('an admin adds, views, renames and deletes a role, and cannot delete a role in use', async ({
  page,
}) => {
  test.slow();
  await signIn(page);
  await page.goto('/admin/roles');
  await expect(page.getByRole('heading', { name: 'Roles', exact: true })).toBeVisible();
  await expect(
    page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Technician', exact: true }) }),
  ).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Add Role' }).click();
  const add = page.getByRole('dialog', { name: 'Add Role' });
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add.getByText('Role Name is required')).toBeVisible();
  await expect(add.getByText('Type is required')).toBeVisible();
  await expectAccessible(page);
  const name = `QA ${Date.now().toString().slice(-6)}`;
  await add.getByLabel('Role Name').fill(name);
  await add.getByLabel('Type').selectOption({ label: 'Web' });
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Role created successfully')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();

  // A second role with the same name, in another case, is refused under the field.
  await page.getByRole('button', { name: 'Add Role' }).click();
  await add.getByLabel('Role Name').fill(name.toLowerCase());
  await add.getByLabel('Type').selectOption({ label: 'App' });
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add.getByText('A role with this name already exists')).toBeVisible();
  await add.getByRole('button', { name: 'Cancel' }).click();

  // Toasts fade out before the detail page is checked (a fading toast fails the contrast rule).
  await expect(page.getByText('Role created successfully')).toBeHidden({ timeout: 15_000 });
  await row.getByRole('link', { name: `View ${name}` }).click();
  await expect(page.getByRole('heading', { name: 'Role Details' })).toBeVisible();
  await expect(page.getByText('Role Id')).toBeVisible();
  // Scoped to the details: the History below says the name again.
  await expect(page.getByRole('region', { name: 'Role Details' }).getByText(name)).toBeVisible();
  await expect(page.getByText('Create Time')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/admin\/roles$/);
  // Back opens the first page; roles list oldest first, and other specs' roles may have pushed this
  // one past it: one page of 100 (a link, so the admin's kept page size is left alone).
  await page.goto('/admin/roles?limit=100');

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Role' });
  await expect(edit.getByLabel('Role Name')).toHaveValue(name);
  await edit.getByLabel('Role Name').fill(`${name} Team`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Role updated successfully')).toBeVisible();
  const renamed = page.getByRole('row').filter({ hasText: `${name} Team` });
  await expect(renamed).toBeVisible();

  // The Admin role is held by the first admin: the server's msg says so, before any password
  // prompt, and the row stays.
  const adminRole = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'Admin', exact: true }) });
  await adminRole.getByRole('button', { name: 'Delete Admin' }).click();
  await page.getByRole('dialog', { name: 'Remove Data' }).getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText(/This role is assigned to \d+ users? and cannot be deleted/)).toBeVisible();
  await expect(adminRole).toBeVisible();

  await renamed.getByRole('button', { name: `Delete ${name} Team` }).click();
  await page.getByRole('dialog', { name: 'Remove Data' }).getByRole('button', { name: 'Yes' }).click();
  // Deleting a role asks for the password first (decision 063).
  await confirmStepUp(page);
  await expect(page.getByText('Role deleted successfully')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `${name} Team` })).toHaveCount(0);
});

test("Admin Logs shows the admin's own actions, and one search filters both tabs", async ({ page }) => {
  test.slow();
  await signIn(page);
  // Something of ours to find: the roles list read, and a refused edit of a role that does not exist.
  await page.goto('/admin/roles');
  await expect(
    page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Technician', exact: true }) }),
  ).toBeVisible();
  await page.goto('/admin/view-role/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Role not found').first()).toBeVisible();

  await page.goto('/admin/logs-management');
  await expect(page.getByRole('heading', { name: 'Admin Logs' })).toBeVisible();
  const accessTab = page.getByRole('tab', { name: 'Access Logs List' });
  await expect(accessTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('table', { name: 'Access logs' }).getByRole('row').nth(1)).toBeVisible();
  await expectAccessible(page);

  const search = page.getByLabel('Search logs');
  await search.fill('roles/all');
  const mine = page
    .getByRole('row')
    .filter({ hasText: 'GET /api/v1/admin/roles/all' })
    .filter({ hasText: e2eAdmin.email });
  await expect(mine.first()).toBeVisible();
  await expect(page.getByText(/Page 1 of \d+/)).toBeVisible();

  await search.fill('no-such-log-anywhere');
  await expect(page.getByText('No Access Logs found.')).toBeVisible();
  await page.getByRole('tab', { name: 'Error Logs List' }).click();
  await expect(page.getByText('No Error Logs found.')).toBeVisible();

  await search.fill('roles/:id');
  const refused = page.getByRole('row').filter({ hasText: 'GET /api/v1/admin/roles/:id' });
  await expect(refused.first()).toContainText('getRole');
  await expect(refused.first()).toContainText('Role not found');
  await expectAccessible(page);

  // The pager offers 10 and 25 rows.
  await search.fill('');
  await expect(page.getByText('Page 1 of 1', { exact: true })).toBeHidden();
  const sizes = page.getByLabel('Rows per page');
  await expect(sizes.locator('option')).toHaveText(['10', '25']);
  await sizes.selectOption('25');
  await expect(page.getByRole('table', { name: 'Error logs' }).getByRole('row')).toHaveCount(26);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(/Page 2 of \d+/)).toBeVisible();
});
