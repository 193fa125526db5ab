import type { Page } from '@playwright/test';
import { test, expect, signIn, addAdminWithRole } from './support/fixtures.ts';

/*
 * Issue 35 item 8: a list's URL state (search, facets, page size) is written by navigating to "?…" of
 * the list. Written while the page a View link opened is still loading its code, it cancelled that
 * navigation and left the admin on the list. Each test slows the next page's code past the search's
 * 900 ms debounce, as a slow network or a busy machine does, and checks the admin gets there.
 */

const codeDelayMs = 1_500;

/** Every request for `page`'s code chunk (Vite names it after the file) waits `codeDelayMs` first. */
async function slowPageCode(page: Page, chunk: string) {
  const asked: number[] = [];
  await page.route(new RegExp(`/assets/${chunk}-[\\w-]+\\.js$`), async (route) => {
    asked.push(Date.now());
    await new Promise((resolve) => setTimeout(resolve, codeDelayMs));
    await route.continue();
  });
  return asked;
}

/** Signed in as a Support admin of its own, so a page size it picks is no other spec's. */
async function openDevices(page: Page, request: Parameters<typeof addAdminWithRole>[0]) {
  await signIn(page, await addAdminWithRole(request, 'Support'));
  await page.goto('/admin/device');
  const view = page
    .getByRole('table', { name: 'Devices' })
    .getByRole('link', { name: /^View / })
    .first();
  await expect(view).toBeVisible();
  return { view, machine: (await view.getAttribute('aria-label'))!.slice('View '.length) };
}

/** Device Details of `machine` is shown, and stays: nothing written later takes the admin back. */
async function expectDeviceDetails(page: Page, machine: string) {
  await expect(page.getByRole('heading', { name: 'Device Details', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/device-details\//);
  await expect(
    page.getByRole('region', { name: 'Device Details' }).getByText(machine, { exact: true }),
  ).toBeVisible();
  await page.waitForTimeout(1_000);
  await expect(page).toHaveURL(/\/admin\/device-details\//);
}

test("a View link clicked right after typing a search opens that machine, though the search's URL write comes while its page code loads", async ({
  page,
  request,
}) => {
  const { machine } = await openDevices(page, request);
  const asked = await slowPageCode(page, 'device-details-page');
  await page.getByLabel('Search devices').fill(machine);
  const clickedAt = Date.now();
  await page.getByRole('link', { name: `View ${machine}` }).click();
  await expectDeviceDetails(page, machine);
  // The debounce (900 ms) ended while the code was still held back: the race did happen.
  expect(asked).toHaveLength(1);
  expect(asked[0]! - clickedAt).toBeLessThan(900);
  await expect(page).not.toHaveURL(/search=/);
  // Back returns to the list as it was left: the search never reached the URL.
  await page.goBack();
  await expect(page).toHaveURL(/\/admin\/device$/);
});

test('a facet changed while a View link is loading does not cancel it', async ({ page, request }) => {
  const { view, machine } = await openDevices(page, request);
  await slowPageCode(page, 'device-details-page');
  await view.click();
  await page.getByLabel('Online', { exact: true }).selectOption({ label: 'Never seen' });
  await expectDeviceDetails(page, machine);
  await expect(page).not.toHaveURL(/online=/);
});

test('a page size picked while a View link is loading does not cancel it', async ({ page, request }) => {
  const { view, machine } = await openDevices(page, request);
  await slowPageCode(page, 'device-details-page');
  await view.click();
  await page.getByLabel('Rows per page').selectOption('25');
  await expectDeviceDetails(page, machine);
  await expect(page).not.toHaveURL(/limit=/);
});

test('list preferences arriving while a sidebar link is loading leave the admin where they went', async ({
  page,
  request,
}) => {
  await signIn(page, await addAdminWithRole(request, 'Support'));
  // The kept page size and sort arrive late, and the list waits for them.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/admin/preferences', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/admin/device');
  await expect(page.getByRole('heading', { name: 'Device Management' })).toBeVisible();
  await slowPageCode(page, 'dashboard-page');
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  release();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.waitForTimeout(codeDelayMs + 500);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test("a patient's View link right after the Patients tab loaded opens the patient, its page code arriving slowly", async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/admin/device?search=MN-1001');
  await page.getByRole('link', { name: 'View MN-1001' }).click();
  await expect(page.getByRole('heading', { name: 'Device Details', level: 1 })).toBeVisible();
  await slowPageCode(page, 'view-patient-page');
  await page.getByRole('tab', { name: 'Patients' }).click();
  await page
    .getByRole('table', { name: 'Patients' })
    .getByRole('link', { name: /^View / })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Patient Details', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/view-patient\//);
  await page.waitForTimeout(1_000);
  await expect(page).toHaveURL(/\/admin\/view-patient\//);
});
