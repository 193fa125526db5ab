import type { APIRequestContext } from '@playwright/test';
import { test, expect, signIn, expectAccessible, e2eAdmin, confirmStepUp } from './support/fixtures.ts';

/* Decision 055: bulk status change on Device Management and bulk delete on User Management. */

test.describe.configure({ timeout: 180_000 });

const tag = `BLK${Date.now().toString(36).slice(-5)}`.toUpperCase();
const shots = (name: string) => test.info().outputPath(name);

/** The first admin's API session, for seeding through the real routes. */
async function apiAs(request: APIRequestContext) {
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  return { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
}

test('picks machines, selects all matching and deactivates them, answered machine by machine', async ({
  page,
  request,
}) => {
  // Twelve machines only this test's search finds: more than the first page of ten.
  const headers = await apiAs(request);
  for (let i = 1; i <= 12; i++) {
    const res = await request.post('/api/v1/admin/machine/add', {
      headers,
      data: {
        machineNumber: `${tag}-${String(i).padStart(2, '0')}`,
        serialNumber: `SN-${tag}-${i}`,
        location: `Bulk ward ${tag}`,
        latitude: 38.7,
        longitude: -9.1,
        city: 'Lisbon',
        country: 'Portugal',
        address: '1 Rua Augusta',
        status: 2,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }

  await signIn(page);
  await page.goto(`/admin/device?search=${tag.toLowerCase()}`);
  const table = page.getByRole('table', { name: 'Devices' });
  await expect(table.getByRole('row')).toHaveCount(11);

  // Two machines by their own boxes, by keyboard for the second.
  await table.getByRole('checkbox', { name: `Select ${tag}-12` }).check();
  await table.getByRole('checkbox', { name: `Select ${tag}-11` }).focus();
  await page.keyboard.press('Space');
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar.getByRole('status')).toHaveText('2 selected');

  // The whole page, then every match across pages.
  await table.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(bar.getByRole('status')).toHaveText('10 selected');
  await bar.getByRole('button', { name: 'Select all 12 matching' }).click();
  await expect(bar.getByRole('status')).toHaveText('All 12 matching selected');
  await expectAccessible(page);
  await page.screenshot({ path: shots('selection-bar.png') });

  await bar.getByRole('button', { name: 'Deactivate' }).click();
  const confirm = page.getByRole('dialog', { name: 'Deactivate Machines' });
  await expect(confirm.getByText('Are you sure you want to deactivate 12 machines?')).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'No' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Yes' }).click();
  // Stopping machines in bulk asks for the password first (decision 063).
  await confirmStepUp(page);

  const results = page.getByRole('dialog', { name: 'Deactivate: results' });
  await expect(results.getByText('12 done, 0 refused')).toBeVisible();
  await expect(results.getByRole('row')).toHaveCount(13);
  await expect(results.getByRole('row', { name: new RegExp(`${tag}-01 Done`) })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: shots('bulk-results.png') });
  await results.getByRole('button', { name: 'Close' }).last().click();
  await expect(results).toBeHidden();

  // The list shows the new status on both pages, and the selection is gone.
  await expect(bar).toBeHidden();
  for (const n of ['12', '03']) await expect(table.getByLabel(`Status of ${tag}-${n}`)).toHaveValue('1');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(table.getByLabel(`Status of ${tag}-01`)).toHaveValue('1');
  await expect(table.getByRole('checkbox', { name: `Select ${tag}-01` })).not.toBeChecked();
});

test("deletes users in bulk after the spec's confirmation, refusing the signed-in admin", async ({
  page,
  request,
}) => {
  const headers = await apiAs(request);
  const roles = (await (await request.get('/api/v1/admin/roles/all', { headers })).json()).data.roles as {
    _id: string;
    type: string;
  }[];
  const names = [`bulk_${tag.toLowerCase()}_a`, `bulk_${tag.toLowerCase()}_b`];
  for (const userName of names) {
    const res = await request.post('/api/v1/admin/users/', {
      headers,
      data: {
        firstName: 'Bulk',
        lastName: 'Deleted',
        userName,
        email: `${userName}@example.com`,
        phone: '0123456789',
        // An app role: creating one needs no step-up.
        roleId: roles.find((r) => r.type === 'app')!._id,
        password: 'Bulk-Pass-123',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }

  await signIn(page);
  await page.goto('/admin/user-management');
  const table = page.getByRole('table', { name: 'Users' });
  for (const userName of names) await table.getByRole('checkbox', { name: `Select ${userName}` }).check();
  // The signed-in admin too: refused, with the reason.
  // The first admin is the oldest user: on the last page, newest first.
  const me = table.getByRole('row', { name: /admin@example\.com/ });
  const next = page.getByRole('button', { name: 'Next' });
  for (let i = 0; i < 20 && !(await me.isVisible()); i++) {
    await next.click();
    await page.waitForLoadState('networkidle');
  }
  await expect(me).toBeVisible();
  await me.getByRole('checkbox').check();
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar.getByRole('status')).toHaveText('3 selected');

  await bar.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Data' });
  await expect(confirm.getByText('Are you sure you want to delete this?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Yes' }).click();
  // Deleting users in bulk asks for the password first (decision 063).
  await confirmStepUp(page);

  const results = page.getByRole('dialog', { name: 'Delete: results' });
  await expect(results.getByText('2 done, 1 refused')).toBeVisible();
  await expect(
    results.getByRole('row', { name: /Refused You cannot delete your own account/ }),
  ).toBeVisible();
  await results.getByRole('button', { name: 'Close' }).last().click();
  await page.goto('/admin/user-management');
  await expect(table.getByRole('checkbox').nth(1)).toBeVisible();
  for (const userName of names) await expect(table.getByText(userName, { exact: true })).toBeHidden();
});
