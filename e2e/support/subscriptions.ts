import type { Browser, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * Creates a subscription in the Add Subscription dialog, for the machine whose serial is `serial`
 * (one-time, or recurring yearly), and answers it as the API did: its id and the customer's link.
 */
export async function addSubscriptionInConsole(
  page: Page,
  opts: { fullName: string; email: string; serial: string; recurring?: boolean },
): Promise<{ _id: string; link: string }> {
  await page.goto('/admin/subscription-management');
  await page.getByRole('button', { name: 'Add Subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Subscription' });
  await dialog.getByLabel('Full Name').fill(opts.fullName);
  await dialog.getByLabel('Email').fill(opts.email);
  await dialog.getByLabel('Machine Serial Number').fill(opts.serial);
  await dialog.getByLabel('Amount ($)').fill('120');
  await dialog.getByLabel('Payment Type').selectOption({ label: opts.recurring ? 'Recurring' : 'One Time' });
  if (opts.recurring) await dialog.getByLabel('Plan Type').selectOption({ label: 'Yearly' });
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/admin/subscrption/add') && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Add Subscription' }).click();
  const response = await created;
  expect(response.status(), await response.text()).toBe(201);
  await expect(dialog).toBeHidden();
  return ((await response.json()) as { data: { _id: string; link: string } }).data;
}

/** The customer pays the link with the demo card (4242…), in a browser context of their own. */
export async function payAsCustomer(browser: Browser, link: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(new URL(link).pathname);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await expect(page).toHaveURL(/\/success/);
  } finally {
    await context.close();
  }
}
