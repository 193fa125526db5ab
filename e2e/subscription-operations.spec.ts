import { test, expect, signIn, expectAccessible, e2eAdmin } from './support/fixtures.ts';

/*
 * The subscription page and its operations (issue 34 item 5) end to end: an admin creates a payment
 * link for a machine, the customer pays it with the demo card, and the admin, by keyboard, opens the
 * subscription from the list's row menu, reads its timeline and its receipt, and extends its
 * paid-through date with a reason, signed with a meaning and the password (decision 083), and the
 * timeline shows the signature.
 */

/** A machine of its own, so the other specs' subscriptions and licences stay as they are. */
const serialNumber = 'SN-E2E-OPS-0001';
test.beforeAll(async ({ request }) => {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const res = await request.post('/api/v1/admin/machine/add', {
    headers,
    data: {
      machineNumber: 'MN-E2E-OPS',
      serialNumber,
      location: 'Operations ward',
      latitude: 51.92,
      longitude: 4.48,
      city: 'Rotterdam',
      country: 'Netherlands',
      address: 'Coolsingel 40',
      status: 2,
    },
  });
  expect([201, 409], await res.text()).toContain(res.status());
});

/** YYYY-MM-DD of `days` from now (UTC), as a date input takes it. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('an admin reads a paid subscription’s timeline and receipt, and extends it with a reason, signed', async ({
  page,
  browser,
  request,
}) => {
  // Two browsers, a payment and four axe checks in both colour modes on a shared machine.
  test.setTimeout(300_000);
  await signIn(page);
  const name = `Operations Customer ${Date.now()}`;

  // The admin creates a monthly plan's link for the machine.
  await page.goto('/admin/subscription-management');
  await page.getByRole('button', { name: 'Add Subscription' }).click();
  const add = page.getByRole('dialog', { name: 'Add Subscription' });
  await add.getByLabel('Full Name').fill(name);
  await add.getByLabel('Email').fill(`ops.${Date.now()}@example.com`);
  await add.getByLabel('Machine Serial Number').fill(serialNumber);
  await add.getByLabel('Amount ($)').fill('49.99');
  await add.getByLabel('Payment Type').selectOption({ label: 'Recurring' });
  await add.getByLabel('Plan Type').selectOption({ label: 'Monthly' });
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/admin/subscrption/add') && r.request().method() === 'POST',
  );
  await add.getByRole('button', { name: 'Add Subscription' }).click();
  const { data } = (await (await created).json()) as { data: { _id: string; link: string } };
  await expect(add).toBeHidden();

  // The customer pays with the demo card.
  const customer = await browser.newContext();
  try {
    const c = await customer.newPage();
    await c.goto(new URL(data.link).pathname);
    await c.getByRole('button', { name: 'Subscribe' }).click();
    await c.getByLabel('Card number').fill('4242 4242 4242 4242');
    await c.getByLabel('Expiry (MM/YY)').fill('12/34');
    await c.getByLabel('CVC').fill('123');
    await c.getByRole('button', { name: 'Pay Now' }).click();
    await expect(c.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  } finally {
    await customer.close();
  }

  // By keyboard: the row's menu, then View.
  await page.goto('/admin/subscription-management');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Complete');
  const menuButton = row.getByRole('button', { name: `Actions for ${name}` });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: `Actions for ${name}` });
  await expect(menu.getByRole('menuitem', { name: 'View' })).toBeFocused();
  await expect(menu.getByRole('menuitem', { name: 'Extend paid-through date' })).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/admin/view-subscription/${data._id}$`));

  // The page: details, the machine, the payment with its receipt, the timeline.
  await expect(page.getByRole('heading', { name: 'Subscription Details', level: 1 })).toBeVisible();
  const machine = page.getByRole('region', { name: 'Machine' });
  await expect(machine.getByRole('link', { name: 'MN-E2E-OPS' })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
  for (const label of ['Created', 'Payment link mailed', 'Opened by the customer', 'Paid'])
    await expect(timeline.getByText(label, { exact: true })).toBeVisible();
  const receipt = page.getByRole('table', { name: 'Payments' }).getByRole('link', { name: /^Receipt of / });
  await expect(receipt).toHaveAttribute('target', '_blank');
  const receiptPage = await request.get((await receipt.getAttribute('href'))!);
  expect(receiptPage.status()).toBe(200);
  expect(await receiptPage.text()).toContain('49.99');
  await expectAccessible(page);

  // Extend, by keyboard, with a reason, signed with the meaning and the password (decision 083).
  await page.getByRole('button', { name: 'Extend paid-through date' }).focus();
  await page.keyboard.press('Enter');
  const extend = page.getByRole('dialog', { name: 'Extend paid-through date' });
  await expect(extend.getByLabel('New paid-through date')).toBeFocused();
  await extend.getByLabel('New paid-through date').fill(dayFromNow(90));
  // (Tab inside a date input moves between its day, month and year: the reason is filled directly.)
  await extend.getByLabel('Reason').fill('Machine on loan while the clinic’s own is repaired');
  await extend.getByLabel('Reason').press('Tab');
  const meaning = extend.getByRole('combobox', { name: 'Meaning' });
  await expect(meaning).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(meaning).toHaveValue('responsibility');
  await page.keyboard.press('Tab');
  await expect(extend.getByLabel('Your password')).toBeFocused();
  await page.keyboard.type(e2eAdmin.password);
  await expectAccessible(page);
  await page.keyboard.press('Tab');
  await expect(extend.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(extend.getByRole('button', { name: 'Extend' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Paid-through date extended').first()).toBeVisible();
  await expect(extend).toBeHidden();
  await expect(timeline.getByText('Paid-through date extended', { exact: true })).toBeVisible();
  await expect(timeline.getByText('Machine on loan while the clinic’s own is repaired')).toBeVisible();
  await expect(timeline.getByText(`by ${e2eAdmin.email}`).first()).toBeVisible();
  // The extension's signature is shown with it in the timeline.
  await expect(timeline.getByTestId('signature-line').first()).toContainText(
    /^Signed by .+ · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} · Responsibility/,
  );
  await expectAccessible(page);
});
