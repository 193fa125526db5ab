import { test, expect, signIn, expectAccessible } from './support/fixtures.ts';
import { ownServerUrl, startOwnServer, type OwnServer } from './support/own-server.ts';

/**
 * The idle timeout needs a server whose sessions go idle in about a minute, so this spec runs one
 * of its own with SESSION_IDLE_MINUTES=1.1 (66 s: the warning opens about 6 s after the last request).
 */
const admin = { email: 'session-admin@example.com', password: 'Session-Passw0rd' };
const portOffset = 70;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: ownServerUrl(portOffset) });

let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({ name: 'session', portOffset, admin, env: { SESSION_IDLE_MINUTES: '1.1' } });
});

test.afterAll(() => server?.stop());

test('the idle warning appears a minute before the end, and "Stay signed in" keeps the session past its old end', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, admin);
  const dialog = page.getByRole('dialog', { name: 'Are you still there?' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText(/You will be signed out in \d+ seconds because of inactivity\./);
  await expect(dialog.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  await expectAccessible(page);

  // By keyboard: the focused button is "Stay signed in".
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // Without "Stay signed in" the server would have ended the session 66 s after sign-in. Wait until
  // the warning is back and nearly out (past that old end), then prove the server still knows us.
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText(/signed out in [1-5] seconds?/, { timeout: 70_000 });
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('link', { name: 'Roles' }).first().click();
  await expect(page).toHaveURL(/\/admin\/roles$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toHaveCount(0);
});

test('when the time runs out the console signs out to the sign-in page', async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, admin);
  await expect(page.getByRole('dialog', { name: 'Are you still there?' })).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/login-admin$/, { timeout: 90_000 });
  await expect(page.getByText('You were signed out after a period of inactivity.')).toBeVisible();
});

test('a logout in one tab signs out the other tabs of the browser', async ({ page, context }) => {
  await signIn(page, admin);
  const other = await context.newPage();
  await other.goto('/admin/dashboard');
  await expect(other).toHaveURL(/\/admin\/dashboard$/);

  // The short idle time puts the warning up within seconds in both tabs (they share the deadline):
  // its "Sign out" is this tab's logout.
  const dialog = page.getByRole('dialog', { name: 'Are you still there?' });
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(other.getByRole('dialog', { name: 'Are you still there?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login-admin$/);
  await expect(other).toHaveURL(/\/login-admin$/);
  await expect(other.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expectAccessible(other);
  await other.close();
});
