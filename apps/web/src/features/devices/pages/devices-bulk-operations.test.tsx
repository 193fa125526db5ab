import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildDevice, failure, ok, pageOf } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { DevicesPage } from './devices-page.tsx';

/* Issue 37: one command to the machines picked, and adding them to a static group, from Device Management. */

signedInForEachTest();

const devices = Array.from({ length: 12 }, (_, i) => buildDevice(i + 1));
const groups = [
  { _id: 'g-static', name: 'Night ward', kind: 'static', filter: null, machineCount: 4 },
  { _id: 'g-dynamic', name: 'Germany', kind: 'dynamic', filter: { country: 'Germany' }, machineCount: 40 },
].map((g) => ({ ...g, maintenanceWindow: null, createdAt: '2026-11-01T00:00:00.000Z', createdBy: 'a@x' }));
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/preferences') return ok({ lists: {} });
  if (url.pathname === '/api/v1/admin/views') return ok({ views: [] });
  if (url.pathname === '/api/v1/admin/commands' && request.method === 'POST')
    return ok(
      { _id: 'b1', state: 'awaiting-approval' },
      'Sent for approval: another admin must approve it',
      201,
    );
  if (url.pathname === '/api/v1/admin/groups')
    return ok({ groups, total: 2, totalPages: 1, page: 1, limit: 100 });
  if (url.pathname === '/api/v1/admin/groups/g-static/members')
    return ok({ changed: 2, machineCount: 6 }, '2 machines added');
  if (url.pathname === '/api/v1/admin/machine') {
    const { rows, ...rest } = pageOf(devices, { page: 1, limit: 10 });
    return ok({ allDevices: rows, totalIsEstimate: false, ...rest });
  }
  return failure(404, 'Route not found');
});
const bodiesOf = (path: string) =>
  api.requests
    .filter((r) => r.method === 'POST' && r.url.startsWith(path))
    .map((r) => JSON.parse(r.body) as unknown);

const pickTwo = async () => {
  const user = userEvent.setup();
  renderPage({ path: '/admin/device', Component: DevicesPage, at: '/admin/device' });
  const table = await screen.findByRole('table', { name: 'Devices' });
  await within(table).findByText('MN-1');
  await user.click(screen.getByRole('checkbox', { name: 'Select MN-1' }));
  await user.click(screen.getByRole('checkbox', { name: 'Select MN-2' }));
  return { user, bar: await screen.findByRole('region', { name: 'Selection' }) };
};

describe('Device Management: Send command and Add to group', { timeout: 30_000 }, () => {
  it('sends one command to the machines picked, with its parameters, and says it waits for approval', async () => {
    const { user, bar } = await pickTwo();
    await user.click(within(bar).getByRole('button', { name: 'Send command' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a command to 2 machines' });
    await user.selectOptions(within(dialog).getByLabelText(/Command/), 'Upload diagnostics');
    await user.clear(within(dialog).getByLabelText(/Minutes of logs/));
    await user.type(within(dialog).getByLabelText(/Minutes of logs/), '30');
    await user.click(within(dialog).getByRole('button', { name: 'Send command' }));
    expect(await screen.findByText('Sent for approval: another admin must approve it')).toBeTruthy();
    expect(bodiesOf('/api/v1/admin/commands')).toEqual([
      {
        kind: 'upload-diagnostics',
        params: { minutes: 30 },
        target: { ids: [devices[0]!._id, devices[1]!._id] },
      },
    ]);
  });

  it('adds the machines picked to a static group chosen from the list (dynamic ones are not offered)', async () => {
    const { user, bar } = await pickTwo();
    await user.click(within(bar).getByRole('button', { name: 'Add to group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add 2 machines to a group' });
    const select = within(dialog).getByLabelText(/Group/);
    await within(select).findByRole('option', { name: 'Night ward (4 machines)' });
    expect(within(select).queryByRole('option', { name: /Germany/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Add to group' }));
    expect(await within(dialog).findByText('Choose a group')).toBeTruthy();
    await user.selectOptions(select, 'Night ward (4 machines)');
    await user.click(within(dialog).getByRole('button', { name: 'Add to group' }));
    expect(await screen.findByText('2 machines added')).toBeTruthy();
    await waitFor(() =>
      expect(bodiesOf('/api/v1/admin/groups/g-static/members')).toEqual([
        { ids: [devices[0]!._id, devices[1]!._id] },
      ]),
    );
  });

  it('lets an admin with commands.send but not devices.edit pick machines and send a command, without Activate or Deactivate', async () => {
    signInWith(['devices.view', 'commands.send']);
    const { bar } = await pickTwo();
    expect(within(bar).getByRole('button', { name: 'Send command' })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Add to group' })).toBeNull();
  });

  it('offers neither without their permissions', async () => {
    signInWith(['devices.view', 'devices.edit']);
    const { bar } = await pickTwo();
    expect(within(bar).queryByRole('button', { name: 'Send command' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Add to group' })).toBeNull();
    expect(within(bar).getByRole('button', { name: 'Deactivate' })).toBeTruthy();
  });
});
