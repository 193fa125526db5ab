import { randomBytes } from 'node:crypto';
import { expect, expectAccessible, test } from './support/fixtures.ts';
import { clinicServer } from './support/clinic-server.ts';

/*
 * Issue 39 item 3 (decision 088): the supplier's admin invites a clinic's manager; the mail (read from
 * a real SMTP peer: the invitation is a secret, the Outbox masks it) links to /invite/{token}, where
 * the manager sets a password; they sign in on the console's sign-in page and land in the clinic
 * portal, invite a colleague, who accepts and signs in as staff; a clinic user sent to /admin/device
 * is taken back to /clinic. Axe on each screen. A server of its own, for the SMTP peer.
 */
const admin = { email: 'clinic-admin@example.com', password: 'Clinic-Admin-Passw0rd' };
const { baseURL, adminHeaders, invitationLink } = clinicServer({
  name: 'clinic-users',
  portOffset: 42,
  admin,
});
const password = 'Clinic-Passw0rd!';

test.describe.configure({ mode: 'serial', timeout: 300_000 });
test.use({ baseURL });

test('an admin invites a clinic manager, who joins and invites a colleague; clinic users stay in the portal', async ({
  page,
  browser,
  request,
}) => {
  const tag = randomBytes(4).toString('hex');
  const clinicName = `Clinique ${tag}`;
  const manager = `manager.${tag}@clinic.example`;
  const colleague = `staff.${tag}@clinic.example`;

  // The supplier's admin adds the clinic and invites its manager.
  const headers = await adminHeaders(request);
  const customer = await request.post('/api/v1/admin/customers', {
    headers,
    data: { name: clinicName, country: 'France' },
  });
  expect(customer.status(), await customer.text()).toBe(201);
  const customerId = (await customer.json()).data._id as string;
  const invited = await request.post(`/api/v1/admin/customers/${customerId}/invitations`, {
    headers,
    data: { email: manager },
  });
  expect(invited.status(), await invited.text()).toBe(201);

  // The manager opens the mailed link and sets a password.
  await page.goto(await invitationLink(manager));
  await expect(page.getByRole('heading', { level: 1, name: `Join ${clinicName}` })).toBeVisible();
  await expect(page.getByText(`invited as manager of ${clinicName}`)).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('First Name').fill('Mia');
  await page.getByLabel('Last Name').fill('Manager');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByRole('button', { name: 'Set up two-step sign-in' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Not now, open the portal' }).click();
  await expect(page).toHaveURL(/\/clinic$/);
  await expect(page.getByTestId('clinic-name')).toHaveText(clinicName);

  // The same link again says it was used.
  const used = await page.context().newPage();
  await used.goto(await invitationLink(manager));
  await expect(used.getByRole('alert')).toHaveText(
    'This invitation has already been used. Sign in with your email and password.',
  );
  await used.close();

  // Signed out, the manager signs in on the console's sign-in page and lands in the portal.
  await page.getByRole('button', { name: 'Mia Manager' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login-admin$/);
  await page.getByLabel('Email').fill(manager);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/clinic$/);
  await expect(page.getByRole('heading', { level: 1, name: clinicName })).toBeVisible();
  await expectAccessible(page);

  // Users: the manager invites a colleague.
  await page.getByRole('navigation', { name: 'Clinic portal' }).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/clinic\/users$/);
  await expect(page.getByRole('table', { name: 'Clinic users' }).getByText(manager)).toBeVisible();
  await page.getByRole('button', { name: 'Invite a colleague' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a colleague' });
  await dialog.getByLabel('Email').fill(colleague);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: 'Waiting invitations' }).getByText(colleague)).toBeVisible();
  await expectAccessible(page);

  // The colleague, in a browser of their own, accepts and is staff: no Users in their portal.
  const other = await browser.newContext({ baseURL });
  const staff = await other.newPage();
  await staff.goto(await invitationLink(colleague));
  await expect(staff.getByText(`invited as staff of ${clinicName}`)).toBeVisible();
  await staff.getByLabel('First Name').fill('Sam');
  await staff.getByLabel('Last Name').fill('Staff');
  await staff.getByLabel('Password', { exact: true }).fill(password);
  await staff.getByLabel('Confirm Password').fill(password);
  await staff.getByRole('button', { name: 'Set password and sign in' }).click();
  await staff.getByRole('button', { name: 'Not now, open the portal' }).click();
  await expect(staff).toHaveURL(/\/clinic$/);
  await expect(staff.getByText(`You are signed in as staff of ${clinicName}.`)).toBeVisible();
  await expect(
    staff.getByRole('navigation', { name: 'Clinic portal' }).getByRole('link', { name: 'Users' }),
  ).toHaveCount(0);

  // A clinic user sent to the console is taken back to the portal.
  await staff.goto('/admin/device');
  await expect(staff).toHaveURL(/\/clinic$/);
  await expect(staff.getByTestId('clinic-name')).toHaveText(clinicName);
  await expectAccessible(staff);

  // Signing in again as staff lands in the portal too.
  await staff.getByRole('button', { name: 'Sam Staff' }).click();
  await staff.getByRole('button', { name: 'Sign out' }).click();
  await expect(staff).toHaveURL(/\/login-admin$/);
  await staff.getByLabel('Email').fill(colleague);
  await staff.getByLabel('Password', { exact: true }).fill(password);
  await staff.getByRole('button', { name: /sign in/i }).click();
  await expect(staff).toHaveURL(/\/clinic$/);
  await other.close();

  // The manager sees the colleague among the clinic's users now.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Clinic users' }).getByText(colleague)).toBeVisible();
});
