import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { ExportCsvButton } from './export-csv-button.tsx';

/* The button of every list's export (issue 17 item 3); its running part loads on first use. */

const csv: Answer = { status: 200, body: 'Name\r\n', headers: { 'content-type': 'text/csv; charset=utf-8' } };
let held = heldAnswer();
afterEach(() => held.release(csv));
const api = serveTestApi(() => held.answer);
beforeAll(() => {
  // jsdom keeps no files: the saved file's address is all the button needs.
  URL.createObjectURL = () => 'blob:export';
  URL.revokeObjectURL = () => undefined;
});

function Page() {
  return (
    <ExportCsvButton
      path="/api/v1/admin/things/export"
      query={{ search: 'x' }}
      columns={{ shown: ['c', 'a', 'b'], exportable: { a: 'A', c: 'C' } }}
      expectedRows={1234}
      fileName="things"
    />
  );
}

describe('ExportCsvButton', () => {
  it('shows the progress against the rows that match while the file streams, then says how many rows it held', async () => {
    held = heldAnswer();
    renderPage({ path: '/', Component: Page, at: '/' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const bar = await screen.findByRole('progressbar', { name: 'Export progress' });
    expect(bar.getAttribute('aria-valuetext')).toBe('Exported 0 of 1,234 rows');
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    await waitFor(() => expect(api.queries('/api/v1/admin/things/export')).toHaveLength(1));
    const query = api.queries('/api/v1/admin/things/export')[0]!;
    // The shown columns the export can write, in the shown order.
    expect([query.get('search'), query.get('columns')]).toEqual(['x', 'c,a']);
    held.release(csv);
    expect(await screen.findByText('Exported 0 rows')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('stops the download on Cancel export, without an error', async () => {
    held = heldAnswer();
    renderPage({ path: '/', Component: Page, at: '/' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(api.queries('/api/v1/admin/things/export')).toHaveLength(1));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel export' }));
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByText('The export failed. Try again.')).toBeNull();
  });
});
