import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { clearSession, startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, buildTreatment, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { TreatmentsPage } from '../pages/treatments-page.tsx';

/*
 * Decision 058 in the console: Export CSV of a health-data list sends the list's filters; only an
 * admin whose role carries patients.reveal is offered the unmasked file, and asks for it by ticking.
 */

const api = serveTestApi((_request, url) =>
  url.pathname === apiPaths.treatmentsExport
    ? { status: 200, body: 'User Name\r\n', headers: { 'content-type': 'text/csv; charset=utf-8' } }
    : ok({ data: [buildTreatment(1)], total_pages: 1, total: 1, page: 1, limit: 10 }),
);
beforeAll(() => {
  // jsdom keeps no files: the saved file's address is all the button needs.
  URL.createObjectURL = () => 'blob:export';
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => clearSession());

const openTreatments = () =>
  renderPage({
    path: '/admin/treatments',
    Component: TreatmentsPage,
    at: '/admin/treatments?from=2026-11-01&to=2026-11-30',
  });
const exported = () => api.queries(apiPaths.treatmentsExport);

describe('Export CSV of treatment records', () => {
  it("sends the list's filters, masked, and offers no unmasked file without patients.reveal", async () => {
    startSession(buildAdminProfile(['patients.view']), 'a.b.c');
    const user = userEvent.setup();
    openTreatments();
    await screen.findByText(buildTreatment(1).userName);
    expect(screen.queryByRole('checkbox', { name: /unmasked/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(exported()).toHaveLength(1));
    const query = exported()[0]!;
    expect([query.get('from'), query.get('to'), query.get('reveal')]).toEqual([
      '2026-11-01',
      '2026-11-30',
      null,
    ]);
  });

  it('asks for the unmasked file when an admin with patients.reveal ticks it', async () => {
    startSession(buildAdminProfile(['patients.view', 'patients.reveal']), 'a.b.c');
    const user = userEvent.setup();
    openTreatments();
    await screen.findByText(buildTreatment(1).userName);
    await user.click(screen.getByRole('checkbox', { name: 'Export patient names unmasked (recorded)' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(exported()).toHaveLength(1));
    expect(exported()[0]!.get('reveal')).toBe('true');
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });
});
