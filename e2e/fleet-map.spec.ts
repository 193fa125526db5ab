import { test, expect, signIn, expectAccessible } from './support/fixtures.ts';

test.describe.configure({ timeout: 120_000 });

/** Machine numbers a marker's label names, and the machines a cluster's label counts. */
const readMarkers = async (labels: string[]) => {
  const single = labels.filter((l) => !/ machines? here:/.test(l)).map((l) => l.split(',')[0]!);
  const clustered = labels
    .map((l) => / machines? here:/.test(l) && Number(l.split(' ')[0]!.replace(/,/g, '')))
    .filter((n): n is number => typeof n === 'number');
  return { single, total: single.length + clustered.reduce((a, b) => a + b, 0) };
};

test("the map shows the list's filtered machines, clustered, and a machine opens its page by keyboard", async ({
  page,
}) => {
  await signIn(page);
  // The list first: every machine the search finds, on one page.
  await page.goto('/admin/device?search=germany&limit=50');
  const table = page.getByRole('table', { name: 'Devices' });
  // A machine's row, not the spinner's row that stands in while the kept page size is read.
  await expect(table.getByRole('cell', { name: /^[A-Z]+-\d+$/ }).first()).toBeVisible();
  // The Machine Number column, found by its header (a selection box and Sr No come before it).
  const column = await table
    .getByRole('columnheader')
    .evaluateAll((cells) => cells.findIndex((c) => c.textContent!.trim() === 'Machine Number'));
  const listed = await table
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .evaluateAll((rows, i) => rows.map((row) => row.children[i]!.textContent!.trim()), column);
  // Machine numbers, not the running Sr No: other specs add machines in Germany such as CMD-A1B2C3,
  // CU59754B-2 or CDE4029E, so a number is capitals, digits and dashes with at least one letter.
  expect(listed.filter((n) => !/^(?=.*[A-Z])[A-Z0-9-]+$/.test(n))).toEqual([]);
  expect(listed.length).toBeGreaterThan(1);

  // The Map view keeps the search in the URL and shows exactly those machines.
  await page.getByRole('button', { name: 'Map' }).click();
  await expect(page).toHaveURL(/view=map/);
  await expect(page).toHaveURL(/search=germany/);
  await expect(page.getByRole('button', { name: 'Map' })).toHaveAttribute('aria-pressed', 'true');
  const map = page.getByRole('region', { name: 'Fleet map' });
  await expect(page.getByText(`${listed.length} machines match; ${listed.length} in view.`)).toBeVisible();
  const markers = map.locator('.fleet-map-point');
  await expect(markers.first()).toBeVisible();
  const shown = await readMarkers(
    await markers.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!)),
  );
  expect(shown.total).toBe(listed.length);
  for (const number of shown.single) expect(listed).toContain(number);
  await expectAccessible(page);

  // A reload keeps the view; the map opens again on the matches.
  await page.reload();
  await expect(page.getByText(`${listed.length} machines match; ${listed.length} in view.`)).toBeVisible();

  // The online filter narrows the map like the list.
  await page.getByLabel('Online', { exact: true }).selectOption({ label: 'Never seen' });
  await expect(page).toHaveURL(/online=never/);
  await expect(
    page.getByText(/^(No device matches\.|\d+ machines? match(es)?; \d+ in view\.)$/),
  ).toBeVisible();
  await page.getByLabel('Online', { exact: true }).selectOption({ label: 'All machines' });
  await expect(page.getByText(`${listed.length} machines match; ${listed.length} in view.`)).toBeVisible();

  // A lone machine's marker is a button: Enter opens its Device Details.
  const lone = map.locator(
    '.fleet-map-point[aria-label$="online"], .fleet-map-point[aria-label$="offline"], .fleet-map-point[aria-label$="never seen"]',
  );
  await expect(lone.first()).toBeVisible();
  const name = (await lone.first().getAttribute('aria-label'))!.split(',')[0]!;
  await lone.first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Device Details', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Device Details' }).getByText(name, { exact: true }),
  ).toBeVisible();
});

test("the whole fleet's map (/admin/device?view=map) passes axe: a lone machine's marker is 24 px and drawn above the clusters", async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/admin/device?view=map');
  const map = page.getByRole('region', { name: 'Fleet map' });
  await expect(map.locator('.fleet-map-point').first()).toBeVisible();
  await expectAccessible(page);
});
