import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * The Outbox (issue 35 item 3) on the shared server, which has no SMTP: a password reset's mail is
 * kept, listed with its recipient and status, and its code is never shown.
 */
test('an admin finds a reset mail in the Outbox, kept without SMTP, its code not shown', async ({
  page,
  request,
}) => {
  const asked = await request.post('/api/v1/admin/forgot-password', { data: { email: e2eAdmin.email } });
  expect(asked.ok()).toBe(true);

  await signIn(page);
  await page.getByRole('link', { name: 'Outbox' }).click();
  await expect(page).toHaveURL(/\/admin\/outbox$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('messages are kept here');

  await page.getByLabel('Search by recipient or subject').fill(e2eAdmin.email);
  const table = page.getByRole('table', { name: 'Messages' });
  const row = table.getByRole('row').filter({ hasText: e2eAdmin.email }).first();
  await expect(row).toContainText('Not delivered (no SMTP)');
  await expectAccessible(page);

  await row.getByRole('button', { name: /^View the message to/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('its text is never shown here')).toBeVisible();
  await expect(dialog).not.toContainText(/\b\d{6}\b/);
  await expectAccessible(page);
});
