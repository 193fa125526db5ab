import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 38 item 3 (decision 086): an admin reads the retention schedule, places a legal hold on a
 * patient with a reason, by keyboard, and lifts it with a reason. Axe on the screen and on both
 * dialogs. Repeat-safe: the patient is one without a hold in force, and the reasons are this run's own.
 */

test.describe.configure({ timeout: 120_000 });

async function adminHeaders(request: APIRequestContext) {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  return { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
}

/** A demo patient no hold is in force on (an earlier run lifted its own), one per repeat. */
async function unheldPatient(request: APIRequestContext, headers: Record<string, string>) {
  const holds = await request.get('/api/v1/admin/legal-holds?state=active&page=1&limit=100', { headers });
  const held = new Set(((await holds.json()).data.holds as { subjectId: string }[]).map((h) => h.subjectId));
  const list = await request.get('/api/v1/admin/patient/all?page=1&limit=50', { headers });
  const patients = (await list.json()).data.patientData as { _id: string; machineNumber: string }[];
  // Repeats run side by side: each takes a patient of its own.
  const free = patients.filter((p) => !held.has(p._id));
  const patient = free[test.info().repeatEachIndex % Math.max(1, free.length)];
  expect(patient, 'a patient without a legal hold').toBeTruthy();
  return patient!;
}

test('an admin reads the retention schedule, places a legal hold on a patient with a reason and lifts it', async ({
  page,
  request,
}) => {
  const headers = await adminHeaders(request);
  const patient = await unheldPatient(request, headers);
  const tag = randomBytes(3).toString('hex');
  const reason = `Litigation hold ${tag}`;

  await signIn(page);
  await page.goto('/admin/retention');
  await expect(page.getByRole('heading', { level: 1, name: 'Retention' })).toBeVisible();
  const schedule = page.getByRole('table', { name: 'Schedule' });
  const treatments = schedule.getByRole('row').filter({ hasText: 'Treatment records' });
  await expect(treatments).toContainText('10 years');
  await expect(treatments).toContainText('Netherlands: 15 years; Poland: 20 years');
  await expect(treatments).toContainText('Deleted');
  await expect(schedule.getByRole('row').filter({ hasText: 'Access and error logs' })).toContainText(
    '2,192 days',
  );
  await expectAccessible(page);

  // Place, by keyboard: the reason is required, then the hold is listed as in force.
  const place = page.getByRole('button', { name: 'Place legal hold' });
  await place.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Place a legal hold' });
  await expect(dialog.getByRole('combobox', { name: 'Held' })).toBeFocused();
  await page.keyboard.press('Tab');
  const subjectId = dialog.getByRole('textbox', { name: 'Patient or machine id' });
  await expect(subjectId).toBeFocused();
  await subjectId.fill(patient._id);
  await dialog.getByRole('button', { name: 'Place legal hold' }).click();
  await expect(dialog.getByText('reason: say why the records are held')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await dialog.getByRole('button', { name: 'Place legal hold' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const holds = page.getByRole('table', { name: 'Legal holds' });
  const row = holds.getByRole('row').filter({ hasText: reason });
  await expect(row).toContainText(`Patient on ${patient.machineNumber}`);
  await expect(row).toContainText('In force');

  // Lift, with a reason: kept with the hold.
  await row.getByRole('button', { name: `Lift: Patient on ${patient.machineNumber}` }).click();
  const lift = page.getByRole('dialog', { name: 'Lift the legal hold' });
  await expect(lift).toContainText(reason);
  await expectAccessible(page);
  await lift.getByRole('textbox', { name: 'Why is the hold lifted?' }).fill(`Case settled ${tag}`);
  await lift.getByRole('button', { name: 'Lift' }).click();
  await expect(lift).toBeHidden();
  await expect(row).toContainText('Lifted');
  await expect(row).toContainText(`Case settled ${tag}`);
  await expect(row.getByRole('button')).toHaveCount(0);
});
