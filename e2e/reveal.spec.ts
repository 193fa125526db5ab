import type { Page } from '@playwright/test';
import {
  test,
  expect,
  signIn,
  expectAccessible,
  openFirstPatient,
  addAdminWithRole,
} from './support/fixtures.ts';

// Decision 045: patients' contact data is masked for everyone; an admin who may reveal gives a
// reason, sees the values, and the access history lists the reveal; a Support admin sees neither.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

/** What the first test revealed, and where: the second looks for it as Support. */
const seen = { url: '', phone: '', email: '' };

/** A patient page of the demo device MN-1001, opened as a person would. */
async function openDemoPatient(page: Page) {
  await page.goto('/admin/device?search=MN-1001');
  await page.getByRole('link', { name: 'View MN-1001' }).click();
  await openFirstPatient(page);
  return page.getByRole('region', { name: 'Patient Details' });
}

const valueOf = (card: ReturnType<Page['getByRole']>, label: string) =>
  card.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

test('reveals a patient’s phone with a reason, and the access history lists it', async ({ page }) => {
  await signIn(page);
  const card = await openDemoPatient(page);
  await expect(valueOf(card, 'Phone Number')).toContainText('••••••');
  await expect(valueOf(card, 'Email')).toContainText('•••@');

  await card.getByRole('button', { name: 'Reveal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reveal contact details' });
  await dialog.getByRole('button', { name: 'Reveal' }).click();
  await expect(dialog.getByText('reason: choose why you need to see this')).toBeVisible();
  await expectAccessible(page);
  // A reason of this run's own, so a repeated run finds its own row in the history.
  const note = `e2e check ${Date.now().toString(36)}`;
  await dialog.getByLabel('Reason').selectOption('Other');
  await dialog.getByLabel('Details').fill(note);
  await dialog.getByRole('button', { name: 'Reveal' }).click();
  await expect(dialog).toBeHidden();
  await expect(valueOf(card, 'Phone Number')).not.toContainText('•');
  await expect(valueOf(card, 'Email')).not.toContainText('•');
  seen.url = page.url();
  seen.phone = (await valueOf(card, 'Phone Number').textContent())!.trim();
  seen.email = (await valueOf(card, 'Email').textContent())!.trim();
  expect(seen.email).toContain('@');

  const history = page.getByRole('region', { name: 'Access History' });
  const revealed = history.getByRole('row').filter({
    has: page.getByRole('cell', { name: `email, phone (reason: Other: ${note})`, exact: true }),
  });
  await expect(revealed.getByRole('cell', { name: 'Revealed', exact: true })).toBeVisible();
});

test('a Support admin sees none of that patient’s contact data, nor a Reveal or its history', async ({
  page,
  request,
}) => {
  expect(seen.url).toMatch(/\/admin\/view-patient\//);
  await signIn(page, await addAdminWithRole(request, 'Support'));
  await page.goto(seen.url);
  // Support carries no patients.view: the console shows its no-access page and asks for nothing (decision 047).
  await expect(page.getByRole('heading', { name: 'You do not have access', level: 1 })).toBeVisible();
  await expect(page.getByText(/needs the permission "patients\.view"/)).toBeVisible();
  await expect(page.getByText(seen.email)).toHaveCount(0);
  await expect(page.getByText(seen.phone)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reveal' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Access History' })).toHaveCount(0);
});
