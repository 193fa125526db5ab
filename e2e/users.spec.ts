import { test, expect, signIn, expectAccessible, e2eAdmin } from './support/fixtures.ts';

test('an admin adds a user, finds, views and edits them, cannot edit the first admin, and deletes them', async ({
  page,
}) => {
  test.slow();
  await signIn(page);
  await page.goto('/admin/user-management');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Phone No.' })).toBeVisible();
  await expectAccessible(page);

  // Every rule of docs/product.md §5.9 "User" shows under its field before anything is sent.
  await page.getByRole('button', { name: 'Add New User' }).click();
  const add = page.getByRole('dialog', { name: 'Add New User' });
  await add.getByRole('button', { name: 'Add User' }).click();
  for (const msg of [
    'First name is required',
    'Last name is required',
    'User name is required',
    'Email is required',
    'Phone number is required',
    'Role is required',
    'Password is required',
  ]) {
    await expect(add.getByText(msg)).toBeVisible();
  }
  await expectAccessible(page);

  const stamp = Date.now().toString().slice(-6);
  const userName = `grace_${stamp}`;
  await add.getByLabel('First Name').fill('Grace');
  await add.getByLabel('Last Name').fill('Hopper');
  await add.getByLabel('User Name').fill(userName);
  await add.getByLabel('Email').fill(`grace.${stamp}@example`);
  await add.getByLabel('Phone No.').fill('12345');
  await add.getByLabel('Role').selectOption({ label: 'Support' });
  await add.getByLabel('Password').fill('Grace-Passw0rd');
  await add.getByRole('button', { name: 'Add User' }).click();
  await expect(add.getByText('Invalid email format')).toBeVisible();
  await expect(add.getByText('Phone number must be 10 digits')).toBeVisible();
  await add.getByLabel('Email').fill(`grace.${stamp}@example.com`);
  await add.getByLabel('Phone No.').fill('5550001234');
  await add.getByRole('button', { name: 'Add User' }).click();
  // Support is a console role: adding an admin asks for the password first (decision 046). Cancel
  // leaves the form as it was filled.
  const stepUp = page.getByRole('dialog', { name: 'Confirm your password to continue' });
  await expect(stepUp.getByLabel('Your password')).toBeFocused();
  await expectAccessible(page);
  await stepUp.getByRole('button', { name: 'Cancel' }).click();
  await expect(stepUp).toBeHidden();
  await expect(page.getByText('Confirm your password to continue')).toBeVisible();
  await expect(add.getByLabel('User Name')).toHaveValue(userName);
  await add.getByRole('button', { name: 'Add User' }).click();
  await stepUp.getByLabel('Your password').fill('not-my-password');
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await expect(stepUp.getByText('Password is incorrect')).toBeVisible();
  await expect(stepUp.getByLabel('Your password')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await stepUp.getByLabel('Your password').fill(e2eAdmin.password);
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('User created successfully')).toBeVisible();
  await expect(add).toBeHidden();

  // Newest first: the new user is on page 1.
  const row = page.getByRole('row').filter({ hasText: userName });
  await expect(row).toContainText(`grace.${stamp}@example.com`);
  await expect(row).toContainText('5550001234');
  await expect(row).toContainText('Support');

  // The first admin cannot be edited: the pencil is disabled. Newest first, the first admin is last,
  // pages away once other specs have added users: found by the search.
  await page.getByLabel('Search users').fill(e2eAdmin.email);
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: e2eAdmin.email })
      .getByRole('button', { name: /^Edit / }),
  ).toBeDisabled();
  await page.goto('/admin/user-management');

  // The detail page.
  await row.getByRole('link', { name: `View ${userName}` }).click();
  await expect(page).toHaveURL(/\/admin\/view-user\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'User Details' })).toBeVisible();
  // Scoped to the details: the History below says the same values again.
  const details = page.getByRole('region', { name: 'User Details' });
  await expect(details.getByText('Hopper')).toBeVisible();
  await expect(details.getByText('Support')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/admin\/user-management$/);

  // Edit: no password field; the change shows in the list. Within 5 minutes of the step-up, no second prompt.
  await row.getByRole('button', { name: `Edit ${userName}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByLabel('First Name')).toHaveValue('Grace');
  await expect(edit.getByLabel('Password')).toHaveCount(0);
  await edit.getByLabel('Phone No.').fill('5550009999');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User updated successfully')).toBeVisible();
  await expect(row).toContainText('5550009999');

  // Delete with confirmation.
  await row.getByRole('button', { name: `Delete ${userName}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Data' });
  await expect(confirm.getByText('Are you sure you want to delete this?')).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'No' })).toBeVisible();
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('User deleted successfully')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: userName })).toHaveCount(0);
});

test('the server refuses to delete the first admin and says why', async ({ page }) => {
  test.slow();
  await signIn(page);
  await page.goto('/admin/user-management?limit=100');
  const adminRow = page.getByRole('row').filter({ hasText: e2eAdmin.email });
  await adminRow.getByRole('button', { name: /^Delete / }).click();
  await page.getByRole('dialog', { name: 'Remove Data' }).getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('You cannot delete your own account')).toBeVisible();
  await expect(adminRow).toBeVisible();
});
