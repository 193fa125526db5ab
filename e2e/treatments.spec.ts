import { expect, signIn, test } from './support/fixtures.ts';

/*
 * Issue 35 item 7: Treatment Records from the sidebar, the latest started first, narrowed by a plan
 * chosen from its facet (with its count), which the list's total then equals.
 */
test('Treatment Records lists the latest started first and narrows to a plan by its facet', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Treatment Records' }).click();
  await expect(page.getByRole('heading', { name: 'Treatment Records', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Treatment records' });
  await expect(table.locator('tbody tr')).toHaveCount(10);

  // Start Time is DD/MM/YYYY HH:mm:ss: as a sortable text it is YYYYMMDDHHmmss.
  const starts = async () =>
    (await table.locator('tbody tr td:nth-child(5)').allTextContents()).map((text) =>
      text.replace(/^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d):(\d\d)$/, '$3$2$1$4$5$6'),
    );
  const first = await starts();
  expect(first).toEqual([...first].sort().reverse());

  const plan = page.getByLabel('Plan');
  const option = plan.locator('option').nth(1);
  await expect(option).toHaveText(/\(\d[\d,]*\)$/);
  const [, name, count] = /^(.*) \(([\d,]+)\)$/.exec((await option.textContent())!)!;
  await plan.selectOption({ label: `${name} (${count})` });
  await expect(page).toHaveURL(/treatmentPlan=/);
  await expect(page.getByText(`${count} treatment records`)).toBeVisible();
  const plans = await table.locator('tbody tr td:nth-child(4)').allTextContents();
  expect(new Set(plans)).toEqual(new Set([name]));
  const narrowed = await starts();
  expect(narrowed).toEqual([...narrowed].sort().reverse());
});
