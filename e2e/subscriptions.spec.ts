import type { Browser, Page } from '@playwright/test';
import { test, expect, signIn, expectAccessible, e2eAdmin } from './support/fixtures.ts';

// A payment runs through two browsers (the admin's and the customer's checkout): on a slow 2-core
// host with two workers it took 56 s of the default 60.
test.describe.configure({ timeout: 120_000 });

/** A subscription belongs to a machine of the fleet (decision 068): the one these links name. */
const serialNumber = 'SN-E2E-0001';
test.beforeAll(async ({ request }) => {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const res = await request.post('/api/v1/admin/machine/add', {
    headers,
    data: {
      machineNumber: 'MN-E2E-SUBSCRIBED',
      serialNumber,
      location: 'Subscribed ward',
      latitude: 52.37,
      longitude: 4.89,
      city: 'Amsterdam',
      country: 'Netherlands',
      address: 'Damrak 1',
      status: 2,
    },
  });
  // Added now, or by an earlier run of this file against the same server.
  expect([201, 409], await res.text()).toContain(res.status());
});

/** Creates a subscription through the Add Subscription modal and returns the customer's link. */
async function createSubscription(page: Page, fullName: string, opts: { recurring?: boolean } = {}) {
  await page.goto('/admin/subscription-management');
  await expect(page.getByRole('heading', { name: 'Subscription Management' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Subscription' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Full Name').fill(fullName);
  await dialog.getByLabel('Email').fill(`${fullName.toLowerCase().replace(/\W+/g, '.')}@example.com`);
  await dialog.getByLabel('Machine Serial Number').fill(serialNumber);
  await dialog.getByLabel('Amount ($)').fill('49.99');
  await dialog.getByLabel('Payment Type').selectOption({ label: opts.recurring ? 'Recurring' : 'One Time' });
  if (opts.recurring) await dialog.getByLabel('Plan Type').selectOption({ label: 'Monthly' });
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/admin/subscrption/add') && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Add Subscription' }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: fullName });
  await expect(row).toContainText('Pending');
  return ((await response.json()) as { data: { link: string } }).data.link;
}

/** The customer: a browser with no session at all. */
async function openAsCustomer(browser: Browser, link: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(link).pathname);
  return { page, close: () => context.close() };
}

async function payWith(page: Page, cardNumber: string) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay Now' }).click();
}

async function statusInList(page: Page, fullName: string) {
  await page.goto('/admin/subscription-management');
  return page.getByRole('row').filter({ hasText: fullName });
}

test('a customer pays a subscription link with 4242 4242 4242 4242 and the admin sees it Complete', async ({
  page,
  browser,
}) => {
  await signIn(page);
  const name = `Paying Customer ${Date.now()}`;
  await page.goto('/admin/subscription-management');
  await expectAccessible(page);
  const link = await createSubscription(page, name, { recurring: true });
  expect(link).toMatch(/\/plans\/[A-Za-z0-9_-]{22,}$/);

  const customer = await openAsCustomer(browser, link);
  try {
    const c = customer.page;
    await expect(c.getByRole('heading', { name: `Hello, ${name}` })).toBeVisible();
    await expect(c.getByText('Monthly')).toBeVisible();
    await expect(c.getByText('$49.99')).toBeVisible();
    await expectAccessible(c);

    await c.getByRole('button', { name: 'Subscribe' }).click();
    await expect(c.getByLabel('Card number')).toBeVisible();
    await expect(c.getByText('Secure payment powered by')).toBeVisible();
    await expectAccessible(c);
    await c.getByRole('button', { name: 'Back to Plans' }).click();
    await expect(c.getByRole('heading', { name: `Hello, ${name}` })).toBeVisible();
    await c.getByRole('button', { name: 'Subscribe' }).click();

    await payWith(c, '4242 4242 4242 4242');
    await expect(c).toHaveURL(/\/success/);
    await expect(c.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    await expectAccessible(c);

    // The same link cannot be paid again.
    await c.goto(new URL(link).pathname);
    await expect(c.getByText('This subscription has already been paid.')).toBeVisible();
    await expect(c.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
  } finally {
    await customer.close();
  }

  await expect(await statusInList(page, name)).toContainText('Complete');
});

test('a declined card (4000 0000 0000 0002) ends on /cancel and the admin sees Failed', async ({
  page,
  browser,
}) => {
  await signIn(page);
  const name = `Declined Customer ${Date.now()}`;
  const link = await createSubscription(page, name);

  const customer = await openAsCustomer(browser, link);
  try {
    const c = customer.page;
    await c.getByRole('button', { name: 'Subscribe' }).click();
    await payWith(c, '4000 0000 0000 0002');
    await expect(c).toHaveURL(/\/cancel$/);
    await expect(c.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
    await expect(c.getByText('Your payment was cancelled. You can try again.')).toBeVisible();
    await expect(c.getByRole('link', { name: 'Back to Subscriptions' })).toHaveAttribute(
      'href',
      '/admin/subscription-management',
    );
    await expectAccessible(c);
  } finally {
    await customer.close();
  }

  await expect(await statusInList(page, name)).toContainText('Failed');
});

test('an unknown payment link says so and offers nothing to pay', async ({ page }) => {
  await page.goto('/plans/AAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByText('This payment link is not valid.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
});
