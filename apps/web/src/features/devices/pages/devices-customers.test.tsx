import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildCustomer, buildDevice, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest } from '#web/test/session.ts';
import { DevicesPage } from './devices-page.tsx';

/* Issue 39 item 2 on Device Management: the Customer column and filter, and the bulk Assign to customer. */

signedInForEachTest();

const held = { customerId: testId(1, 9), customerName: 'Clinic 1' };
const devices = [buildDevice(1, held), buildDevice(2), buildDevice(3)];
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/preferences')
    return ok({ lists: { devices: { columns: ['machineNumber', 'serialNumber', 'customerName'] } } });
  if (url.pathname === '/api/v1/admin/views') return ok({ views: [] });
  if (url.pathname === '/api/v1/admin/machine-facets')
    return ok({
      countries: [],
      cities: [],
      appVersions: [],
      licences: [],
      customers: [
        { value: testId(1, 9), label: 'Clinic 1', count: 1 },
        { value: 'none', label: 'No customer', count: 2 },
      ],
    });
  if (url.pathname === '/api/v1/admin/machine/bulk-assign')
    return ok({
      done: 1,
      refused: 1,
      results: [
        {
          _id: devices[0]!._id,
          machineNumber: 'MN-1',
          outcome: 'refused',
          reason: 'The machine is already assigned to this customer',
        },
        { _id: devices[1]!._id, machineNumber: 'MN-2', outcome: 'done', reason: null },
      ],
    });
  if (url.pathname === '/api/v1/admin/customers') {
    const { rows, ...rest } = pageOf([buildCustomer(1)]);
    return ok({ customers: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/machine') {
    const customer = url.searchParams.get('customer');
    const { rows, ...rest } = pageOf(
      devices.filter((d) => !customer || (customer === 'none' ? !d.customerId : d.customerId === customer)),
    );
    return ok({ allDevices: rows, totalIsEstimate: false, ...rest });
  }
  return failure(404, 'Route not found');
});

describe('Device Management and customers', { timeout: 30_000 }, () => {
  it('shows the customer column, linking to the holder, and filters by customer', async () => {
    const user = userEvent.setup();
    renderPage({ path: '/admin/device', Component: DevicesPage, at: '/admin/device' });
    const table = await screen.findByRole('table', { name: 'Devices' });
    const link = await within(table).findByRole('link', { name: 'Clinic 1' });
    expect(link.getAttribute('href')).toBe(`/admin/customers/${testId(1, 9)}`);
    expect(within(table).getByRole('columnheader', { name: 'Customer' })).toBeTruthy();
    const filter = await screen.findByLabelText('Customer');
    await within(filter).findByRole('option', { name: 'No customer (2)' });
    await user.selectOptions(filter, 'none');
    await waitFor(() => expect(within(table).queryByText('MN-1')).toBeNull());
    expect(within(table).getByText('MN-2')).toBeTruthy();
  });

  it('assigns the machines picked to one customer and answers machine by machine', async () => {
    const user = userEvent.setup();
    renderPage({ path: '/admin/device', Component: DevicesPage, at: '/admin/device' });
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-1');
    await user.click(screen.getByRole('checkbox', { name: 'Select MN-1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select MN-2' }));
    const bar = await screen.findByRole('region', { name: 'Selection' });
    await user.click(within(bar).getByRole('button', { name: 'Assign to customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign 2 machines to a customer' });
    await user.click(within(dialog).getByRole('combobox', { name: /Customer/ }));
    await user.click(await within(dialog).findByRole('option', { name: /Clinic 1/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    const results = await screen.findByRole('dialog', { name: 'Assign to customer: results' });
    expect(within(results).getByText('1 done, 1 refused')).toBeTruthy();
    expect(within(results).getByText('The machine is already assigned to this customer')).toBeTruthy();
    const body = JSON.parse(api.requests.find((r) => r.url.endsWith('/bulk-assign'))!.body);
    expect(body.ids).toEqual([devices[0]!._id, devices[1]!._id]);
    expect(body.customerId).toBe(testId(1, 9));
  });
});
