import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { animationsSettled } from '../../scripts/chromium.mjs';
import { e2eAdmin } from '../playwright.config.ts';

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * Runs axe-core's WCAG 2.2 A/AA rules on the page once it has settled and fails on any violation,
 * in both colour modes (decision 054): as the page is, then with <html data-bs-theme> switched to the
 * other mode, then put back. Pages that take no colour mode (the checkout) are checked as they are.
 * Settled: no finite animation or transition running, so a toast caught half faded in or out is not
 * measured at a fraction of its contrast (it failed color-contrast once that way); endless ones
 * (spinners) do not count. And axe runs with reduced motion asked for: waiting for the page to settle
 * cannot stop a toast's timer from ending during the analysis, and its fade-out then failed
 * color-contrast again (a toast's title, halfway gone). With reduced motion sonner and Bootstrap
 * show and hide at once, so axe sees each toast at its full colours or not at all.
 */
export async function expectAccessible(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    await expectAxeCleanInBothModes(page);
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
  checked.set(page, await pageState(page));
}

/**
 * The page as axe last found it clean: its address, colour mode and markup. The check every test ends
 * with (below) is skipped when the page is still exactly that: most tests end with their own check of
 * the page they end on, and axe on the same markup finds the same (two runs of axe cost CI's 2 cores
 * a few seconds each, hundreds of times).
 */
const checked = new WeakMap<Page, string>();
const pageState = (page: Page) =>
  page.evaluate(
    () =>
      `${location.href}\n${document.documentElement.getAttribute('data-bs-theme')}\n${document.documentElement.outerHTML}`,
  );

async function expectAxeCleanInBothModes(page: Page) {
  await expectAxeClean(page);
  const theme = await page.evaluate(() => document.documentElement.getAttribute('data-bs-theme'));
  if (theme === null) return;
  const setTheme = (value: string) =>
    page.evaluate((v) => document.documentElement.setAttribute('data-bs-theme', v), value);
  await setTheme(theme === 'dark' ? 'light' : 'dark');
  try {
    await expectAxeClean(page);
  } finally {
    await setTheme(theme);
  }
}

async function expectAxeClean(page: Page) {
  const { violations } = await atTopOfPage(page, async () => {
    await animationsSettled(page);
    return new AxeBuilder({ page }).withTags(wcagTags).analyze();
  });
  const theme = await page.evaluate(() => document.documentElement.getAttribute('data-bs-theme') ?? 'none');
  const summary = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`,
  );
  expect(summary, `accessibility violations on ${page.url()} (theme ${theme})`).toEqual([]);
}

/**
 * Runs `check` with the page scrolled to its top, then scrolls back. axe-core places a sticky element
 * (the console's top bar) where it is drawn now, as if it were part of the page there (axe-core issue
 * #3720): on a scrolled page, the row the bar happens to half cover had its buttons reported as
 * too small a target ("target-size"), a failure that came and went with where the test left the
 * page. At the top, the bar is where the layout puts it and covers nothing. Keyboard focus is kept
 * out from under the bar by the layout itself (styles/shell.css, scroll-padding-top; shell.spec.ts).
 * Scrolling slides another control under a mouse that stays put, and its hover colours fade in
 * (Bootstrap's 0.15 s transitions): axe once measured a pager button halfway there as too little
 * contrast. So the mouse moves to the page's corner at once, and the check waits out what that starts.
 */
async function atTopOfPage<T>(page: Page, check: () => Promise<T>): Promise<T> {
  const scrolled = await page.evaluate(() => {
    const at = { left: window.scrollX, top: window.scrollY };
    // Instant: Bootstrap makes the page's own scrolling smooth, and axe must not run mid-scroll.
    window.scrollTo({ left: 0, top: 0, behavior: 'instant' });
    return at;
  });
  await page.mouse.move(0, 0);
  try {
    return await check();
  } finally {
    await page.evaluate((at) => window.scrollTo({ ...at, behavior: 'instant' }), scrolled);
  }
}

/** Signs in through the real form, as a person would. */
export async function signIn(page: Page, creds: { email: string; password: string } = e2eAdmin) {
  await page.goto('/login-admin');
  await page.getByLabel('Email').fill(creds.email);
  await page.getByLabel('Password', { exact: true }).fill(creds.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

/**
 * Answers the step-up dialog a dangerous action opens (decision 046) with the admin's password, and
 * waits for it to close (the action is then sent again).
 */
export async function confirmStepUp(page: Page, password: string = e2eAdmin.password) {
  const dialog = page.getByRole('dialog', { name: 'Confirm your password to continue' });
  const field = dialog.getByLabel('Your password');
  await expect(field).toBeFocused();
  await field.fill(password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * A console user holding the demo role `roleName` (Support, Auditor), added through the API by the
 * first admin: the demo's own users have passwords nobody knows. Returns what signs them in.
 */
export async function addAdminWithRole(request: APIRequestContext, roleName: string) {
  const handle = `${roleName.toLowerCase()}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const creds = { email: `${handle}@example.com`, password: `${roleName}-${handle}-Pass1` };
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  // Adding an admin asks for the acting admin's password within the last minutes (decision 046).
  await request.post('/api/v1/admin/profile/step-up', { headers, data: { password: e2eAdmin.password } });
  const roles = (await (await request.get('/api/v1/admin/roles/all', { headers })).json()).data.roles as {
    _id: string;
    roleName: string;
  }[];
  const created = await request.post('/api/v1/admin/users/', {
    headers,
    data: {
      firstName: 'Sam',
      lastName: roleName,
      userName: handle,
      email: creds.email,
      phone: '0123456789',
      roleId: roles.find((r) => r.roleName === roleName)!._id,
      password: creds.password,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return creds;
}

/**
 * Every test ends with an axe check of the page it ended on, so each screen a spec visits is checked
 * at least once without anyone having to remember to (unless its own last check saw it as it is now).
 */
export const test = base.extend<{ a11yAfter: void }>({
  a11yAfter: [
    async ({ page }, use, testInfo) => {
      await use();
      if (testInfo.status !== testInfo.expectedStatus || !page.url().startsWith('http')) return;
      await page.waitForLoadState('networkidle');
      if (checked.get(page) !== (await pageState(page))) await expectAccessible(page);
    },
    { auto: true },
  ],
});

/** From Device Details: the device's Patients tab, then the first patient's page. */
export async function openFirstPatient(page: Page) {
  await page.getByRole('tab', { name: 'Patients' }).click();
  await page
    .getByRole('table', { name: 'Patients' })
    .getByRole('link', { name: /^View / })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Patient Details', level: 1 })).toBeVisible();
}

export { expect, e2eAdmin };
