import { test, expect, signIn, expectAccessible, addAdminWithRole, e2eAdmin } from './support/fixtures.ts';

// Decision 047: the console offers what the admin's role carries. A Support admin (machines and
// subscriptions: no users, no health data, no logs) is shown no Users item, and a typed users URL
// shows the no-access page without asking for the users; Role Details shows the role's permissions.

test('a Support admin sees no User Management and gets the no-access page on its URL', async ({
  page,
  request,
}) => {
  await signIn(page, await addAdminWithRole(request, 'Support'));
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  await expect(sidebar.getByRole('link', { name: 'Device Management' })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Subscription' })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'User Management' })).toHaveCount(0);
  await expect(sidebar.getByRole('link', { name: 'Admin Logs' })).toHaveCount(0);

  const usersAsked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/v1/admin/users')) usersAsked.push(r.url());
  });
  await page.goto('/admin/user-management');
  await expect(page.getByRole('heading', { name: 'You do not have access', level: 1 })).toBeVisible();
  await expect(
    page.getByText(
      'This screen needs the permission "users.manage", which your role does not carry: see, add, edit and delete console and app users, and assign their machines.',
    ),
  ).toBeVisible();
  // Inside the console, not an error screen.
  await expect(sidebar).toBeVisible();
  await expectAccessible(page);
  expect(usersAsked).toEqual([]);

  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test("Role Details shows the Support role's permissions, editable by the first admin", async ({
  page,
  request,
}) => {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const roles = (await (await request.get('/api/v1/admin/roles/all', { headers })).json()).data.roles as {
    _id: string;
    roleName: string;
  }[];
  const support = roles.find((r) => r.roleName === 'Support')!;

  await signIn(page);
  await page.goto(`/admin/view-role/${support._id}`);
  await expect(page.getByRole('heading', { name: 'Role Details', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
  const card = page.getByRole('region', { name: 'Permissions' });
  const devices = card.getByRole('group', { name: 'Devices' });
  await expect(devices.getByRole('checkbox', { name: 'devices.view' })).toBeChecked();
  await expect(
    card.getByRole('group', { name: 'Users and roles' }).getByRole('checkbox', { name: 'users.manage' }),
  ).not.toBeChecked();
  await expect(card.getByRole('button', { name: 'Save permissions' })).toBeDisabled();

  // By keyboard alone: a box ticks with Space and Save becomes available.
  await card.getByRole('checkbox', { name: 'logs.view' }).focus();
  await page.keyboard.press('Space');
  await expect(card.getByRole('checkbox', { name: 'logs.view' })).toBeChecked();
  await expect(card.getByRole('button', { name: 'Save permissions' })).toBeEnabled();
  await page.keyboard.press('Space');
  await expect(card.getByRole('button', { name: 'Save permissions' })).toBeDisabled();
  // The after-test check runs axe on this page with the card shown.
});

test('a Support admin sees the roles and their permissions read-only: no Add Role, Edit or Delete', async ({
  page,
  request,
}) => {
  await signIn(page, await addAdminWithRole(request, 'Support'));
  await page.goto('/admin/roles');
  await expect(page.getByRole('link', { name: 'View Support' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Role' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit Support' })).toHaveCount(0);
  await page.getByRole('link', { name: 'View Support' }).click();
  const card = page.getByRole('region', { name: 'Permissions' });
  await expect(card.getByRole('heading', { name: 'Devices', level: 3 })).toBeVisible();
  await expect(card.getByRole('checkbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
});
