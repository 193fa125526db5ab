import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Device } from '@app/contract/devices';
import { buildDevice, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { DevicesPage } from './devices-page.tsx';

/* Decision 055: picking machines on Device Management and changing their status in bulk. */

signedInForEachTest();

let devices: Device[] = [];
beforeEach(() => {
  devices = Array.from({ length: 23 }, (_, i) => buildDevice(i + 1));
});

const bulkPath = '/api/v1/admin/machine/bulk-status';
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/preferences') return ok({ lists: {} });
  if (url.pathname === '/api/v1/admin/views') return ok({ views: [] });
  if (url.pathname === bulkPath) {
    const body = JSON.parse(request.body) as { ids?: string[]; allMatching?: object; status: 1 | 2 };
    if (body.allMatching && devices.length > 20)
      return failure(400, 'Too many rows: at most 10,000 at a time, and 12,000 match');
    const ids = body.ids ?? devices.map((d) => d._id);
    const results = ids.map((id) => {
      const device = devices.find((d) => d._id === id);
      if (!device) return { _id: id, outcome: 'refused', reason: 'Device not found' };
      device.status = body.status;
      return { _id: id, machineNumber: device.machineNumber, outcome: 'done' };
    });
    const done = results.filter((r) => r.outcome === 'done').length;
    return ok({ results, done, refused: results.length - done }, `${done} done`);
  }
  if (url.pathname === '/api/v1/admin/machine') {
    const search = url.searchParams.get('search');
    const shown = search ? devices.filter((d) => d.machineNumber.includes(search)) : devices;
    const { rows, ...rest } = pageOf(shown, {
      page: Number(url.searchParams.get('page') ?? 1),
      limit: Number(url.searchParams.get('limit') ?? 10),
    });
    return ok({ allDevices: rows, totalIsEstimate: false, ...rest });
  }
  return failure(404, 'Route not found');
});
const bulkBodies = () =>
  api.requests.filter((r) => r.url.startsWith(bulkPath)).map((r) => JSON.parse(r.body) as unknown);

const open = async (at = '/admin/device') => {
  renderPage({ path: '/admin/device', Component: DevicesPage, at });
  const table = await screen.findByRole('table', { name: 'Devices' });
  await within(table).findByText('MN-1');
  return table;
};

describe('Device Management bulk status', { timeout: 30_000 }, () => {
  it('picks machines by their labelled checkboxes, deactivates them after a confirmation naming how many, and shows each result', async () => {
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('checkbox', { name: 'Select MN-1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select MN-3' }));
    // The selection bar loads with the first pick (or as the pointer reaches a box).
    const bar = await screen.findByRole('region', { name: 'Selection' });
    expect(within(bar).getByRole('status').textContent).toBe('2 selected');
    // Two of ten on the page: the header box is mixed.
    expect(
      (screen.getByRole('checkbox', { name: 'Select all on this page' }) as HTMLInputElement).indeterminate,
    ).toBe(true);

    await user.click(within(bar).getByRole('button', { name: 'Deactivate' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deactivate Machines' });
    expect(within(confirm).getByText('Are you sure you want to deactivate 2 machines?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Yes' }));

    const results = await screen.findByRole('dialog', { name: 'Deactivate: results' });
    expect(within(results).getByText('2 done, 0 refused')).toBeTruthy();
    const rows = within(results).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(['MN-1Done', 'MN-3Done']);
    expect(bulkBodies()).toEqual([{ ids: [testId(1), testId(3)], status: 1 }]);

    // The list refetched with the new status, and the selection is gone.
    // The footer's Close (the title bar has one too).
    await user.click(within(results).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Status of MN-1' }) as HTMLSelectElement).value).toBe('1'),
    );
    expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull();
  });

  it('keeps the picked machines across pages, and lists a refused one first with the reason', async () => {
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('checkbox', { name: 'Select MN-2' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('MN-11');
    await user.click(screen.getByRole('checkbox', { name: 'Select MN-12' }));
    expect((await screen.findByRole('region', { name: 'Selection' })).textContent).toContain('2 selected');
    // Another admin deletes MN-2 meanwhile.
    devices = devices.filter((d) => d.machineNumber !== 'MN-2');
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Activate Machines' })).getByRole('button', {
        name: 'Yes',
      }),
    );
    const results = await screen.findByRole('dialog', { name: 'Activate: results' });
    expect(
      within(results)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual([`${testId(2)}RefusedDevice not found`, 'MN-12Done']);
  });

  it('offers every matching machine once the page is picked, sends the filters instead of ids, and says so', async () => {
    const user = userEvent.setup();
    devices = devices.slice(0, 15);
    await open('/admin/device?search=MN-1');
    const header = screen.getByRole('checkbox', { name: 'Select all on this page' });
    await user.click(header);
    const bar = await screen.findByRole('region', { name: 'Selection' });
    // MN-1 and MN-10 to MN-15 match: 7, all on one page, so there is no more to offer.
    expect(within(bar).getByRole('status').textContent).toBe('7 selected');
    expect(within(bar).queryByRole('button', { name: /Select all/ })).toBeNull();

    await user.clear(screen.getByRole('searchbox', { name: 'Search devices' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull(), {
      timeout: 3000,
    });
    await screen.findByText('MN-2');
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 15 matching' }));
    expect(screen.getByRole('region', { name: 'Selection' }).textContent).toContain(
      'All 15 matching selected',
    );
    await user.click(screen.getByRole('button', { name: 'Deactivate' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deactivate Machines' });
    expect(within(confirm).getByText('Are you sure you want to deactivate 15 machines?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Yes' }));
    await screen.findByRole('dialog', { name: 'Deactivate: results' });
    expect(bulkBodies()).toEqual([{ allMatching: {}, status: 1 }]);
  });

  it('shows a refusal of the whole request as a toast and keeps the selection', async () => {
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 23 matching' }));
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Activate Machines' })).getByRole('button', {
        name: 'Yes',
      }),
    );
    expect(await screen.findByText('Too many rows: at most 10,000 at a time, and 12,000 match')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Selection' }).textContent).toContain(
      'All 23 matching selected',
    );
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull();
    expect((screen.getByRole('checkbox', { name: 'Select MN-1' }) as HTMLInputElement).checked).toBe(false);
  });

  it('offers no selection to an admin who may not change machines (decision 047)', async () => {
    signInWith(['devices.view']);
    await open();
    expect(screen.queryByRole('checkbox', { name: 'Select MN-1' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Select all on this page' })).toBeNull();
  });
});
