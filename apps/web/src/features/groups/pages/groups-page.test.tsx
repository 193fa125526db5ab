import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { groupMessages } from '@app/contract/groups';
import { formatDateTime } from '#web/lib/format.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { GroupsPage } from './groups-page.tsx';
import { nightWard, refusal, resetGroups, sent, serveGroupsApi, state } from './groups-test-api.ts';

/*
 * The Groups screen (issue 37 item 1): the list in words, its search in the URL, its loading, empty
 * and failed states, and Add group for groups.manage only.
 */

signedInForEachTest();
const api = serveGroupsApi();
beforeEach(resetGroups);

const open = (at = '/admin/groups') => renderPage({ path: '/admin/groups', Component: GroupsPage, at });
const rowOf = (table: HTMLElement, name: string) =>
  [...within(table).getAllByRole('row')].find((row) => within(row).queryByText(name))!;
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('the Groups list', () => {
  it('shows each group in words: kind, filter, machines, window, and who created it when', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Groups' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Groups' });
    await within(table).findByText('Night ward');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Sr No',
      'Name',
      'Kind',
      'Filter',
      'Machines',
      'Maintenance Window',
      'Created At',
      'Created By',
      'Actions',
    ]);
    expect(cells(rowOf(table, 'Night ward')).slice(0, 8)).toEqual([
      '1',
      'Night ward',
      'Static',
      'None',
      '12',
      '02:00–04:00 Europe/Berlin',
      formatDateTime(nightWard.createdAt),
      'ops@example.com',
    ]);
    expect(cells(rowOf(table, 'Germany offline')).slice(2, 6)).toEqual([
      'Dynamic',
      'Country: Germany, Online: Offline',
      '3',
      'None',
    ]);
  });

  it('searches by name and keeps the search in the URL', async () => {
    const user = userEvent.setup();
    const router = open('/admin/groups?search=night');
    const table = await screen.findByRole('table', { name: 'Groups' });
    await within(table).findByText('Night ward');
    expect(within(table).queryByText('Germany offline')).toBeNull();
    expect(api.queries('/api/v1/admin/groups')[0]!.get('search')).toBe('night');
    const search = screen.getByRole('searchbox', { name: 'Search groups by name' });
    expect((search as HTMLInputElement).value).toBe('night');

    await user.clear(search);
    await user.type(search, 'germ');
    await within(table).findByText('Germany offline', {}, { timeout: 3000 });
    expect(router.state.location.search).toBe('?search=germ');
    await user.clear(search);
    await user.type(search, 'nothing like it');
    expect(await within(table).findByText('No groups match the search.', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('says when there is no group yet', async () => {
    state.groups = [];
    open();
    expect(await screen.findByText('No groups yet.')).toBeTruthy();
  });

  it('says when the list could not be loaded, and loads it again on Try again', async () => {
    state.listFails = true;
    const user = userEvent.setup();
    open();
    await screen.findByText('Something went wrong');
    expect(screen.queryByRole('table')).toBeNull();
    state.listFails = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Night ward')).toBeTruthy();
  });

  it('offers no way to change groups without groups.manage', async () => {
    signInWith(['devices.view']);
    open();
    const table = await screen.findByRole('table', { name: 'Groups' });
    await within(table).findByText('Night ward');
    expect(screen.queryByRole('button', { name: 'Add group' })).toBeNull();
    expect(within(table).queryByRole('button')).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});

describe('Add group', () => {
  it('creates a dynamic group from the filter fields that are filled in, and toasts the answer', async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Night ward');
    await user.click(screen.getByRole('button', { name: 'Add group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add group' });
    expect(within(dialog).queryByLabelText('Country')).toBeNull();
    await user.type(within(dialog).getByLabelText(/Name/), 'Berlin offline');
    await user.selectOptions(within(dialog).getByLabelText(/Kind/), 'Dynamic');

    // A dynamic group needs at least one filter: the contract says so before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(groupMessages.filterRequired)).toBeTruthy();
    expect(sent(api.requests, 'POST')).toEqual([]);

    const filter = within(dialog).getByRole('group', { name: 'Filter' });
    await user.type(within(filter).getByLabelText('Country'), ' Germany ');
    await user.type(within(filter).getByLabelText('City'), 'Berlin');
    await user.selectOptions(within(filter).getByLabelText('Online'), 'Offline');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(api.requests, 'POST')).toEqual([
      {
        name: 'Berlin offline',
        kind: 'dynamic',
        filter: { country: 'Germany', city: 'Berlin', online: 'offline' },
      },
    ]);
    expect(await screen.findByText('Created group Berlin offline')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Groups' });
    expect(await within(table).findByText('Country: Germany, City: Berlin, Online: Offline')).toBeTruthy();
  });

  it('creates a static group without a filter, and puts a refusal under the field it names', async () => {
    const user = userEvent.setup();
    state.refuse = (request) =>
      request.body.includes('Atlantis')
        ? refusal('filter.country', 'country: no machine is in Atlantis')
        : request.body.includes('Night ward')
          ? { status: 409, body: { code: 409, msg: groupMessages.nameTaken, data: null } }
          : null;
    open();
    await screen.findByText('Night ward');
    await user.click(screen.getByRole('button', { name: 'Add group' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add group' });
    const name = within(dialog).getByLabelText(/Name/);
    await user.type(name, 'Night ward');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(groupMessages.nameTaken).id).toBe(name.getAttribute('aria-describedby'));

    await user.selectOptions(within(dialog).getByLabelText(/Kind/), 'Dynamic');
    const country = within(dialog).getByLabelText('Country');
    await user.type(country, 'Atlantis');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(country.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('country: no machine is in Atlantis')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add group' })).toBe(dialog);

    await user.selectOptions(within(dialog).getByLabelText(/Kind/), 'Static');
    await user.clear(name);
    await user.type(name, 'Spare machines');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(api.requests, 'POST').at(-1)).toEqual({ name: 'Spare machines', kind: 'static' });
    dialog = screen.getByRole('table', { name: 'Groups' });
    expect(await within(dialog).findByText('Spare machines')).toBeTruthy();
  });
});
