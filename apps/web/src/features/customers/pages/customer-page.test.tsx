import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { customerMessages, type CustomerMachine } from '@app/contract/customers';
import type { Assignment } from '@app/contract/machine-assignments';
import { buildCustomer, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { CustomerPage } from './customer-page.tsx';

/* Issue 39 items 1 and 2: a customer's page, its pieces, and Delete refused while it holds machines. */

const id = testId(1, 9);
const base = `/api/v1/admin/customers/${id}`;
const machine: CustomerMachine = {
  _id: testId(5),
  machineNumber: 'MN-5',
  serialNumber: 'SN-5',
  location: 'Ward 5',
  city: 'Berlin',
  country: 'Germany',
  status: 2,
  lastSeenAt: null,
  licenceState: 'active',
  licencePaidThrough: '2031-01-31T00:00:00.000Z',
  licenceGraceUntil: null,
  assignedFrom: '2030-01-05T09:00:00.000Z',
};
const period = (n: number, over: Partial<Assignment> = {}): Assignment => ({
  _id: `a${n}`,
  deviceId: testId(n),
  machineNumber: `MN-${n}`,
  serialNumber: `SN-${n}`,
  customerId: id,
  customerName: 'Clinic 1',
  from: '2030-01-05T09:00:00.000Z',
  until: null,
  reason: 'Loaner',
  endReason: null,
  assignedBy: 'admin@example.com',
  createdAt: '2030-01-05T09:00:00.000Z',
  ...over,
});

let machines: CustomerMachine[] = [];
let deleteAnswer = ok(null, customerMessages.deleted);
let usersRoute = true;
const api = serveTestApi((request, url) => {
  const path = url.pathname;
  if (path === '/api/v1/admin/preferences') return ok({ lists: {} });
  if (path === '/api/v1/admin/views') return ok({ views: [] });
  if (path === base && request.method === 'DELETE') return deleteAnswer;
  if (path === base) return ok(buildCustomer(1, { notes: 'Night shifts only' }));
  if (path === `${base}/machines`) {
    const { rows, ...rest } = pageOf(machines);
    return ok({ machines: rows, ...rest });
  }
  if (path === `${base}/subscriptions`) {
    const { rows, ...rest } = pageOf([]);
    return ok({ subscriptions: rows, ...rest });
  }
  if (path === `${base}/assignments`) {
    const { rows, ...rest } = pageOf([
      period(5),
      period(6, { until: '2030-01-04T09:00:00.000Z', endReason: 'Moved to Clinic 2' }),
    ]);
    return ok({ assignments: rows, ...rest });
  }
  if (path === `${base}/activity`) {
    const { rows, ...rest } = pageOf([
      {
        _id: 'l1',
        createdAt: '2030-01-05T09:00:00.000Z',
        userEmail: 'admin@example.com',
        resource: `POST /api/v1/admin/customers`,
        statusCode: 201,
        machineNumber: null,
        recordKind: 'customer',
        recordId: id,
        event: null,
      },
    ]);
    return ok({ activity: rows, ...rest });
  }
  if (path === `${base}/users` && usersRoute)
    return ok({
      users: [
        {
          _id: 'u1',
          firstName: 'Nora',
          lastName: 'Field',
          email: 'nora@clinic.example',
          role: 'manager',
          mfaEnabled: true,
          createdAt: '2030-01-06T09:00:00.000Z',
        },
      ],
      invitations: [],
    });
  if (path === '/api/v1/admin/customers') return ok({ customers: [], ...pageOf([]) });
  return failure(404, 'Route not found');
});

beforeEach(() => {
  machines = [machine];
  deleteAnswer = ok(null, customerMessages.deleted);
  usersRoute = true;
});
signedInForEachTest();

const open = () =>
  renderPage({ path: '/admin/customers/:id', Component: CustomerPage, at: `/admin/customers/${id}` });

describe("A customer's page", { timeout: 30_000 }, () => {
  it('shows the details, the machines held now with their licence, linking to Device Details, and the history', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Clinic 1' })).toBeTruthy();
    const details = screen.getByRole('region', { name: 'Customer Details' });
    expect(within(details).getByText('billing1@clinic.example')).toBeTruthy();
    expect(within(details).getByText('Night shifts only')).toBeTruthy();
    const machinesTable = await screen.findByRole('table', { name: 'Machines' });
    const link = await within(machinesTable).findByRole('link', { name: 'MN-5' });
    expect(link.getAttribute('href')).toBe(`/admin/device-details/${testId(5)}`);
    const row = link.closest('tr')!;
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    expect(within(row).getByText(/until 31-01-2031/)).toBeTruthy();
    const history = await screen.findByRole('table', { name: 'Assignment history' });
    const ended = (await within(history).findByText('Moved to Clinic 2')).closest('tr')!;
    expect(within(ended).getByRole('link', { name: 'MN-6' })).toBeTruthy();
    expect(within(history).getByText('Holds it now')).toBeTruthy();
    const activity = await screen.findByRole('table', { name: 'Activity' });
    expect(await within(activity).findByText('admin@example.com')).toBeTruthy();
    expect(await screen.findByText(/No subscription is for this customer yet/)).toBeTruthy();
    const users = await screen.findByRole('table', { name: 'Clinic users' });
    expect(await within(users).findByText('nora@clinic.example')).toBeTruthy();
  });

  it('says so when it holds no machine, and shows no users while the server has no users route', async () => {
    machines = [];
    usersRoute = false;
    open();
    expect(await screen.findByText('This customer holds no machine now.')).toBeTruthy();
    const users = await screen.findByRole('table', { name: 'Clinic users' });
    expect(await within(users).findByText('No users yet.')).toBeTruthy();
    expect(screen.queryByText("The clinic's users could not be loaded.")).toBeNull();
  });

  it("refuses to delete a customer holding machines with the server's message, and stays", async () => {
    const user = userEvent.setup();
    deleteAnswer = failure(409, customerMessages.holdsMachines(1));
    open();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove Data' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(customerMessages.holdsMachines(1))).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Clinic 1' })).toBeTruthy();
  });

  it('deletes one that holds nothing and goes back to the list', async () => {
    const user = userEvent.setup();
    const router = open();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(customerMessages.deleted)).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'DELETE' && r.url.endsWith(id))).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers'));
  });

  it('opens Edit holding the customer as saved', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Customer' });
    expect((within(dialog).getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Clinic 1');
    expect((within(dialog).getByLabelText(/^Notes/) as HTMLTextAreaElement).value).toBe('Night shifts only');
  });

  it('offers Invite user in the Users section to an admin with customers.manage', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Invite user' }));
    expect(await screen.findByRole('dialog', { name: 'Invite a clinic user' })).toBeTruthy();
  });

  it('offers neither Edit nor Delete without customers.manage', async () => {
    signInWith(['customers.view']);
    open();
    await screen.findByRole('heading', { level: 1, name: 'Clinic 1' });
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
  });

  it('says when the customer does not exist', async () => {
    renderPage({
      path: '/admin/customers/:id',
      Component: CustomerPage,
      at: `/admin/customers/${testId(99, 9)}`,
    });
    expect(await screen.findByText(customerMessages.notFound)).toBeTruthy();
  });
});
