import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { checkForUpdate } from '@app/fleet-simulator/app-update-check';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { buildDemoApk } from '../apps/api/src/modules/app-updates/zip-writer.ts';
import { confirmStepUp, e2eAdmin, expect, expectAccessible, signIn, test } from './support/fixtures.ts';

/*
 * Issue 37 "Done when": a Force update marked to respect maintenance windows reaches a busy machine
 * only after its treatment ends, inside its window. The admin uploads the release with "Respect
 * maintenance windows" checked; a second admin approves it (a Force release waits for one). The
 * machine (the fleet simulator's update check over a device client) is told to wait for its window,
 * then, the window moved to now, for its treatment; the App Update list counts it as waiting; once
 * the treatment ends it installs the release and reports it.
 */

test.describe.configure({ timeout: 180_000 });

const hhmm = (at: Date, minutes: number) =>
  new Date(at.getTime() + minutes * 60_000).toISOString().slice(11, 16);

/** A signed-in admin's bearer header over the browser's request context, its password confirmed. */
async function bearer(request: APIRequestContext, email: string, password: string) {
  const login = await request.post('/api/v1/admin/login', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const headers = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const stepUp = await request.post('/api/v1/admin/profile/step-up', { headers, data: { password } });
  expect(stepUp.status(), await stepUp.text()).toBe(200);
  return headers;
}

test('a Force update that respects windows waits for the window and the treatment, then reaches the machine', async ({
  page,
  baseURL,
  request,
}) => {
  const tag = randomBytes(3).toString('hex');
  const pkg = `com.e2e.window${tag}`;
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const device = await admin.addDevice({
    machineNumber: `UW-${tag.toUpperCase()}`,
    serialNumber: `SN-UW-${tag}`,
    location: 'Update Window Clinic',
    latitude: 41.9,
    longitude: 12.5,
    city: 'Rome',
    country: 'Italy',
    address: '1 Via del Corso',
  });
  const client = new DeviceClient({ baseUrl: baseURL! });
  await client.enrol((await admin.issueEnrolmentCode(device._id)).code);
  const log: string[] = [];
  const machine = {
    client,
    app: { code: 1, name: '1.0.0' },
    appLog: { add: (line: string) => log.push(line) },
  };
  const beat = (busy: boolean) =>
    client.heartbeat(machine.app.code, machine.app.name, { appName: pkg, busy });
  const serverNow = new Date((await beat(false)).serverTime);

  // A window that opens in an hour.
  const headers = await bearer(request, e2eAdmin.email, e2eAdmin.password);
  const setWindow = async (from: number, to: number) => {
    const res = await request.put(`/api/v1/admin/machine/${device._id}/maintenance-window`, {
      headers,
      data: { window: { start: hhmm(serverNow, from), end: hhmm(serverNow, to), timeZone: 'UTC' } },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  await setWindow(60, 120);

  // The release, from the console: Force, respecting windows.
  await signIn(page);
  await page.goto('/admin/app-update');
  await page.getByRole('button', { name: 'Add App Update' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add App Update' });
  await dialog.getByLabel(/App Name/).fill(pkg);
  await dialog.getByLabel(/Update Type/).selectOption({ label: 'Force' });
  await dialog.getByLabel('Respect maintenance windows').check();
  await dialog.getByLabel(/Version Code/).fill('2');
  await dialog.getByLabel(/Version Name/).fill('2.0.0');
  await dialog.getByLabel(/Remark/).fill('Window release');
  await dialog.getByLabel(/Update Description/).fill('Waits for the maintenance window');
  await dialog.getByLabel(/APK File/).setInputFiles({
    name: `${pkg}-2.0.0.apk`,
    mimeType: 'application/vnd.android.package-archive',
    buffer: buildDemoApk(pkg, 2, 0, '2.0.0'),
  });
  await expect(dialog.getByText(`package ${pkg}, version code 2`)).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await confirmStepUp(page);
  await expect(page.getByText('App update added successfully')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: pkg });
  await expect(row).toContainText('Awaiting approval');

  // A second admin approves it, signing with their password (decision 083).
  const second = { email: `approver-${tag}@e2e.example`, password: `Approve-${tag}-Pw1` };
  const roles = await request.get('/api/v1/admin/roles/all', { headers });
  const adminRole = ((await roles.json()).data.roles as { _id: string; roleName: string }[]).find(
    (r) => r.roleName === 'Admin',
  )!;
  const created = await request.post('/api/v1/admin/users/', {
    headers,
    data: {
      firstName: 'Second',
      lastName: 'Approver',
      roleId: adminRole._id,
      userName: `approver-${tag}`,
      email: second.email,
      phone: '5550001234',
      password: second.password,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const releases = await request.get('/api/v1/admin/system/updates/all?limit=100', { headers });
  const release = ((await releases.json()).data.allSystems as { _id: string; appName: string }[]).find(
    (r) => r.appName === pkg,
  )!;
  const approved = await request.post(`/api/v1/admin/system/updates/${release._id}/rollout`, {
    headers: await bearer(request, second.email, second.password),
    data: { action: 'approve', signature: { meaning: 'approval', password: second.password } },
  });
  expect(approved.status(), await approved.text()).toBe(200);

  // Outside the window: the machine is told to wait, and the list says so.
  expect(await checkForUpdate(machine, pkg)).toBe('waiting');
  expect(log.at(-1)).toBe('Update to 2.0.0 waits: outside the maintenance window');
  await page.reload();
  await expect(row).toContainText('1 on an older version (1 waiting for window)');

  // A treatment starts (the busy flag is written within a second: read it back until then), and
  // the window opens: still waiting, for the treatment now.
  await beat(true);
  await expect(async () => {
    const res = await request.get(`/api/v1/admin/machine/${device._id}/maintenance-window`, { headers });
    expect((await res.json()).data.busySince).not.toBeNull();
  }).toPass();
  await setWindow(-30, 90);
  expect(await checkForUpdate(machine, pkg)).toBe('waiting');
  expect(log.at(-1)).toBe('Update to 2.0.0 waits: a treatment runs');
  await page.reload();
  await expect(row).toContainText('(1 waiting for a treatment to end)');

  // The treatment over: the update is offered, forced, installed; the next heartbeat reports it.
  await beat(false);
  await expect(async () => {
    const res = await request.get(`/api/v1/admin/machine/${device._id}/maintenance-window`, { headers });
    expect((await res.json()).data.busySince).toBeNull();
  }).toPass();
  expect(await checkForUpdate(machine, pkg)).toBe('updated');
  expect(log.at(-1)).toBe('Updated to 2.0.0 (2), forced');
  expect(machine.app).toEqual({ code: 2, name: '2.0.0' });
  await beat(false);
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText(/^.*1 of \d+ updated/, { timeout: 5_000 });
  }).toPass();
  await expect(row).not.toContainText('waiting');
  await expectAccessible(page);
});
