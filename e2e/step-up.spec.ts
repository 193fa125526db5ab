import { test, expect, signIn, expectAccessible, addAdminWithRole, e2eAdmin } from './support/fixtures.ts';

/*
 * Step-up (issue 15 item 4, decision 046) end to end: the first admin changes a role's permissions on
 * Role Details, the console asks for the password before the change goes through, and the other
 * admin holding that role gets the new permission on their very next request. The role is made for
 * this test, so the demo roles other specs rely on stay as they are.
 */
test("a role's permissions changed with a step-up take effect on the other admin's next request", async ({
  page,
  request,
}) => {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const admin = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  // Its name becomes part of the other admin's email: letters and digits only.
  const roleName = `StepUp${Date.now().toString(36)}`;
  const role = await request.post('/api/v1/admin/roles', {
    headers: admin,
    data: { roleName, type: 'admin', permissions: ['devices.view'] },
  });
  expect(role.status(), await role.text()).toBe(201);
  const roleId = (await role.json()).data._id as string;

  const other = await addAdminWithRole(request, roleName);
  const otherLogin = await request.post('/api/v1/admin/login', { data: other });
  const otherHeaders = { authorization: `Bearer ${(await otherLogin.json()).data.accessToken as string}` };
  const readLogs = () => request.get('/api/v1/admin/access-logs/all', { headers: otherHeaders });
  expect((await readLogs()).status()).toBe(403);

  await signIn(page);
  await page.goto(`/admin/view-role/${roleId}`);
  const card = page.getByRole('region', { name: 'Permissions' });
  await card.getByRole('checkbox', { name: 'logs.view' }).check();
  await card.getByRole('button', { name: 'Save permissions' }).click();

  const stepUp = page.getByRole('dialog', { name: 'Confirm your password to continue' });
  const password = stepUp.getByLabel('Your password');
  await expect(password).toBeFocused();
  await expect(stepUp.getByLabel('Your code')).toHaveCount(0);
  await expectAccessible(page);
  // Nothing changed while the password is not confirmed.
  expect((await readLogs()).status()).toBe(403);

  await page.keyboard.type('not-my-password');
  await page.keyboard.press('Enter');
  await expect(stepUp.getByText('Password is incorrect')).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toBeFocused();
  await password.fill(e2eAdmin.password);
  await page.keyboard.press('Enter');
  await expect(stepUp).toBeHidden();
  await expect(page.getByText('Role updated successfully')).toBeVisible();
  await expect(card.getByRole('checkbox', { name: 'logs.view' })).toBeChecked();

  // The other admin's session lives on, and its next request has the new permission.
  expect((await readLogs()).status()).toBe(200);

  // Within 5 minutes no second prompt: taking it away again goes straight through.
  await card.getByRole('checkbox', { name: 'logs.view' }).uncheck();
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`/api/v1/admin/roles/${roleId}`) && r.request().method() === 'PUT',
  );
  await card.getByRole('button', { name: 'Save permissions' }).click();
  expect((await saved).status()).toBe(200);
  await expect(stepUp).toHaveCount(0);
  expect((await readLogs()).status()).toBe(403);
});
