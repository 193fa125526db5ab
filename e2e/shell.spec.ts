import type { Page } from '@playwright/test';
import { test, expect, signIn, expectAccessible, e2eAdmin } from './support/fixtures.ts';

test.describe('guards and public routes', () => {
  for (const path of [
    '/admin/dashboard',
    '/admin/device',
    '/admin/user-management',
    '/admin/view-role/123',
  ]) {
    test(`sends a signed-out visitor from ${path} to the sign-in page`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login-admin$/);
      await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    });
  }

  test('redirects an unknown path to the sign-in page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/login-admin$/);
  });

  test('shows sign-in on /, /login and /login-admin with its title and the spec messages', async ({
    page,
  }) => {
    for (const path of ['/', '/login', '/login-admin']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    }
    await expect(page).toHaveTitle('Sign In | ADMIN');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid email format')).toBeVisible();
    await expectAccessible(page);
  });

  test('shows the server message when the password is wrong and stays on sign-in', async ({ page }) => {
    await page.goto('/login-admin');
    await page.getByLabel('Email').fill(e2eAdmin.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await expect(page).toHaveURL(/\/login-admin$/);
  });

  test('toggles the password between hidden and shown', async ({ page }) => {
    await page.goto('/login-admin');
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: /show password/i }).click();
    await expect(password).toHaveAttribute('type', 'text');
  });
});

test.describe('signed in', () => {
  test('signs in by keyboard alone, lands on the dashboard with its title and tiles', async ({ page }) => {
    await page.goto('/login-admin');
    await page.keyboard.press('Tab');
    // The first stop may be a skip link on some layouts; move until the email field has focus.
    for (
      let i = 0;
      i < 5 && !(await page.getByLabel('Email').evaluate((el) => el === document.activeElement));
      i++
    ) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type(e2eAdmin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(e2eAdmin.password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page).toHaveTitle('Dashboard | ADMIN');
    for (const tile of ['New Orders', 'New Customer', 'User Registrations', 'Unique Visitors']) {
      await expect(page.getByText(tile, { exact: true })).toBeVisible();
    }
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? '{}'));
    expect(stored.details.token ?? stored.details.access_token).toBeTruthy();
    expect(stored.details.timeZone).toBeTruthy();
    await expectAccessible(page);
  });

  test('sends a signed-in admin away from the sign-in page to devices', async ({ page }) => {
    await signIn(page);
    await page.goto('/login-admin');
    await expect(page).toHaveURL(/\/admin\/device$/);
  });

  test('offers a skip link to the main content as the first focus stop', async ({ page }) => {
    await signIn(page);
    // Tab from the top of the settled page: under a loaded run the sign-in form's focus can
    // linger while the console renders (the test passed alone and failed once in a full run).
    await expect(page.locator('#main-content')).toBeVisible();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main-content')).toBeFocused();
  });

  test('keeps the sidebar collapsed across a reload', async ({ page }) => {
    await signIn(page);
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Toggle sidebar' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(page.getByRole('button', { name: 'Toggle sidebar' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  test('keeps each control the keyboard reaches out from under the sticky top bar', async ({ page }) => {
    // Up to 200 key presses, each waiting for the page to settle: on a loaded 2-core machine this
    // took 66 s, past the default 60 (CI of 2026-11-28).
    test.slow();
    await signIn(page);
    await page.goto('/admin/user-management?limit=100');
    const table = page.getByRole('table');
    await expect(table.getByRole('button', { name: /^Delete / }).first()).toBeVisible();
    // Nothing still arriving (list preferences, counts) to move the rows while we measure.
    await page.waitForLoadState('networkidle');
    await table
      .getByRole('button', { name: /^Delete / })
      .last()
      .focus();
    await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }));
    const bottomScroll = await page.evaluate(() => window.scrollY);
    const barBottom = await page.locator('.topbar').evaluate((bar) => bar.getBoundingClientRect().bottom);
    // Up through the rows by Shift+Tab until focus leaves the table, noting where each control
    // reached is shown once the page has stopped moving.
    const hidden: string[] = [];
    for (let press = 0; press < 200; press++) {
      await page.keyboard.press('Shift+Tab');
      if (!(await page.evaluate(() => !!document.activeElement?.closest('table')))) break;
      const { top, label, scrollY } = await settledFocus(page);
      // Half a pixel of rounding aside, none is under the bar; the label says which, if one is.
      if (top < barBottom - 0.5) hidden.push(`${label} at ${top} (press ${press}, scrollY ${scrollY})`);
    }
    expect(hidden).toEqual([]);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(bottomScroll);
  });

  test('marks Device Management active on a device detail path', async ({ page }) => {
    await signIn(page);
    await page.goto('/admin/device-details/some-id');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Device Management' }),
    ).toHaveAttribute('aria-current', 'page');
  });

  test('opens the profile menu by keyboard and logs out with the toast and redirect', async ({ page }) => {
    await signIn(page);
    const menuButton = page.locator('.profile-button');
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Profile menu' });
    await expect(menu).toBeVisible();
    for (const item of ['Profile', 'Update Profile', 'Change Password', 'Logout']) {
      await expect(menu.getByRole('menuitem', { name: item, exact: true })).toBeVisible();
    }
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();

    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('auth') ?? '{}').details.token as string,
    );
    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page.getByText('Logout Successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/login-admin$/);
    // The server revoked the session: the old token no longer works.
    const res = await page.request.get('/api/v1/admin/profile', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status()).toBe(401);
  });

  test('a 401 from the API clears the session and returns to sign-in', async ({ page }) => {
    await signIn(page);
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('auth') ?? '{}').details.token as string,
    );
    // Revoke the session behind the browser's back, then make the app call the API.
    await page.request.post('/api/v1/admin/logout', { headers: { authorization: `Bearer ${token}` } });
    await page.goto('/admin/profile');
    await expect(page).toHaveURL(/\/login-admin$/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? '{}'));
    expect(stored.details?.token).toBeFalsy();
  });
});

/** The focused element's top in the viewport once it has held still for 150 ms, and what it is. */
async function settledFocus(page: Page): Promise<{ top: number; label: string; scrollY: number }> {
  return page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const focused = document.activeElement as HTMLElement;
    const top = () => focused.getBoundingClientRect().top;
    // A scroll may land a frame or two after the focus moves, so one still frame is not enough:
    // wait for the position to hold for 150 ms.
    let last = top();
    let stillSince = performance.now();
    for (;;) {
      await frame();
      const now = top();
      if (now !== last) [last, stillSince] = [now, performance.now()];
      else if (performance.now() - stillSince >= 150) break;
    }
    const label = focused.getAttribute('aria-label') ?? focused.textContent ?? focused.tagName;
    return { top: last, label, scrollY: window.scrollY };
  });
}
