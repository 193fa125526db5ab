import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 38 item 6 (decision 084; EU MDR Art. 87-89): an admin drafts a field safety notice for two
 * machines (a serial range of this run's own serials), sends it signed, the acknowledgement link of
 * one clinic's mail (read from the outbox: this server has no SMTP) is opened without signing in and
 * acknowledged by keyboard, and the notice's status shows one machine acknowledged and one notified.
 * Axe on each screen and dialog.
 */

test.describe.configure({ timeout: 120_000 });

async function adminHeaders(request: APIRequestContext) {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  return { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
}

/** A machine with this serial, and a subscription whose customer email is the clinic's contact. */
async function machineOfClinic(
  request: APIRequestContext,
  headers: Record<string, string>,
  serialNumber: string,
  email: string,
) {
  const device = await request.post('/api/v1/admin/machine/add', {
    headers,
    data: {
      machineNumber: `MN-${serialNumber}`,
      serialNumber,
      location: 'Safety ward',
      latitude: 48.85,
      longitude: 2.35,
      city: 'Paris',
      country: 'France',
      address: '1 Rue de Rivoli',
      status: 2,
    },
  });
  expect(device.status(), await device.text()).toBe(201);
  const subscription = await request.post('/api/v1/admin/subscrption/add', {
    headers,
    data: {
      fullName: 'Clinic contact',
      email,
      machineSerialNumber: serialNumber,
      amount: 10,
      isRecurring: false,
    },
  });
  expect(subscription.status(), await subscription.text()).toBe(201);
}

test('an admin sends a field safety notice for two machines; one clinic acknowledges through its link', async ({
  page,
  browser,
  request,
}) => {
  const run = randomBytes(4).toString('hex').toUpperCase();
  const [first, second] = [`FSN-${run}-1`, `FSN-${run}-2`];
  // Lower-cased: the subscription keeps its customer's email so.
  const tag = run.toLowerCase();
  const [north, south] = [`north.${tag}@clinic.example`, `south.${tag}@clinic.example`];
  const headers = await adminHeaders(request);
  await machineOfClinic(request, headers, first, north);
  await machineOfClinic(request, headers, second, south);
  const reference = `FSN-${run}`;

  await signIn(page);
  await page.getByRole('link', { name: 'Field safety notices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Field Safety Notices' })).toBeVisible();
  await expectAccessible(page);

  // The draft: its texts and the two machines by their serial range.
  await page.getByRole('button', { name: 'New notice' }).click();
  const form = page.getByRole('dialog', { name: 'New field safety notice' });
  await form.getByRole('button', { name: 'Save draft' }).click();
  await expect(form.getByText('Reference is required')).toBeVisible();
  await expectAccessible(page);
  await form.getByLabel('Reference').fill(reference);
  await form.getByLabel('Title').fill('Pump pressure may drift');
  await form.getByLabel('Kind').selectOption({ label: 'Field safety corrective action' });
  await form.getByLabel('Description').fill('Under sustained load the pump pressure may drift.');
  await form.getByLabel('What the clinic must do (remedy)').fill('Keep sessions under 20 minutes.');
  await form.getByLabel('Serial ranges').fill(`${second} ${first}`);
  await form.getByRole('button', { name: 'Save draft' }).click();
  await expect(form.getByText(/the last serial comes before the first/)).toBeVisible();
  await form.getByLabel('Serial ranges').fill(`${first} ${second}`);
  await form.getByRole('button', { name: 'Save draft' }).click();
  await expect(form).toBeHidden();

  // The notice's page: the two machines as they match now, then Send notice, signed.
  await expect(
    page.getByRole('heading', { level: 1, name: `Field safety notice ${reference}` }),
  ).toBeVisible();
  const preview = page.getByRole('table', { name: 'Affected machines (as they match now)' });
  await expect(preview.getByRole('row').filter({ hasText: first })).toContainText(north);
  await expect(preview.getByRole('row').filter({ hasText: second })).toContainText(south);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Send notice' }).click();
  const send = page.getByRole('dialog', { name: 'Send the field safety notice' });
  await expect(send).toContainText(
    '2 machines will be frozen into this notice and 2 clinic contacts are mailed',
  );
  await send.getByLabel('Meaning').selectOption({ label: 'Responsibility' });
  await send.getByLabel('Your password').fill(e2eAdmin.password);
  await expectAccessible(page);
  await send.getByRole('button', { name: 'Send notice' }).click();
  await expect(send).toBeHidden();
  const status = page.getByRole('table', { name: 'Status per machine' });
  await expect(status.getByRole('row').filter({ hasText: first })).toContainText('Notified');
  await expect(page.getByTestId('signature-line')).toContainText('Responsibility');

  // The north clinic's mail, kept in the outbox: its link acknowledges, with no sign-in.
  const outbox = await request.get(
    `/api/v1/admin/outbox?page=1&limit=10&search=${encodeURIComponent(north)}`,
    { headers },
  );
  const mail = (await outbox.json()).data.messages[0] as { _id: string; subject: string };
  expect(mail.subject).toContain(reference);
  const text = (await (await request.get(`/api/v1/admin/outbox/${mail._id}`, { headers })).json()).data
    .text as string;
  const link = text.match(/https?:\/\/\S+\/safety-notice\/[\w-]+/)?.[0];
  expect(link, text).toBeTruthy();

  const clinic = await browser.newContext();
  try {
    const ack = await clinic.newPage();
    await ack.goto(new URL(link!).pathname);
    await expect(
      ack.getByRole('heading', { level: 1, name: `Field safety corrective action ${reference}` }),
    ).toBeVisible();
    await expect(ack.getByText(`Machine MN-${first}, serial ${first}`)).toBeVisible();
    await expect(ack.getByText(second)).toHaveCount(0);
    await expectAccessible(ack);
    // By keyboard: the name field, then Enter submits.
    const name = ack.getByLabel('Your full name');
    await name.focus();
    await ack.keyboard.type('Dr. Nora North');
    await ack.keyboard.press('Enter');
    await expect(ack.getByRole('status').filter({ hasText: 'Acknowledged by Dr. Nora North' })).toBeVisible();
    await expectAccessible(ack);
  } finally {
    await clinic.close();
  }

  // The status view: one machine acknowledged, one notified.
  await page.reload();
  const counts = page.getByRole('list', { name: 'Counts' });
  await expect(counts).toContainText('Acknowledged: 1');
  await expect(counts).toContainText('Notified: 1');
  await expect(status.getByRole('row').filter({ hasText: first })).toContainText('Dr. Nora North');
  await expect(status.getByRole('row').filter({ hasText: second })).toContainText('Notified');
  await page.getByLabel('Show').selectOption({ label: 'Acknowledged' });
  await expect(status.getByRole('row').filter({ hasText: second })).toHaveCount(0);
  await expect(status.getByRole('row').filter({ hasText: first })).toBeVisible();
  await expectAccessible(page);
});
