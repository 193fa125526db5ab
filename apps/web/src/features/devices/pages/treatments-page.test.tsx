import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildTreatment, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest } from '#web/test/session.ts';
import { TreatmentsPage } from './treatments-page.tsx';

signedInForEachTest();

const path = '/api/v1/admin/treatement-records/all';
const api = serveTestApi((_request, url) =>
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
  it('lists the records between the URL days (a dashboard link) and asks the API for exactly them', async () => {
    renderAt('/admin/treatments?from=2026-11-01&to=2026-11-30');
    expect(await screen.findByRole('heading', { level: 1, name: 'Treatment Records' })).toBeTruthy();
    expect(screen.getByText('Recorded from 2026-11-01 to 2026-11-30 (UTC)')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Treatment records' });
    expect(await within(table).findByText(buildTreatment(2).userName)).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const query = api.queries(path).at(-1)!;
    expect([query.get('from'), query.get('to')]).toEqual(['2026-11-01', '2026-11-30']);
  });

  it('names one day, ignores a malformed day and shows the empty text', async () => {
    renderAt('/admin/treatments?from=2026-12-01&to=2026-12-01');
    expect(await screen.findByText('Recorded on 2026-12-01 (UTC)')).toBeTruthy();
    expect(await screen.findByText('No Treatment found.')).toBeTruthy();
  });

  it('leaves a malformed day out of the request', async () => {
    renderAt('/admin/treatments?from=yesterday');
    expect(await screen.findByText('All treatment records')).toBeTruthy();
    await screen.findByRole('table', { name: 'Treatment records' });
    expect(api.queries(path).at(-1)!.get('from')).toBeNull();
  });
});
