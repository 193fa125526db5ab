import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { buildDemoApk } from '../apps/api/src/modules/app-updates/zip-writer.ts';
import { e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 38 item 2 "Done when" (decision 083): a rollout approval asks for the meaning and shows the
 * signature. The first admin publishes a Force release, which waits for a second admin
 * (ROLLOUT_SECOND_ADMIN, on by default); the second admin approves it by keyboard, choosing the
 * meaning and typing the password in the signing dialog, and the rollout then shows "Signed by
 * <name> · <time> · Approval" with the hash of what was signed. Axe on the dialog and the page.
 */

test.describe.configure({ timeout: 120_000 });

/** The first admin's API session, stepped up (adding an admin and a Force release ask for it). */
async function adminHeaders(request: APIRequestContext) {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const stepUp = await request.post('/api/v1/admin/profile/step-up', {
    headers,
    data: { password: e2eAdmin.password },
  });
  expect(stepUp.status(), await stepUp.text()).toBe(200);
  return headers;
}

test('a rollout approval asks for the meaning and shows the signature', async ({ page, request }) => {
  const tag = randomBytes(3).toString('hex');
  const appName = `E2E Signed ${tag}`;
  const pkg = `com.e2e.signed${tag}`;
  const headers = await adminHeaders(request);

  // The second admin: a role of their own that may publish releases.
  const role = await request.post('/api/v1/admin/roles', {
    headers,
    data: {
      roleName: `Release approver ${tag}`,
      type: 'admin',
      permissions: ['devices.view', 'app-updates.publish'],
    },
  });
  expect(role.status(), await role.text()).toBe(201);
  const approver = {
    email: `approver.${tag}@example.com`,
    password: `Approver-${tag}-Pass1`,
    name: `Signer ${tag}`,
  };
  const user = await request.post('/api/v1/admin/users/', {
    headers,
    data: {
      firstName: 'Signer',
      lastName: tag,
      userName: `signer_${tag}`,
      email: approver.email,
      phone: '0123456789',
      roleId: (await role.json()).data._id,
      password: approver.password,
    },
  });
  expect(user.status(), await user.text()).toBe(201);

  // The first admin publishes 1.0 to a first stage, then 2.0 as a Force update: it waits for approval.
  const upload = async (versionCode: number, fields: Record<string, string>) => {
    const res = await request.post('/api/v1/admin/system/updates', {
      headers,
      multipart: {
        appName,
        versionCode: String(versionCode),
        versionName: `${versionCode}.0.0`,
        remark: 'Signed release',
        updateDesc: 'Needs a second admin',
        ...fields,
        apk: {
          name: 'app.apk',
          mimeType: 'application/octet-stream',
          buffer: buildDemoApk(pkg, versionCode, 0, `${versionCode}.0.0`),
        },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).data as { approvalPending: string | null };
  };
  await upload(1, { updateType: '1', rolloutPercent: '5' });
  expect((await upload(2, { updateType: '2' })).approvalPending).toBe('release');

  // The second admin approves it on the App Update list, by keyboard.
  await signIn(page, approver);
  await page.goto('/admin/app-update');
  const row = page.getByRole('row').filter({ hasText: '2.0.0' }).filter({ hasText: appName });
  await expect(row).toContainText('Awaiting approval');
  const approve = row.getByRole('button', { name: `Approve: ${appName} 2.0.0` });
  await approve.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Approve: ${appName} 2.0.0` });
  await expect(dialog.getByRole('group', { name: 'Electronic signature' })).toBeVisible();
  const meaning = dialog.getByRole('combobox', { name: 'Meaning' });
  await expect(meaning).toHaveValue('');
  // Signing without a meaning or password says what is missing, under each field.
  await dialog.getByRole('button', { name: 'Sign and approve' }).click();
  await expect(dialog.getByText('Meaning is required')).toBeVisible();
  await expect(dialog.getByText('Password is required')).toBeVisible();
  await expectAccessible(page);

  await meaning.focus();
  await page.keyboard.press('ArrowDown');
  await expect(meaning).toHaveValue('approval');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Your password')).toBeFocused();
  await page.keyboard.type(approver.password);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Approved', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  // The rollout shows the signature: printed name, time, meaning, and the hash of what was signed.
  const line = row.getByTestId('signature-line');
  await expect(line).toContainText(
    new RegExp(`Signed by ${approver.name} · \\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}:\\d{2} · Approval`),
  );
  await expect(line.getByText(/^Content hash [0-9a-f]{64}$/)).toBeAttached();
  await expect(row).not.toContainText('Awaiting approval');
  await expectAccessible(page);
});
