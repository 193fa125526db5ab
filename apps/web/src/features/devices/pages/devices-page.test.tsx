import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '#web/lib/format.ts';
import { buildDevice, ok, pageOf } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { DevicesPage } from './devices-page.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';

// Decision 047: what these screens offer follows the role; here it carries every permission.
signedInForEachTest();

const seen = '2025-03-01T10:30:00.000Z';
const graceUntil = '2025-03-15T10:30:00.000Z';

// The admin's list preferences as the server keeps them (decision 053).
let savedDevicePrefs: object | undefined;
let savedView: { query: string } | undefined;
beforeEach(() => ((savedDevicePrefs = undefined), (savedView = undefined)));
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/preferences')
    return ok({ lists: savedDevicePrefs ? { devices: savedDevicePrefs } : {} });
  if (url.pathname === '/api/v1/admin/preferences/lists/devices') {
    savedDevicePrefs = JSON.parse(request.body) as object;
    return ok(savedDevicePrefs, 'Preferences saved');
  }
  if (url.pathname === '/api/v1/admin/views' && request.method === 'POST') {
    savedView = JSON.parse(request.body) as { query: string };
    return ok(
      { ...savedView, _id: 'v1', ownerName: 'admin', mine: true, createdAt: seen },
      'View saved',
      201,
    );
  }
  if (url.pathname === '/api/v1/admin/views') return ok({ views: [] });
  if (url.pathname === '/api/v1/admin/machine-facets') {
    const inFrance = url.searchParams.get('country') === 'France';
    return ok({
      countries: [
        { value: 'Germany', label: 'Germany', count: 1200 },
        { value: 'France', label: 'France', count: 3 },
      ],
      cities: inFrance
        ? [{ value: 'Lyon', label: 'Lyon', count: 3 }]
        : [{ value: 'Berlin', label: 'Berlin', count: 1200 }],
      // One code in two apps: an option each (issue 35 item 2).
      appVersions: [
        { value: 'com.treatment.device:42', label: 'com.treatment.device 1.4.2 (42)', count: 1200 },
        { value: 'none', label: 'Never reported', count: 7 },
        { value: 'com.treatment.technician:42', label: 'com.treatment.technician 1.4.2 (42)', count: 3 },
      ],
      licences: [
        { value: 'active', label: 'Active', count: 20 },
        { value: 'grace', label: 'In grace', count: 2 },
        { value: 'lapsed', label: 'Lapsed', count: 1 },
        { value: 'exempt', label: 'Exempt', count: 0 },
        { value: 'unlicensed', label: 'Unlicensed', count: 0 },
      ],
    });
  }
  if (request.method === 'PUT') {
    const body = JSON.parse(request.body) as { status: 1 | 2 };
    return ok(buildDevice(1, { status: body.status }), 'Status updated successfully!');
  }
  const search = url.searchParams.get('search');
  const page = Number(url.searchParams.get('page') ?? 1);
  const limit = Number(url.searchParams.get('limit') ?? 10);
  const all =
    search === 'nothing'
      ? []
      : Array.from({ length: 23 }, (_, i) =>
          buildDevice(
            i + 1,
            i === 4
              ? { licenceState: 'grace', licencePaidThrough: seen, licenceGraceUntil: graceUntil }
              : i === 5
                ? { licenceState: 'active', licencePaidThrough: seen, licenceGraceUntil: graceUntil }
                : i === 2
                  ? {
                      lastSeenAt: seen,
                      online: true,
                      appVersionCode: 42,
                      appVersionName: '1.4.2',
                      appPackage: 'com.treatment.device',
                    }
                  : i === 3
                    ? { lastSeenAt: '2025-02-01T08:00:00.000Z', appVersionCode: 41, appVersionName: '1.4.1' }
                    : i === 1
                      ? {
                          subscriptionDetails: [
                            {
                              _id: 's',
                              status: 3,
                              createdAt: '',
                              expiredAt: null,
                              isRecurring: false,
                              planType: null,
                              paidThrough: null,
                              amount: 1,
                            },
                          ],
                        }
                      : {},
          ),
        );
  const { rows, ...rest } = pageOf(all, { page, limit });
  // A broad search is counted by the server's estimate (decision 078).
  return ok({ allDevices: rows, ...rest, totalIsEstimate: search === 'everywhere' });
});

const renderAt = (at: string) => renderPage({ path: '/admin/device', Component: DevicesPage, at });
const listRequests = () => api.queries('/api/v1/admin/machine');

