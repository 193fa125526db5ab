import { makePng } from '../apps/api/src/test/images.ts';
import { startSmtpPeer, type SmtpPeer } from '../apps/api/src/test/smtp-peer.ts';
import { test, expect, signIn, expectAccessible } from './support/fixtures.ts';
import { ownServerUrl, startOwnServer, type OwnServer } from './support/own-server.ts';

/**
 * These tests change the admin's password, so they run against a server of their own (not the
 * shared e2e server other specs sign in to), started with SMTP_URL pointing at a real SMTP server
 * that this spec runs and reads the OTP from.
 */
const admin = { email: 'account-admin@example.com', password: 'First-Passw0rd' };
const portOffset = 50;
const baseURL = ownServerUrl(portOffset);

test.describe.configure({ mode: 'serial' });
test.use({ baseURL });

let peer: SmtpPeer;
let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  peer = await startSmtpPeer();
  server = await startOwnServer({
    name: 'account',
    portOffset,
    admin,
    env: { SMTP_URL: peer.url, MAIL_FROM: 'Device Admin <no-reply@example.com>' },
  });
});

test.afterAll(async () => {
  server?.stop();
  await peer?.close();
});

test('a forgotten password is reset with the OTP from the email, then only the new password signs in', async ({
  page,
}) => {
  // Reached without an email, the OTP screen sends the visitor back.
  await page.goto('/enter-otp');
  await expect(page).toHaveURL(/\/forgot-password$/);

  await page.goto('/login-admin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByRole('button', { name: 'Send OTP' }).click();

  await expect(page).toHaveURL(/\/enter-otp$/);
  await expect(page.getByRole('heading', { name: 'Enter OTP' })).toBeVisible();
  await expect(page.getByText(admin.email)).toBeVisible();
  await expectAccessible(page);
  const mail = await peer.waitFor((m) => m.to.includes(admin.email), 20_000);
  const otp = /code to reset your password is: (\d{6})/.exec(mail.text)?.[1];
  expect(otp, mail.text).toMatch(/^\d{6}$/);

  // A wrong code first: the spec's message, and the page stays.
  await page.getByLabel('OTP').fill(otp === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify OTP' }).click();
  await expect(page.getByText('Invalid OTP. Please try again.')).toBeVisible();
  await page.getByLabel('OTP').fill(otp!);
  await page.getByRole('button', { name: 'Verify OTP' }).click();

  await expect(page).toHaveURL(/\/reset-password\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('New Password').fill('Second-Passw0rd');
  await page.getByLabel('Confirm Password').fill('Second-Passw0rd!');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Passwords must match')).toBeVisible();
  await page.getByLabel('Confirm Password').fill('Second-Passw0rd');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Your password has been reset. Please sign in.')).toBeVisible();
  const toastShown = Date.now();
  await expect(page).toHaveURL(/\/login-admin$/, { timeout: 5000 });
  expect(Date.now() - toastShown).toBeGreaterThanOrEqual(1500);

  // The old password no longer works; the new one does.
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login-admin$/);
  admin.password = 'Second-Passw0rd';
  await signIn(page, admin);
});

test('the admin changes the password; a wrong current password is refused', async ({ page }) => {
  await signIn(page, admin);
  await page.goto('/admin/change-password');
  await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Current password is required')).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Current Password').fill('not-my-password');
  await page.getByLabel('New Password').fill('Third-Passw0rd');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Current password is incorrect')).toBeVisible();

  await page.getByLabel('Current Password').fill(admin.password);
  await page.getByLabel('New Password').fill('Third-Passw0rd');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Password changed successfully')).toBeVisible();
  // This session stays signed in.
  await page.goto('/admin/profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  admin.password = 'Third-Passw0rd';

  const fresh = await page.context().browser()!.newContext({ baseURL });
  const other = await fresh.newPage();
  await signIn(other, admin);
  await fresh.close();
});

test('the admin uploads a profile picture and the top-bar avatar changes at once', async ({ page }) => {
  await signIn(page, admin);
  await page.goto('/admin/profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expect(page.getByText(admin.email)).toBeVisible();
  await expectAccessible(page);
  await page.locator('#main-content').getByRole('link', { name: 'Update Profile' }).click();

  await expect(page).toHaveURL(/\/admin\/update-profile$/);
  await expect(page.getByRole('heading', { name: 'Update Profile' })).toBeVisible();
  const email = page.getByLabel('Email');
  await expect(email).toHaveValue(admin.email);
  await expect(email).toHaveAttribute('readonly', '');
  await expectAccessible(page);

  const avatar = page.locator('header img.avatar');
  const before = await avatar.getAttribute('src');
  expect(before).not.toContain('/api/v1/admin/profile/image/');

  // A text file dressed as a picture is refused by the page.
  await page
    .getByLabel('Profile Image')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByText('Only PNG and JPG images are allowed')).toBeVisible();

  await page.getByLabel('Profile Image').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: makePng({ width: 64, height: 64, rgb: [20, 120, 220], text: 'private note' }),
  });
  await expect(page.getByAltText('Preview of the new profile picture')).toBeVisible();
  await page.getByLabel('First Name').fill('Grace');
  await page.getByLabel(/Phone Number/).fill('5551234567');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('User profile updated successfully')).toBeVisible();

  await expect(avatar).toHaveAttribute('src', /\/api\/v1\/admin\/profile\/image\/[a-f0-9]{32}\.png$/);
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(64);

  // Still there after a reload (the session keeps the merged profile) and on My Profile.
  await page.goto('/admin/profile');
  await expect(page.getByText('Grace')).toBeVisible();
  await expect(page.locator('main img[alt^="Profile picture of"]')).toHaveAttribute(
    'src',
    /\/api\/v1\/admin\/profile\/image\//,
  );
  await expect(avatar).toHaveAttribute('src', /\/api\/v1\/admin\/profile\/image\//);
});
