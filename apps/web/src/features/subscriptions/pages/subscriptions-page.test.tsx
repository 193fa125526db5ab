import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { startTestServer, type Answer, type Recorded } from '#web/test/http-server.ts';
import { SubscriptionsPage } from './subscriptions-page.tsx';
import { renderRouter } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { headersOf, reorderAndHide } from '#web/test/list-preferences.ts';

// Decision 047: what these screens offer follows the role; here it carries every permission.
signedInForEachTest();

const row = (i: number, status: number, demoPayment = false) => ({
  _id: `id${i}`,
  fullName: `Customer ${i}`,
  email: `c${i}@example.com`,
  machineSerialNumber: `SN-${i}`,
  amount: 1234.5,
  isRecurring: false,
  planType: null,
  status,
  createdAt: '2025-03-04T10:00:00.000Z',
  expiredAt: '2025-03-11T10:00:00.000Z',
  paidAt: null,
  link: `http://localhost/plans/id${i}`,
  demoPayment,
});

let list: unknown[] = [];
// The admin's kept preferences for this list (decision 053).
let kept: object | undefined;
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer((request: Recorded): Answer => {
    if (request.url.startsWith('/api/v1/admin/subscrption/all'))
      return {
        status: 200,
        body: {
          code: 200,
          msg: 'Success',
          data: {
            subscriptions: list,
            total_pages: list.length ? 3 : 0,
            total: list.length,
            page: 1,
            limit: 10,
          },
        },
      };
    if (request.url === '/api/v1/admin/subscrption/add')
      return {
        status: 201,
        body: { code: 201, msg: 'Subscription created and the payment link sent', data: row(9, 1) },
      };
    const answer = (data: unknown) => ({ status: 200, body: { code: 200, msg: 'Success', data } });
    if (request.url === '/api/v1/admin/preferences')
      return answer({ lists: kept ? { subscriptions: kept } : {} });
    if (request.url === '/api/v1/admin/preferences/lists/subscriptions')
      return answer((kept = JSON.parse(request.body) as object));
    if (request.url.startsWith('/api/v1/admin/views')) return answer({ views: [] });
    return { status: 404, body: { code: 404, msg: 'Route not found', data: null } };
  });
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  list = [];
  kept = undefined;
});

function renderPage(at = '/admin/subscription-management') {
  const router = createMemoryRouter(
    [{ path: '/admin/subscription-management', Component: SubscriptionsPage }],
    { initialEntries: [at] },
  );
  renderRouter(router);
  return router;
}
const listQueries = () =>
  server.requests
    .filter((r) => r.url.startsWith('/api/v1/admin/subscrption/all'))
    .map((r) => new URL(r.url, 'http://api').searchParams);