// The machine is shared and busy; the first render also loads the page's modules.
describe('Device Management page', { timeout: 20_000 }, () => {
  it('shows the devices with a running Sr No, subscription labels and the pager text', async () => {
    renderAt('/admin/device?page=2');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-11');
    expect(within(table).getAllByRole('row')[1]!.textContent).toMatch(/^11MN-11/);
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    expect(listRequests()[0]!.get('page')).toBe('2');
  });

  it('says "about" beside the pager when the total is an estimate, and not otherwise', async () => {
    renderAt('/admin/device?search=everywhere');
    expect(await screen.findByText('about 23 machines')).toBeTruthy();
    renderAt('/admin/device');
    expect(await screen.findByText('23 machines')).toBeTruthy();
  });

  it('labels the subscription status and shows N/A without one', async () => {
    renderAt('/admin/device');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-1');
    expect(within(table).getByText('Expired')).toBeTruthy();
    expect(within(table).getAllByText('N/A').length).toBe(9);
  });

  it('searches after the typing pauses and goes back to page 1', async () => {
    const router = renderAt('/admin/device?page=3');
    await screen.findByText('MN-21');
    await userEvent.type(screen.getByLabelText('Search devices'), 'nothing');
    expect(await screen.findByText('No customers found.')).toBeTruthy();
    expect(router.state.location.search).toBe('?search=nothing');
    const searched = listRequests().filter((p) => p.get('search'));
    // One request for the whole word, not one per key.
    expect(searched.map((p) => p.get('search'))).toEqual(['nothing']);
    expect(searched[0]!.get('page')).toBe('1');
  });

  it('filters by online state from the URL (a dashboard link), with the search, and changes it from its select', async () => {
    const router = renderAt('/admin/device?online=offline&search=mn');
    await screen.findByText('MN-1');
    const select = screen.getByRole('combobox', { name: 'Online' });
    expect((select as HTMLSelectElement).value).toBe('offline');
    expect(listRequests().at(-1)!.get('online')).toBe('offline');
    expect(listRequests().at(-1)!.get('search')).toBe('mn');
    await userEvent.selectOptions(select, 'Never seen');
    await waitFor(() => expect(router.state.location.search).toBe('?online=never&search=mn'));
    await waitFor(() => expect(listRequests().at(-1)!.get('online')).toBe('never'));
    await userEvent.selectOptions(select, 'All machines');
    await waitFor(() => expect(listRequests().at(-1)!.get('online')).toBeNull());
  });

  it('filters by status, subscription, country, city and app version, in the URL and the request; a new country clears the city', async () => {
    const router = renderAt('/admin/device?city=Berlin&search=mn');
    await screen.findByText('MN-1');
    expect(listRequests().at(-1)!.get('city')).toBe('Berlin');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Inactive');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Subscription' }), 'No subscription');
    await userEvent.selectOptions(
      await screen
        .findByRole('option', { name: 'Never reported (7)' })
        .then((option) => option.closest('select')!),
      'none',
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'France (3)');
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?search=mn&status=1&subscriptionStatus=none&appVersion=none&country=France',
      ),
    );
    // The cities offered are now France's, with their counts.
    await screen.findByRole('option', { name: 'Lyon (3)' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'City' }), 'Lyon (3)');
    await waitFor(() => expect(listRequests().at(-1)!.get('city')).toBe('Lyon'));
    const last = listRequests().at(-1)!;
    expect(Object.fromEntries(last)).toMatchObject({
      search: 'mn',
      status: '1',
      subscriptionStatus: 'none',
      appVersion: 'none',
      country: 'France',
      page: '1',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?search=mn'));
  });

  it('offers each app on a version code as its own option, and keeps a bare code from an older link as any app', async () => {
    const router = renderAt('/admin/device?appVersion=42');
    await screen.findByText('MN-1');
    const select = screen.getByRole('combobox', { name: 'App version' }) as HTMLSelectElement;
    expect(select.value).toBe('42');
    expect(within(select).getByRole('option', { name: '42, any app' })).toBeTruthy();
    expect(listRequests().at(-1)!.get('appVersion')).toBe('42');
    await within(select).findByRole('option', { name: 'com.treatment.device 1.4.2 (42) (1,200)' });
    await userEvent.selectOptions(select, 'com.treatment.technician 1.4.2 (42) (3)');
    await waitFor(() => expect(listRequests().at(-1)!.get('appVersion')).toBe('com.treatment.technician:42'));
    expect(new URLSearchParams(router.state.location.search).get('appVersion')).toBe(
      'com.treatment.technician:42',
    );
    // The bare code was the URL's, not a facet value: once another is chosen it is no longer offered.
    expect(within(select).queryByRole('option', { name: '42, any app' })).toBeNull();
  });

  it('sorts a new column ascending and flips it on a second click, keeping it in the URL', async () => {
    const router = renderAt('/admin/device');
    await screen.findByText('MN-1');
    await userEvent.click(screen.getByRole('button', { name: 'Location' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=location&direction=asc'));
    await userEvent.click(screen.getByRole('button', { name: 'Location' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=location&direction=desc'));
    await waitFor(() => expect(listRequests().at(-1)!.get('direction')).toBe('desc'));
    expect(listRequests().at(-1)!.get('sort')).toBe('location');
  });

  it('keeps machine and serial number in the column settings and remembers a hidden column', async () => {
    renderAt('/admin/device');
    await screen.findByText('MN-1');
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    expect(
      ((await screen.findByRole('checkbox', { name: /Machine Number/ })) as HTMLInputElement).disabled,
    ).toBe(true);
    expect((screen.getByRole('checkbox', { name: /Serial Number/ }) as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Location' }));
    expect(screen.queryByRole('columnheader', { name: 'Location' })).toBeNull();
    // Kept on the server as the columns shown.
    await waitFor(() =>
      expect(savedDevicePrefs).toMatchObject({
        columns: ['machineNumber', 'serialNumber', 'status', 'subscriptionStatus'],
      }),
    );
  });

  it('saves a view with the columns shown, in order, beside the filters', async () => {
    savedDevicePrefs = { columns: ['serialNumber', 'machineNumber', 'status'], pageSize: null, sort: null };
    renderAt('/admin/device?search=berlin');
    await screen.findByText('MN-1');
    await userEvent.click(screen.getByRole('button', { name: 'Views' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Save current view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save View' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Berlin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save View' }));
    await waitFor(() => expect(savedView).toBeDefined());
    expect(new URLSearchParams(savedView!.query).get('search')).toBe('berlin');
    expect(new URLSearchParams(savedView!.query).get('columns')).toBe('serialNumber,machineNumber,status');
  });

  it('asks for the saved views only once the pointer reaches Views, and once for the hover and the opening', async () => {
    renderAt('/admin/device');
    await screen.findByText('MN-1');
    const viewRequests = () => api.requests.filter((r) => r.url.startsWith('/api/v1/admin/views'));
    expect(viewRequests()).toHaveLength(0);
    const views = screen.getByRole('button', { name: 'Views' });
    await userEvent.hover(views);
    await waitFor(() => expect(viewRequests()).toHaveLength(1));
    await userEvent.click(views);
    expect(await screen.findByText('No saved views yet.')).toBeTruthy();
    expect(views.getAttribute('aria-expanded')).toBe('true');
    expect(viewRequests()).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    expect(document.activeElement).toBe(views);
  });

  it("applies a followed view's columns as the admin's choice, and takes them out of the URL", async () => {
    const router = renderAt('/admin/device?search=berlin&columns=status,serialNumber,nope');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-1');
    // Unknown keys dropped; the mandatory Machine Number stays, first as when it is not chosen.
    await waitFor(() =>
      expect(savedDevicePrefs).toMatchObject({ columns: ['machineNumber', 'status', 'serialNumber'] }),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?search=berlin'));
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent)
      .filter((text) => ['Machine Number', 'Serial Number', 'Status', 'Location'].includes(text ?? ''));
    expect(headers).toEqual(['Machine Number', 'Status', 'Serial Number']);
  });

  it('offers Last Seen, Online and App Version in the column chooser, hidden until chosen', async () => {
    renderAt('/admin/device');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-1');
    expect(within(table).queryByRole('columnheader', { name: 'Last Seen' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    for (const name of ['Last Seen', 'Online', 'App Version']) {
      const box = (await screen.findByRole('checkbox', { name })) as HTMLInputElement;
      expect(box.checked).toBe(false);
      await userEvent.click(box);
    }
    expect(within(table).getByRole('columnheader', { name: 'Last Seen' })).toBeTruthy();
    const cells = (n: number) =>
      within(within(table).getByText(`MN-${n}`).closest('tr')!)
        .getAllByRole('cell')
        // After the selection box (decision 055), Sr No and the five default columns.
        .slice(7, 10)
        .map((cell) => cell.textContent);
    // The app's package where it named one; an older app's version alone.
    expect(cells(3)).toEqual([formatDateTime(seen), 'Online', 'com.treatment.device 1.4.2 (42)']);
    expect(cells(4)).toEqual([formatDateTime('2025-02-01T08:00:00.000Z'), 'Offline', '1.4.1 (41)']);
    expect(cells(1)).toEqual(['N/A', 'Never seen', 'N/A']);
    // Kept on the server as the columns shown, the optional ones now among them.
    await waitFor(() =>
      expect(savedDevicePrefs).toMatchObject({
        columns: [
          'machineNumber',
          'serialNumber',
          'location',
          'status',
          'subscriptionStatus',
          'lastSeenAt',
          'online',
          'appVersionCode',
        ],
      }),
    );
  });

  it('offers the Licence column in the chooser, hidden until chosen: the state with its date, sortable', async () => {
    const router = renderAt('/admin/device');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-1');
    expect(within(table).queryByRole('columnheader', { name: 'Licence' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const box = (await screen.findByRole('checkbox', { name: 'Licence' })) as HTMLInputElement;
    expect(box.checked).toBe(false);
    await userEvent.click(box);
    const licenceOf = (n: number) =>
      within(within(table).getByText(`MN-${n}`).closest('tr')!)
        .getAllByRole('cell')
        .at(-2)!.textContent;
    expect(licenceOf(5)).toBe(`In grace until ${formatDate(graceUntil)}`);
    expect(licenceOf(6)).toBe(`Active until ${formatDate(seen)}`);
    expect(licenceOf(1)).toBe('Unlicensed');
    await userEvent.click(within(table).getByRole('button', { name: 'Licence' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=licenceState&direction=asc'));
    await waitFor(() => expect(listRequests().at(-1)!.get('sort')).toBe('licenceState'));
  });

  it('filters by licence state and by an active licence ending soon, from the URL (a dashboard link) and its selects', async () => {
    const router = renderAt('/admin/device?licenceEndsWithin=14');
    await screen.findByText('MN-1');
    const ends = screen.getByRole('combobox', { name: 'Licence ends' }) as HTMLSelectElement;
    expect(ends.value).toBe('14');
    expect(listRequests().at(-1)!.get('licenceEndsWithin')).toBe('14');
    await userEvent.selectOptions(ends, 'Any time');
    const licence = screen.getByRole('combobox', { name: 'Licence' });
    // The facet's counts, once they have come.
    await screen.findByRole('option', { name: 'In grace (2)' });
    await userEvent.selectOptions(licence, 'In grace (2)');
    await waitFor(() => expect(router.state.location.search).toBe('?licence=grace'));
    await waitFor(() => expect(listRequests().at(-1)!.get('licence')).toBe('grace'));
    expect(listRequests().at(-1)!.get('licenceEndsWithin')).toBeNull();
  });

  it('sorts Last Seen and Online by lastSeenAt and App Version by appVersionCode', async () => {
    savedDevicePrefs = {
      columns: ['machineNumber', 'serialNumber', 'lastSeenAt', 'online', 'appVersionCode'],
      pageSize: null,
      sort: null,
    };
    const router = renderAt('/admin/device');
    await screen.findByText('MN-1');
    await userEvent.click(screen.getByRole('button', { name: 'Online' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=lastSeenAt&direction=asc'));
    // One field behind both columns: both headers say so.
    expect(screen.getByRole('columnheader', { name: 'Last Seen' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    expect(screen.getByRole('columnheader', { name: 'Online' }).getAttribute('aria-sort')).toBe('ascending');
    await waitFor(() => expect(listRequests().at(-1)!.get('sort')).toBe('lastSeenAt'));
    await userEvent.click(screen.getByRole('button', { name: 'App Version' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=appVersionCode&direction=asc'));
    await waitFor(() => expect(listRequests().at(-1)!.get('sort')).toBe('appVersionCode'));
  });

  it('sends only the status from the row select and confirms it', async () => {
    renderAt('/admin/device');
    await screen.findByText('MN-1');
    await userEvent.selectOptions(screen.getByLabelText('Status of MN-1'), 'Inactive');
    expect(await screen.findByText('Status updated successfully!')).toBeTruthy();
    const put = api.requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe('/api/v1/admin/machine/00000000-0000-4000-8000-000000000001');
    expect(JSON.parse(put.body)).toEqual({ status: 1 });
  });

  it('opens the add and edit forms, which load on first use, and keeps machine and serial read-only on edit', async () => {
    renderAt('/admin/device');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-1');
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Add New Device' }));
    const add = await screen.findByRole('dialog', { name: 'Add New Device' });
    expect((within(add).getByLabelText(/Machine Number/) as HTMLInputElement).value).toBe('');
    await userEvent.click(within(add).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(within(table).getByRole('button', { name: 'Edit MN-1' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Device' });
    const machine = within(edit).getByLabelText(/Machine Number/) as HTMLInputElement;
    expect(machine.value).toBe('MN-1');
    expect(machine.readOnly).toBe(true);
    expect((within(edit).getByLabelText(/Serial Number/) as HTMLInputElement).readOnly).toBe(true);
  });

  it('shows an admin without devices.edit the list only: no Add or Edit, and the status as text', async () => {
    signInWith(['devices.view', 'devices.enrol', 'subscriptions.view']);
    renderAt('/admin/device');
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-1');
    expect(screen.queryByRole('button', { name: 'Add New Device' })).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Edit MN-1' })).toBeNull();
    expect(within(table).queryByLabelText('Status of MN-1')).toBeNull();
    expect(within(within(table).getAllByRole('row')[1]!).getByText('Active')).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'View MN-1' })).toBeTruthy();
  });
});
