import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { test, expect, signIn, e2eAdmin } from './support/fixtures.ts';

test.describe.configure({ timeout: 150_000 });

/** Clicks Export CSV (of `within`, when a page has several) and reads the file it saves: its name, header and rows. */
async function exportedCsv(page: Page, within: Page | Locator = page) {
  const downloading = page.waitForEvent('download');
  await within.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  const parts = await (await download.createReadStream()).toArray();
  const [header, ...lines] = Buffer.concat(parts)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  return { fileName: download.suggestedFilename(), header, lines };
}

test('Export CSV writes exactly the filtered list, in the columns shown', async ({
  page,
  request,
  baseURL,
}) => {
  // Machines of this test's own, in a country of their own: other specs add and deactivate machines
  // on the same server at the same time (Portugal, France), and once one landed in this list between
  // the export and the check. Two Active and one Inactive.
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const country = `Exportland ${tag}`;
  const admin = new AdminClient({ baseUrl: baseURL! }, e2eAdmin.email, e2eAdmin.password);
  const added = [];
  for (const n of [1, 2, 3])
    added.push(
      await admin.addDevice({
        machineNumber: `EXP-${tag}-${n}`,
        serialNumber: `SN-EXP-${tag}-${n}`,
        location: `Export Clinic ${n}`,
        latitude: 47.0707,
        longitude: 15.4395,
        city: 'Graz',
        country,
        address: `${n} Exportgasse`,
      }),
    );
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const token = (await login.json()).data.accessToken as string;
  const inactive = await request.put(`/api/v1/admin/machine/${added[2]!._id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { status: 1 },
  });
  expect(inactive.status(), await inactive.text()).toBe(200);

  await signIn(page);
  await page.goto('/admin/device');
  const table = page.getByRole('table', { name: 'Devices' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  // Two facets from the list's own offer: the country, and Active machines there.
  const facets = page.getByRole('group', { name: 'Filters' });
  await facets.getByRole('combobox', { name: 'Country' }).selectOption(country);
  await facets.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Active' });
  await expect(page).toHaveURL(/status=2/);
  await expect(table.getByRole('row')).toHaveCount(3);

  const { fileName, header, lines } = await exportedCsv(page);
  expect(fileName).toMatch(/^devices-\d{4}-\d{2}-\d{2}\.csv$/);
  // The default columns shown: Machine Number, Serial Number, Location, Status, Subscription Status.
  expect(header).toBe('Machine Number,Serial Number,Location,Status,Subscription Status');
  await expect(page.getByText('Exported 2 rows')).toBeVisible();
  expect(lines.sort()).toEqual([
    `EXP-${tag}-1,SN-EXP-${tag}-1,Export Clinic 1,Active,N/A`,
    `EXP-${tag}-2,SN-EXP-${tag}-2,Export Clinic 2,Active,N/A`,
  ]);

  // The same filter through the list's API: the same machines.
  const res = await request.get('/api/v1/admin/machine', {
    headers: { authorization: `Bearer ${token}` },
    params: { country, status: '2', limit: 100 },
  });
  const listed = (await res.json()).data.allDevices.map((d: { machineNumber: string }) => d.machineNumber);
  expect(lines.map((l) => l.split(',')[0]).sort()).toEqual(listed.sort());
});

test('Export CSV on Subscription Management holds the filtered links', async ({ page, request }) => {
  await signIn(page);
  await page.goto('/admin/subscription-management?status=1');
  const table = page.getByRole('table', { name: 'Subscriptions' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const { fileName, header, lines } = await exportedCsv(page);
  expect(fileName).toMatch(/^subscriptions-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(header).toBe('Name,Email,Machine Serial No.,Amount ($),Link Sent Time,Link Expiry Time,Status');
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const token = (await login.json()).data.accessToken as string;
  const res = await request.get('/api/v1/admin/subscrption/all', {
    headers: { authorization: `Bearer ${token}` },
    params: { status: '1', limit: 1 },
  });
  expect(lines).toHaveLength((await res.json()).data.total);
  expect(lines.every((l) => /,Pending( \(Demo payment\))?$/.test(l))).toBe(true);
});

/** A CSV line's cells (quoted cells, doubled quotes), as the export writes them. */
function cellsOf(line: string) {
  const cells = [''];
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' && quoted && line[i + 1] === '"') {
      cells[cells.length - 1] += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) cells.push('');
    else cells[cells.length - 1] += c;
  }
  return cells;
}

test("Export CSV of a machine's treatment records holds the list's rows, names masked unless ticked", async ({
  page,
  request,
}) => {
  await signIn(page);
  await page.goto('/admin/device?search=MN-1001');
  await page.getByRole('link', { name: 'View MN-1001' }).click();
  const section = page.getByRole('region', { name: 'Treatment Records' });
  await expect(
    section.getByRole('table', { name: 'Treatment records' }).getByRole('row').nth(1),
  ).toBeVisible();

  // The list through its API, every page: what the file must hold, in the list's order.
  const login = await request.post('/api/v1/admin/login', { data: e2eAdmin });
  const token = (await login.json()).data.accessToken as string;
  type Row = {
    userName: string;
    treatmentDevice: string;
    treatmentPlan: string;
    treatmentStartTime: string | null;
    treatmentDuration: number | null;
    totalEnergyOutput: number | null;
  };
  const listed: Row[] = [];
  for (let p = 1; ; p++) {
    const res = await request.get('/api/v1/admin/treatement-records/all', {
      headers: { authorization: `Bearer ${token}` },
      params: { machineNumber: 'MN-1001', limit: 100, page: p },
    });
    const data = (await res.json()).data;
    listed.push(...(data.data as Row[]));
    if (p >= data.total_pages) break;
  }
  const cells = (r: Row, name: string) =>
    [
      name,
      r.treatmentDevice,
      r.treatmentPlan,
      r.treatmentStartTime,
      r.treatmentDuration,
      r.totalEnergyOutput,
    ].map((v) => (v === null ? '' : String(v)));

  const masked = await exportedCsv(page, section);
  expect(masked.fileName).toMatch(/^treatments-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(masked.header).toBe(
    'User Name,Treatment Device,Treatment Plan,Start Time,Duration (min),Total Energy Output (J)',
  );
  expect(listed.length).toBeGreaterThan(0);
  expect(masked.lines.map(cellsOf)).toEqual(listed.map((r) => cells(r, '••••••')));

  // The e2e admin's role carries patients.reveal: it may ask for the names, which is recorded.
  await section.getByRole('checkbox', { name: 'Export patient names unmasked (recorded)' }).check();
  const unmasked = await exportedCsv(page, section);
  expect(unmasked.lines.map(cellsOf)).toEqual(listed.map((r) => cells(r, r.userName)));
  await expect(page.getByText(`Exported ${listed.length.toLocaleString('en')} rows`).first()).toBeVisible();
});
