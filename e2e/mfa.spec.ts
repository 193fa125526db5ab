import type { Page } from '@playwright/test';
import { base32Decode, totp } from '../apps/api/src/lib/totp.ts';
import { test, expect, signIn, expectAccessible, e2eAdmin } from './support/fixtures.ts';

/**
 * Two-step sign-in end to end. Other specs sign in as the e2e admin without a code, so this one
 * enrols an admin of its own, created through the API.
 */
const user = { email: `two-step-${Date.now()}@example.com`, password: 'Two-Step-Passw0rd' };
/** The code for the next 30-second step: the server accepts one step ahead, and it is never the step just used. */
const nextCode = (secret: Buffer) => totp(secret, Date.now() + 30_000);

test.describe.configure({ mode: 'serial' });

async function signInWithPassword(page: Page) {
  await page.goto('/login-admin');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.keyboard.press('Enter');
}

let secret: Buffer;
let recoveryCodes: string[] = [];
let userId = '';

test.beforeAll(async ({ request }) => {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  // Adding an admin needs the acting admin's password confirmed first (decision 046).
  const stepUp = await request.post('/api/v1/admin/profile/step-up', {
    headers,
    data: { password: e2eAdmin.password },
  });
  expect(stepUp.ok(), await stepUp.text()).toBe(true);
  const roles = await request.get('/api/v1/admin/roles/all', { headers });
  const adminRole = ((await roles.json()).data.roles as { _id: string; type: string }[]).find(
    (r) => r.type === 'admin',
  );
  const created = await request.post('/api/v1/admin/users/', {
    headers,
    data: {
      firstName: 'Two',
      lastName: 'Step',
      roleId: adminRole!._id,
      userName: user.email.split('@')[0],
      email: user.email,
      phone: '5551234567',
      password: user.password,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  userId = (await created.json()).data._id as string;
});

test('enrols from the profile with the manual key, sees the recovery codes once, and signs out', async ({
  page,
}) => {
  await signIn(page, user);
  await page.goto('/admin/profile');
  const card = page.getByRole('region', { name: 'Two-step sign-in' });
  await card.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  await expect(card.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const key = (await card.getByTestId('mfa-manual-key').textContent())!;
  secret = base32Decode(key);
  await expectAccessible(page);

  const code = card.getByLabel('Code from the app');
  await code.fill('000000' === nextCode(secret) ? '111111' : '000000');
  await code.press('Enter');
  await expect(card.getByText('Invalid or expired code')).toBeVisible();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await code.fill(totp(secret, Date.now()));
  await card.getByRole('button', { name: 'Turn on' }).click();

  const list = card.getByTestId('mfa-recovery-codes').locator('li');
  await expect(list).toHaveCount(10);
  recoveryCodes = await list.allTextContents();
  await expectAccessible(page);
  await card.getByRole('button', { name: 'Done' }).click();
  await expect(card.getByText('10 of 10 recovery codes left.')).toBeVisible();

  await page.locator('.profile-button').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login-admin$/);
});

test('signs back in with the password and then a code from the app', async ({ page }) => {
  await signInWithPassword(page);
  // The password alone no longer opens the console: the code step is shown instead.
  await expect(page).toHaveURL(/\/login-admin$/);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  expect((await page.evaluate(() => localStorage.getItem('auth'))) ?? '').not.toContain('"token"');

  await code.fill('12345');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Invalid or expired code')).toBeVisible();
  await expectAccessible(page);

  await code.fill(nextCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test('signs in with a recovery code by keyboard, once', async ({ page }) => {
  await signInWithPassword(page);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  await page.keyboard.type(recoveryCodes[0]!);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  await page.goto('/admin/profile');
  await expect(page.getByText('9 of 10 recovery codes left.')).toBeVisible();
});

test("an admin resets the lost two-step sign-in from the user's page, by keyboard; the user then signs in with the password", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`/admin/view-user/${userId}`);
  const card = page.getByRole('region', { name: 'Two-step sign-in' });
  await expect(card.getByText('9 of 10 recovery codes left.')).toBeVisible();
  await card.getByRole('button', { name: 'Reset two-step sign-in' }).focus();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Reset two-step sign-in' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Reset' })).toBeFocused();
  await page.keyboard.press('Enter');

  // The admin's own password, asked by the step-up (decision 046), never the user's.
  const stepUp = page.getByRole('dialog', { name: 'Confirm your password to continue' });
  const password = stepUp.getByLabel('Your password');
  await expect(password).toBeFocused();
  await page.keyboard.type('not-my-password');
  await page.keyboard.press('Enter');
  await expect(stepUp.getByText('Password is incorrect')).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);

  await password.fill(e2eAdmin.password);
  await page.keyboard.press('Enter');
  await expect(stepUp).toBeHidden();
  await expect(
    page.getByText('Two-step sign-in was reset. The user signs in with the password and sets it up again.'),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Off. Sign-in asks this user only for the password.')).toBeVisible();

  await page.locator('.profile-button').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await signInWithPassword(page);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});
