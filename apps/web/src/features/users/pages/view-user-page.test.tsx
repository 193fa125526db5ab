import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Device } from '@app/contract/devices';
import type { User } from '@app/contract/users';
import { paths } from '#web/lib/paths.ts';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { startTestServer } from '#web/test/http-server.ts';
import { renderRouter } from '#web/test/render-router.tsx';
import type { AssignedMachine } from '../api/get-user-machines.ts';
import { ViewUserPage } from './view-user-page.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';

// Decision 047: what these screens offer follows the role; here it carries every permission.
signedInForEachTest();

const technicianId = '00000000-0000-4000-9000-000000000001';
const adminId = '00000000-0000-4000-9000-000000000002';
const user = (id: string, type: 'app' | 'admin'): User => ({
  _id: id,
  firstName: 'Tess',
  lastName: 'Tech',
  userName: `user-${type}`,
  email: `${type}@example.com`,
  phone: null,
  phonenumber: null,
  roleId: `role-${type}`,
  role: { _id: `role-${type}`, roleName: type === 'app' ? 'Technician' : 'Admin', type },
  isDeletable: true,
  createdAt: '2025-01-01T00:00:00.000Z',
});
const deviceId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const device = (n: number) =>
  ({ _id: deviceId(n), machineNumber: `MN-${n}`, serialNumber: `SN-${n}` }) as Device;
const fleet = Array.from({ length: 12 }, (_, i) => device(i + 1));
const assignedAt = '2025-02-01T09:00:00.000Z';

let machines: AssignedMachine[];
const ok = (data: unknown, msg = 'Success') => ({ status: 200, body: { code: 200, msg, data } });

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer((request) => {
    const url = new URL(request.url, 'http://x');
    const path = url.pathname;
    if (path === `/api/v1/admin/users/${technicianId}`) return ok(user(technicianId, 'app'));
    if (path === `/api/v1/admin/users/${adminId}`) return ok(user(adminId, 'admin'));
    if (path.endsWith('/mfa'))
      return ok({
        enabled: false,
        enabledAt: null,
        recoveryCodesLeft: 0,
        isYou: false,
        yourCodeRequired: false,
      });
    if (path === `/api/v1/admin/users/${technicianId}/machines`) {
      if (request.method === 'PUT') {
        const { deviceIds } = JSON.parse(request.body) as { deviceIds: string[] };
        machines = deviceIds.map((id) => {
          const d = fleet.find((f) => f._id === id)!;
          return { deviceId: id, machineNumber: d.machineNumber, serialNumber: d.serialNumber, assignedAt };
        });
        return ok({ machines }, 'Machines assigned');
      }
      return ok({ machines });
    }
    if (path === '/api/v1/admin/machine') {
      const search = url.searchParams.get('search') ?? '';
      const found = fleet.filter((d) => d.machineNumber === search || search === '');
      const limit = Number(url.searchParams.get('limit'));
      return ok({ allDevices: found.slice(0, limit), total: found.length, totalPages: 1, page: 1, limit });
    }
    return { status: 404, body: { code: 404, msg: 'Route not found', data: null } };
  });
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  machines = [{ deviceId: deviceId(1), machineNumber: 'MN-1', serialNumber: 'SN-1', assignedAt }];
});

function renderUser(id: string) {
  renderRouter(
    createMemoryRouter([{ path: paths.viewUser.path, Component: ViewUserPage }], {
      initialEntries: [paths.viewUser.href({ id })],
    }),
  );
}

describe('User Details of a technician', { timeout: 20_000 }, () => {
  it('lists the machines the technician is assigned to, each linking to its device', async () => {
    renderUser(technicianId);
    const table = await screen.findByRole('table', { name: 'Machines of Tess Tech' });
    const link = await within(table).findByRole('link', { name: 'MN-1' });
    expect(link.getAttribute('href')).toBe(paths.deviceDetails.href({ id: deviceId(1) }));
    expect(within(table).getByText('SN-1')).toBeTruthy();
    expect(within(table).getByText(formatDateTime(assignedAt))).toBeTruthy();
  });

  it('says when no machine is assigned', async () => {
    machines = [];
    renderUser(technicianId);
    expect(await screen.findByText('No machines assigned.')).toBeTruthy();
  });

  it('edits the machines: search, tick, remove, save, and the list refreshes', async () => {
    renderUser(technicianId);
    const card = await screen.findByRole('region', { name: 'Machines' });
    await within(card).findByRole('link', { name: 'MN-1' });
    await userEvent.click(within(card).getByRole('button', { name: 'Edit machines' }));
    const dialog = await screen.findByRole('dialog', { name: 'Machines of Tess Tech' });
    const box = (name: string) => within(dialog).getByRole('checkbox', { name: new RegExp(`^${name} `) });
    expect(
      ((await within(dialog).findByRole('checkbox', { name: /^MN-1 / })) as HTMLInputElement).checked,
    ).toBe(true);
    expect(within(dialog).getByText('Showing 10 of 12 machines: search to narrow them down.')).toBeTruthy();

    await userEvent.type(within(dialog).getByLabelText('Search machines'), 'MN-12');
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: /^MN-12 / }));
    expect(within(dialog).getByRole('heading', { name: 'Assigned (2)' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove MN-1' }));
    expect(within(dialog).getByRole('heading', { name: 'Assigned (1)' })).toBeTruthy();
    expect((box('MN-12') as HTMLInputElement).checked).toBe(true);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Machines assigned')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect(JSON.parse(put.body)).toEqual({ deviceIds: [deviceId(12)] });
    expect(await within(card).findByRole('link', { name: 'MN-12' })).toBeTruthy();
    expect(within(card).queryByRole('link', { name: 'MN-1' })).toBeNull();
  });

  it('shows no Machines card for a user of an admin role', async () => {
    renderUser(adminId);
    expect(await screen.findByText('admin@example.com')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Machines' })).toBeNull();
    expect(server.requests.some((r) => r.url.endsWith('/machines'))).toBe(false);
    // Its two-step card instead. Awaited to the answer: a request still on its way when the test
    // ended reached the server during the next test, which counts the /mfa requests.
    const twoStep = screen.getByRole('region', { name: 'Two-step sign-in' });
    expect(await within(twoStep).findByText(/^Off\. Sign-in asks this user only/)).toBeTruthy();
  });

  it('shows neither the two-step card nor Edit machines to a role without security.manage and devices.view', async () => {
    signInWith(['users.manage']);
    renderUser(technicianId);
    const card = await screen.findByRole('region', { name: 'Machines' });
    await within(card).findByRole('link', { name: 'MN-1' });
    expect(within(card).queryByRole('button', { name: 'Edit machines' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Two-step sign-in' })).toBeNull();
    expect(server.requests.filter((r) => r.url.endsWith('/mfa'))).toEqual([]);
  });
});