describe('Subscription Management', () => {
  it('searches by customer or serial and keeps the search in the URL (issue 35 item 7)', async () => {
    list = [row(1, 1)];
    const router = renderPage();
    await screen.findByText('Customer 1');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search subscriptions' }), 'SN-7');
    await waitFor(() => expect(listQueries().at(-1)!.get('search')).toBe('SN-7'));
    await waitFor(() => expect(router.state.location.search).toContain('search=SN-7'));
    expect(screen.getByText('1 subscription')).toBeTruthy();
  });

  it('filters by status and by expiry within 7 days from the URL (the dashboard links), and from its selects', async () => {
    list = [row(1, 1)];
    const router = renderPage('/admin/subscription-management?status=4');
    await screen.findByText('Customer 1');
    const status = screen.getByRole('combobox', { name: 'Status' });
    expect((status as HTMLSelectElement).value).toBe('4');
    expect(listQueries().at(-1)!.get('status')).toBe('4');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Expiry' }), 'Expiring in 7 days');
    await waitFor(() => expect(router.state.location.search).toBe('?status=4&expiresWithin=7'));
    await waitFor(() => expect(listQueries().at(-1)!.get('expiresWithin')).toBe('7'));
    await userEvent.selectOptions(status, 'Pending');
    await waitFor(() => expect(listQueries().at(-1)!.get('status')).toBe('1'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Expiry' }), 'Expiring in 30 days');
    await waitFor(() => expect(router.state.location.search).toBe('?status=1&expiresWithin=30'));
    await waitFor(() => expect(listQueries().at(-1)!.get('expiresWithin')).toBe('30'));
  });

  it('lists subscriptions with the spec columns, status labels and a pager', async () => {
    list = [row(1, 1), row(2, 2), row(3, 3), row(4, 4), row(5, 7)];
    renderPage();
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Sr No.',
      'Name',
      'Email',
      'Machine Serial No.',
      'Amount ($)',
      'Link Sent Time',
      'Link Expiry Time',
      'Status',
      'Action',
    ]);
    expect(await within(table).findByText('Customer 1')).toBeTruthy();
    expect(within(table).getAllByText('$1,234.50')).toHaveLength(5);
    for (const label of ['Pending', 'Complete', 'Expired', 'Failed', 'N/A'])
      expect(within(table).getByText(label)).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy link for Customer 1' })).toBeTruthy();
  });

  it("links the serial number to the machine's Device Details when the subscription names a machine", async () => {
    list = [
      { ...row(1, 2), deviceId: 'device-1' },
      { ...row(2, 2), deviceId: null },
    ];
    renderPage();
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    const link = await within(table).findByRole('link', { name: 'SN-1' });
    expect(link.getAttribute('href')).toBe('/admin/device-details/device-1');
    expect(within(table).getByText('SN-2').closest('a')).toBeNull();
  });

  it("labels a demo payment 'Demo payment' beside its status, and a real one not", async () => {
    list = [row(1, 2, true), row(2, 2, false)];
    renderPage();
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    await within(table).findByText('Customer 1');
    const [demo, real] = within(table).getAllByRole('row').slice(1);
    expect(within(demo!).getByText('Demo payment')).toBeTruthy();
    expect(within(real!).queryByText('Demo payment')).toBeNull();
  });

  it('asks for the page size the admin last chose, and keeps a new choice on the server', async () => {
    kept = { columns: null, pageSize: 25, sort: null };
    list = [row(1, 1)];
    renderPage();
    await screen.findByText('Customer 1');
    // The list waited for the kept size: no request at the default size first.
    expect(listQueries().map((q) => q.get('limit'))).toEqual(['25']);
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '50');
    await waitFor(() => expect(listQueries().at(-1)!.get('limit')).toBe('50'));
    await waitFor(() => expect(kept).toEqual({ columns: null, pageSize: 50, sort: null }));
  });

  it('shows the kept columns in their order, and keeps a new order and a hidden column', async () => {
    kept = { columns: ['status', 'fullName', 'amount'], pageSize: null, sort: null };
    list = [row(1, 1)];
    renderPage();
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    await within(table).findByText('Customer 1');
    expect(headersOf(table)).toEqual(['Sr No.', 'Status', 'Name', 'Amount ($)', 'Action']);
    await reorderAndHide({ moveUp: 'Amount ($)', hide: 'Status' });
    expect(headersOf(table)).toEqual(['Sr No.', 'Amount ($)', 'Name', 'Action']);
    await waitFor(() => expect(kept).toMatchObject({ columns: ['amount', 'fullName'] }));
  });

  it("shows 'No Subscription found.' for an empty list", async () => {
    renderPage();
    expect(await screen.findByText('No Subscription found.')).toBeTruthy();
  });

  it('shows every message of the Subscription form and the plan type only for Recurring', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Add Subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Subscription' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Subscription' }));
    for (const m of [
      'Full name is required',
      'Email is required',
      'Machine serial number is required',
      'Amount is required',
      'Payment Type is required',
    ]) {
      expect(await within(dialog).findByText(m)).toBeTruthy();
    }
    expect(within(dialog).queryByLabelText(/Plan Type/)).toBeNull();

    await userEvent.type(within(dialog).getByLabelText(/Email/), 'nope');
    await userEvent.type(within(dialog).getByLabelText(/Amount/), 'abc');
    await userEvent.selectOptions(within(dialog).getByLabelText(/Payment Type/), 'Recurring');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Subscription' }));
    expect(await within(dialog).findByText('Invalid email format')).toBeTruthy();
    expect(within(dialog).getByText('Amount must be a number')).toBeTruthy();
    expect(within(dialog).getByText('Plan type is required')).toBeTruthy();

    await userEvent.clear(within(dialog).getByLabelText(/Amount/));
    await userEvent.type(within(dialog).getByLabelText(/Amount/), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Subscription' }));
    expect(await within(dialog).findByText('Amount must be greater than 0')).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('sends isRecurring as a boolean, the amount as a number and no planType for One Time', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Add Subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Subscription' });
    await userEvent.type(within(dialog).getByLabelText(/Full Name/), 'Ada Lovelace');
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'ada@example.com');
    await userEvent.type(within(dialog).getByLabelText(/Machine Serial Number/), 'SN-1');
    await userEvent.type(within(dialog).getByLabelText(/Amount/), '49.99');
    await userEvent.selectOptions(within(dialog).getByLabelText(/Payment Type/), 'Recurring');
    await userEvent.selectOptions(within(dialog).getByLabelText(/Plan Type/), 'Yearly');
    await userEvent.selectOptions(within(dialog).getByLabelText(/Payment Type/), 'One Time');
    expect(within(dialog).queryByLabelText(/Plan Type/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Subscription' }));

    expect(await screen.findByText('Subscription created and the payment link sent')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = server.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(sent.body)).toEqual({
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      machineSerialNumber: 'SN-1',
      amount: 49.99,
      isRecurring: false,
    });
  });

  it('offers Add Subscription only to a role carrying subscriptions.manage', async () => {
    list = [row(1, 1)];
    signInWith(['subscriptions.view']);
    renderPage();
    expect(await screen.findByText('Customer 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Subscription' })).toBeNull();
  });
});
