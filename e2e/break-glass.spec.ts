import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { confirmStepUp, e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 38 item 5 "Done when" (decision 082): an admin without the reveal permission breaks the glass
 * on a patient and another admin is notified and signs off the use. A night nurse's role reads
 * patients but cannot reveal; a security reviewer's role carries security.review. The nurse breaks
 * the glass by keyboard, with a reason and the password prompt, and sees the patient's contact
 * details with when the access ends; the reviewer's mail is in the outbox (this server has no SMTP);
 * the reviewer's bell counts the use, the review list shows it, and the reviewer signs it off with a
 * note, after which it is listed as signed off. Axe on each screen and dialog.
 */

test.describe.configure({ timeout: 120_000 });

type Person = { email: string; password: string; name: string };

/** The first admin's API session, stepped up (adding admins asks for it, decision 046). */
async function adminHeaders(request: APIRequestContext) {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  await request.post('/api/v1/admin/profile/step-up', { headers, data: { password: e2eAdmin.password } });
  return headers;
}

/** A console user whose role, made for them, carries exactly `permissions`. */
async function addAdmin(
  request: APIRequestContext,
  headers: Record<string, string>,
  { title, permissions }: { title: string; permissions: string[] },
): Promise<Person> {
  const tag = randomBytes(3).toString('hex');
  const role = await request.post('/api/v1/admin/roles', {
    headers,
    data: { roleName: `${title} ${tag}`, type: 'admin', permissions },
  });
  expect(role.status(), await role.text()).toBe(201);
  const person = {
    email: `${title.toLowerCase().replace(/\W+/g, '.')}.${tag}@example.com`,
    password: `${title.replace(/\W+/g, '')}-${tag}-Pass1`,
    name: `${title.split(' ')[0]} ${tag}`,
  };
  const user = await request.post('/api/v1/admin/users/', {
    headers,
    data: {
      firstName: title.split(' ')[0],
      lastName: tag,
      userName: `bg_${tag}`,
      email: person.email,
      phone: '0123456789',
      roleId: (await role.json()).data._id,
      password: person.password,
    },
  });
  expect(user.status(), await user.text()).toBe(201);
  return person;
}

const valueOf = (card: ReturnType<Page['getByRole']>, label: string) =>
  card.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

test('an admin without the reveal permission breaks the glass on a patient; another admin is told and signs the use off', async ({
  page,
  browser,
  request,
}) => {
  const headers = await adminHeaders(request);
  const nurse = await addAdmin(request, headers, { title: 'Night nurse', permissions: ['patients.view'] });
  const reviewer = await addAdmin(request, headers, {
    title: 'Security reviewer',
    permissions: ['security.review'],
  });
  const patients = await request.get('/api/v1/admin/patient/all?page=1&limit=1', { headers });
  const patient = (await patients.json()).data.patientData[0] as { _id: string; machineNumber: string };
  const reason = `Infusion pump alarm at night, doctor unreachable (${randomBytes(3).toString('hex')})`;

  // The nurse: masked details, and Break the glass instead of Reveal.
  await signIn(page, nurse);
  await page.goto(`/admin/view-patient/${patient._id}`);
  const card = page.getByRole('region', { name: 'Patient Details' });
  await expect(valueOf(card, 'Phone Number')).toContainText('••••••');
  await expect(card.getByRole('button', { name: 'Reveal' })).toHaveCount(0);
  const breakGlass = card.getByRole('button', { name: 'Break the glass' });
  await breakGlass.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Break the glass' });
  await dialog.getByRole('button', { name: 'Break the glass' }).click();
  await expect(dialog.getByText('reason: say what the emergency is')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('textbox', { name: 'What is the emergency?' }).fill(reason);
  await dialog.getByRole('button', { name: 'Break the glass' }).click();
  // SIGN_IN_STEP_UP=0 on this server: the password is asked, and the declaration then goes through.
  await confirmStepUp(page, nurse.password);
  await expect(dialog).toBeHidden();
  await expect(valueOf(card, 'Phone Number')).not.toContainText('•');
  await expect(valueOf(card, 'Email')).not.toContainText('•');
  await expect(page.getByRole('status').filter({ hasText: 'Emergency access: shown until' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Break the glass' })).toHaveCount(0);

  // The reviewer's mail, kept in the outbox (no SMTP here): who, why, and where to sign it off.
  const outbox = await request.get(
    `/api/v1/admin/outbox?page=1&limit=10&search=${encodeURIComponent(reviewer.email)}`,
    { headers },
  );
  const mail = (await outbox.json()).data.messages[0] as { _id: string; subject: string };
  expect(mail.subject).toBe(`Break-glass access by ${nurse.name}: sign-off needed`);
  const text = (await (await request.get(`/api/v1/admin/outbox/${mail._id}`, { headers })).json()).data
    .text as string;
  expect(text).toContain(`Reason given: ${reason}`);
  expect(text).toContain('/admin/break-glass');

  // The reviewer: the bell counts it, the review list shows it, and they sign it off.
  const context = await browser.newContext();
  const second = await context.newPage();
  try {
    await signIn(second, reviewer);
    const bell = second.getByRole('link', { name: /^\d+ emergency access(es)? awaits? sign-off$/ });
    await expect(bell).toBeVisible();
    await bell.click();
    await expect(second).toHaveURL(/\/admin\/break-glass$/);
    await expect(second.getByRole('heading', { level: 1, name: 'Break-glass Review' })).toBeVisible();
    const table = second.getByRole('table', { name: 'Awaiting sign-off' });
    const row = table.getByRole('row').filter({ hasText: reason });
    await expect(row).toContainText(nurse.email);
    await expect(row.getByRole('link', { name: `Patient on ${patient.machineNumber}` })).toBeVisible();
    await expectAccessible(second);

    await row
      .getByRole('button', { name: `Sign off: ${nurse.name}'s emergency access on ${patient.machineNumber}` })
      .click();
    const signOff = second.getByRole('dialog', { name: 'Sign off emergency access' });
    await expect(signOff.getByText(reason)).toBeVisible();
    await signOff.getByRole('textbox', { name: 'Review note' }).fill('Called the ward: the alarm was real');
    await expectAccessible(second);
    await signOff.getByRole('button', { name: 'Sign off' }).click();
    await confirmStepUp(second, reviewer.password);
    await expect(second.getByText('Emergency access signed off')).toBeVisible();
    await expect(signOff).toBeHidden();
    await expect(table.getByRole('row').filter({ hasText: reason })).toHaveCount(0);

    await second.getByRole('tab', { name: 'Signed off' }).click();
    const signed = second.getByRole('table', { name: 'Signed off' });
    const done = signed.getByRole('row').filter({ hasText: reason });
    await expect(done).toContainText('Called the ward: the alarm was real');
    await expect(done).toContainText(reviewer.email);
    await expectAccessible(second);
  } finally {
    await context.close();
  }
});
