import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { customerMessages } from '@app/contract/customers-texts';
import type { Assignment } from '@app/contract/machine-assignments';
import type { Device } from '@app/contract/devices';
import { buildCustomer, buildDevice, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { inputToIso } from '#web/lib/local-date-time.ts';
import { DeviceCustomerCard } from './device-customer-card.tsx';

/* Issue 39 item 2: Device Details' Customer card: the holder, assign or move by keyboard, return, history. */

const device = buildDevice(4);
const base = `/api/v1/admin/machine/${device._id}`;
const period: Assignment = {
  _id: 'a1',
  deviceId: device._id,
  machineNumber: 'MN-4',
  serialNumber: 'SN-4',
  customerId: testId(1, 9),
  customerName: 'Clinic 1',
  from: '2030-01-05T09:00:00.000Z',
  until: null,
  reason: 'Loaner',
  endReason: null,
  assignedBy: 'admin@example.com',
  createdAt: '2030-01-05T09:00:00.000Z',
};
let history: Assignment[] = [];
let assignAnswer = ok(period, customerMessages.assigned, 201);
const api = serveTestApi((request, url) => {
  if (url.pathname === `${base}/assignments`) {
    const { rows, ...rest } = pageOf(history);
    return ok({ assignments: rows, ...rest });
  }
  if (url.pathname === `${base}/assignment`) return assignAnswer;
  if (url.pathname === `${base}/return`)
    return ok({ ...period, until: '2030-02-01T00:00:00.000Z' }, customerMessages.returned);
  if (url.pathname === '/api/v1/admin/customers') {
    const search = (url.searchParams.get('search') ?? '').toLowerCase();
    const all = [buildCustomer(1), buildCustomer(2, { name: 'Harbour Clinic' }), buildCustomer(3)];
    const { rows, ...rest } = pageOf(all.filter((c) => c.name.toLowerCase().includes(search)));
    return ok({ customers: rows, ...rest });
  }
  return failure(404, 'Route not found');
});

beforeEach(() => {
  history = [];
  assignAnswer = ok(period, customerMessages.assigned, 201);
});
signedInForEachTest();

const show = (shown: Device) => {
  const Card = () => <DeviceCustomerCard device={shown} />;
  renderPage({
    path: '/admin/device-details/:id',
    Component: Card,
    at: `/admin/device-details/${shown._id}`,
  });
};
const posted = (suffix: string) =>
  api.requests.filter((r) => r.method === 'POST' && r.url.endsWith(suffix)).map((r) => JSON.parse(r.body));

describe("Device Details' Customer card", { timeout: 30_000 }, () => {
  it('says the machine is at the supplier and that no customer has held it yet', async () => {
    show(device);
    expect(await screen.findByText('At the supplier: no customer holds this machine.')).toBeTruthy();
    expect(await screen.findByText('No customer has held this machine yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Return to supplier' })).toBeNull();
  });

  it('assigns it by keyboard: a customer found by typing, from now, with a reason', async () => {
    const user = userEvent.setup();
    show(device);
    await user.click(await screen.findByRole('button', { name: 'Assign to customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign MN-4 to a customer' });
    const picker = within(dialog).getByRole('combobox', { name: /Customer/ });
    expect(picker).toBe(document.activeElement);
    const from = within(dialog).getByLabelText(/^Effective from/) as HTMLInputElement;
    expect(from.value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    // Nothing picked: the picker says so under it.
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByText('Choose a customer')).toBeTruthy();
    await user.type(picker, 'harb');
    await within(dialog).findByRole('option', { name: /Harbour Clinic/ });
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(1));
    await user.keyboard('{ArrowDown}{Enter}');
    expect((picker as HTMLInputElement).value).toBe('Harbour Clinic');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Loaner');
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText(customerMessages.assigned)).toBeTruthy();
    const [body] = posted('/assignment');
    expect(body.customerId).toBe(testId(2, 9));
    expect(body.reason).toBe('Loaner');
    // Left at now, no time is sent: the server's own now, to the millisecond.
    expect(body).not.toHaveProperty('from');
  });

  it("sends a date typed in the admin's time zone as an instant", async () => {
    const user = userEvent.setup();
    show(device);
    await user.click(await screen.findByRole('button', { name: 'Assign to customer' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('combobox', { name: /Customer/ }), 'Clinic 1');
    await user.click(await within(dialog).findByRole('option', { name: /Clinic 1/ }));
    const from = within(dialog).getByLabelText(/^Effective from/);
    await user.clear(from);
    await user.type(from, '2030-01-05T10:30');
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText(customerMessages.assigned)).toBeTruthy();
    expect(posted('/assignment')[0].from).toBe(inputToIso('2030-01-05T10:30'));
  });

  it("puts the server's refusal of the date under the date, keeping the choice", async () => {
    const user = userEvent.setup();
    assignAnswer = failure(400, customerMessages.beforeLast('from', '05/01/2030 09:00:00'));
    show(device);
    await user.click(await screen.findByRole('button', { name: 'Assign to customer' }));
    const dialog = await screen.findByRole('dialog');
    const picker = within(dialog).getByRole('combobox', { name: /Customer/ });
    await user.type(picker, 'Clinic 3');
    await user.click(await within(dialog).findByRole('option', { name: /Clinic 3/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    const date = within(dialog).getByLabelText(/^Effective from/);
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(/must not be before the machine's last period ended/)).toBeTruthy();
    expect((picker as HTMLInputElement).value).toBe('Clinic 3');
  });

  it('shows the holder and its history, moves it elsewhere and returns it to the supplier', async () => {
    const user = userEvent.setup();
    history = [period];
    show(buildDevice(4, { customerId: testId(1, 9), customerName: 'Clinic 1' }));
    const card = await screen.findByRole('region', { name: 'Customer' });
    expect(within(card).getByRole('link', { name: 'Clinic 1' }).getAttribute('href')).toBe(
      `/admin/customers/${testId(1, 9)}`,
    );
    const table = await within(card).findByRole('table', { name: 'Ownership history' });
    expect(await within(table).findByText('Holds it now')).toBeTruthy();
    // Moving offers every customer but the holder.
    await user.click(within(card).getByRole('button', { name: 'Move to another customer' }));
    const move = await screen.findByRole('dialog', { name: 'Move MN-4 to another customer' });
    await user.click(within(move).getByRole('combobox', { name: /Customer/ }));
    await within(move).findByRole('option', { name: /Clinic 3/ });
    expect(within(move).queryByRole('option', { name: /Clinic 1/ })).toBeNull();
    await user.click(within(move).getByRole('button', { name: 'Cancel' }));
    await user.click(within(card).getByRole('button', { name: 'Return to supplier' }));
    const back = await screen.findByRole('dialog', { name: 'Return to supplier' });
    await user.type(within(back).getByLabelText(/^Reason/), 'Contract ended');
    await user.click(within(back).getByRole('button', { name: 'Return to supplier' }));
    expect(await screen.findByText(customerMessages.returned)).toBeTruthy();
    expect(posted('/return')[0].reason).toBe('Contract ended');
  });

  it('offers no assignment without customers.manage', async () => {
    signInWith(['devices.view', 'customers.view']);
    show(device);
    await screen.findByText('At the supplier: no customer holds this machine.');
    expect(screen.queryByRole('button', { name: 'Assign to customer' })).toBeNull();
  });
});
