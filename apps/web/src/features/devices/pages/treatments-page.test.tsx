import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildTreatment, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest } from '#web/test/session.ts';
import { headersOf, keptListPreferences, reorderAndHide } from '#web/test/list-preferences.ts';
import { TreatmentsPage } from './treatments-page.tsx';

signedInForEachTest();

const path = '/api/v1/admin/treatement-records/all';
const prefs = keptListPreferences('treatments');
const facetsPath = '/api/v1/admin/treatement-records/facets';
const api = serveTestApi(
  (request, url) =>
    prefs.answer(request, url) ??
    (url.pathname === facetsPath
      ? ok({
          treatmentPlans: [
            { value: 'Knee', label: 'Knee', count: 1204 },
            { value: 'Back', label: 'Back', count: 3 },
          ],
          treatmentDevices: [{ value: 'ShockWave S1', label: 'ShockWave S1', count: 1207 }],
        })
      : null) ??
    ok({
      data: url.searchParams.get('from') === '2026-12-01' ? [] : [buildTreatment(1), buildTreatment(2)],
      total_pages: 1,
      total: 2,
      page: 1,
      limit: 10,
    }),
);
const renderAt = (at: string) => renderPage({ path: '/admin/treatments', Component: TreatmentsPage, at });

describe('Treatment Records', () => {
  it('offers the plans and treatment devices with their counts, and narrows the list to a choice', async () => {
    renderAt('/admin/treatments?from=2026-11-01');
    await screen.findByRole('table', { name: 'Treatment records' });
    const plan = screen.getByLabelText('Plan');
    await within(plan).findByRole('option', { name: 'Knee (1,204)' });
    await userEvent.selectOptions(plan, 'Knee');
    await waitFor(() => expect(api.queries(path).at(-1)!.get('treatmentPlan')).toBe('Knee'));
    expect(api.queries(path).at(-1)!.get('from')).toBe('2026-11-01');
    // The counts follow the other filters: the device facet's request carries the plan and the days.
    await waitFor(() => expect(api.queries(facetsPath).at(-1)!.get('treatmentPlan')).toBe('Knee'));
    expect(api.queries(facetsPath).at(-1)!.get('from')).toBe('2026-11-01');

    await userEvent.selectOptions(screen.getByLabelText('Treatment device'), 'ShockWave S1');
    await waitFor(() => expect(api.queries(path).at(-1)!.get('treatmentDevice')).toBe('ShockWave S1'));
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-30' } });
    await waitFor(() => expect(api.queries(path).at(-1)!.get('to')).toBe('2026-11-30'));
    expect(screen.getByText('Started from 2026-11-01 to 2026-11-30 (UTC)')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(api.queries(path).at(-1)!.get('treatmentPlan')).toBeNull());
    const last = api.queries(path).at(-1)!;
    expect([last.get('treatmentDevice'), last.get('from'), last.get('to')]).toEqual([null, null, null]);
    expect(screen.getByText('All treatment records')).toBeTruthy();
  });

  it('lists the records between the URL days (a dashboard link) and asks the API for exactly them', async () => {
    renderAt('/admin/treatments?from=2026-11-01&to=2026-11-30');
    expect(await screen.findByRole('heading', { level: 1, name: 'Treatment Records' })).toBeTruthy();
    expect(screen.getByText('Started from 2026-11-01 to 2026-11-30 (UTC)')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Treatment records' });
    expect(await within(table).findByText(buildTreatment(2).userName)).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const query = api.queries(path).at(-1)!;
    expect([query.get('from'), query.get('to')]).toEqual(['2026-11-01', '2026-11-30']);
  });

  it('names one day, ignores a malformed day and shows the empty text', async () => {
    renderAt('/admin/treatments?from=2026-12-01&to=2026-12-01');
    expect(await screen.findByText('Started on 2026-12-01 (UTC)')).toBeTruthy();
    expect(await screen.findByText('No Treatment found.')).toBeTruthy();
  });

  it('leaves a malformed day out of the request', async () => {
    renderAt('/admin/treatments?from=yesterday');
    expect(await screen.findByText('All treatment records')).toBeTruthy();
    await screen.findByRole('table', { name: 'Treatment records' });
    // The request waits for the kept page size.
    await waitFor(() => expect(api.queries(path)).toHaveLength(1));
    expect(api.queries(path)[0]!.get('from')).toBeNull();
  });

  it('asks once, at the page size the admin kept, and keeps a new one', async () => {
    prefs.kept = { columns: null, pageSize: 25, sort: null };
    renderAt('/admin/treatments');
    await within(await screen.findByRole('table', { name: 'Treatment records' })).findByText(
      buildTreatment(1).userName,
    );
    expect(api.queries(path).map((q) => q.get('limit'))).toEqual(['25']);
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '10');
    await waitFor(() => expect(prefs.kept).toMatchObject({ pageSize: 10 }));
  });

  it("opens at the URL's page size over the kept one, with the URL's search and a Views menu", async () => {
    prefs.kept = { columns: null, pageSize: 10, sort: null };
    renderAt('/admin/treatments?limit=25&search=Treat');
    await screen.findByRole('table', { name: 'Treatment records' });
    await waitFor(() => expect(api.queries(path)).toHaveLength(1));
    expect([api.queries(path)[0]!.get('limit'), api.queries(path)[0]!.get('search')]).toEqual([
      '25',
      'Treat',
    ]);
    expect(screen.getByRole('button', { name: 'Views' })).toBeTruthy();
  });

  it('shows the kept columns in their order, and keeps a new order and a hidden column', async () => {
    prefs.kept = { columns: ['treatmentPlan', 'userName', 'treatmentDuration'], pageSize: null, sort: null };
    renderAt('/admin/treatments');
    const table = await screen.findByRole('table', { name: 'Treatment records' });
    await within(table).findByText(buildTreatment(1).userName);
    expect(headersOf(table)).toEqual(['Sr No', 'Treatment Plan', 'User Name', 'Duration', 'Action']);
    await reorderAndHide({ moveUp: 'Duration', hide: 'Treatment Plan' });
    expect(headersOf(table)).toEqual(['Sr No', 'Duration', 'User Name', 'Action']);
    await waitFor(() => expect(prefs.kept).toMatchObject({ columns: ['treatmentDuration', 'userName'] }));
  });
});
