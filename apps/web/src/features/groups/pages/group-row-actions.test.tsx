import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { groupMessages } from '@app/contract/groups';
import { settingsMessages } from '@app/contract/machine-settings';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { GroupsPage } from './groups-page.tsx';
import { nightWard, refusal, resetGroups, sent, serveGroupsApi, state } from './groups-test-api.ts';

/*
 * The Groups screen's row actions (groups.manage): each button names its group; rename, the
 * maintenance window (set or removed), the settings (only what is chosen is sent, Clear is null) and
 * delete after a confirmation, each toasting the API's message.
 */

signedInForEachTest();
const api = serveGroupsApi();
beforeEach(resetGroups);

const user = userEvent.setup();
const openFor = async (action: string) => {
  renderPage({ path: '/admin/groups', Component: GroupsPage, at: '/admin/groups' });
  await user.click(await screen.findByRole('button', { name: `${action} Night ward` }));
};
const save = (dialog: HTMLElement) => user.click(within(dialog).getByRole('button', { name: 'Save' }));
const closed = () => waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
const path = `/api/v1/admin/groups/${nightWard._id}`;

describe('the row actions', () => {
  it('renames a group, with a taken name put under Name', async () => {
    state.refuse = (request) =>
      request.body.includes('Germany offline')
        ? { status: 409, body: { code: 409, msg: groupMessages.nameTaken, data: null } }
        : null;
    await openFor('Rename group');
    const dialog = await screen.findByRole('dialog', { name: 'Rename group Night ward' });
    const name = within(dialog).getByLabelText(/Name/);
    expect((name as HTMLInputElement).value).toBe('Night ward');
    await user.clear(name);
    await user.type(name, 'Germany offline');
    await save(dialog);
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(groupMessages.nameTaken)).toBeTruthy();

    await user.clear(name);
    await user.type(name, 'Night shift');
    await save(dialog);
    await closed();
    const put = api.requests.filter((r) => r.method === 'PUT');
    expect(put.map((r) => [r.url, JSON.parse(r.body) as unknown]).at(-1)).toEqual([
      path,
      { name: 'Night shift' },
    ]);
    expect(await screen.findByText(groupMessages.updated)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Rename group Night shift' })).toBeTruthy();
  });

  it('sets a maintenance window from From, Until and Time zone, and removes it', async () => {
    state.refuse = (request) =>
      request.body.includes('Asia/Tokyo') ? refusal('window.timeZone', 'timeZone is not known here') : null;
    await openFor('Maintenance window of group');
    let dialog = await screen.findByRole('dialog', { name: 'Maintenance window of group Night ward' });
    const from = within(dialog).getByLabelText(/From/);
    expect((from as HTMLInputElement).value).toBe('02:00');
    await user.clear(from);
    await user.type(from, '23:30');
    const zone = within(dialog).getByLabelText(/Time zone/);
    await user.selectOptions(zone, 'Asia/Tokyo');
    await save(dialog);
    await waitFor(() => expect(zone.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('timeZone is not known here')).toBeTruthy();

    await user.selectOptions(zone, 'Europe/Lisbon');
    await save(dialog);
    await closed();
    expect(sent(api.requests, 'PUT').at(-1)).toEqual({
      window: { start: '23:30', end: '04:00', timeZone: 'Europe/Lisbon' },
    });
    expect(await screen.findByText('Maintenance window saved')).toBeTruthy();
    expect(await screen.findByText('23:30–04:00 Europe/Lisbon')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Maintenance window of group Night ward' }));
    dialog = await screen.findByRole('dialog', { name: 'Maintenance window of group Night ward' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove window' }));
    await closed();
    expect(sent(api.requests, 'PUT').at(-1)).toEqual({ window: null });
    expect(await screen.findByText('Maintenance window removed')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Groups' });
    await waitFor(() => expect(within(table).queryByText('23:30–04:00 Europe/Lisbon')).toBeNull());
  });

  it('sends only the settings chosen, Clear as null, and nothing before one is chosen', async () => {
    await openFor('Settings of group');
    const dialog = await screen.findByRole('dialog', { name: 'Settings of group Night ward' });
    await save(dialog);
    expect(await within(dialog).findByRole('alert')).toHaveProperty('textContent', settingsMessages.noChange);

    const heartbeat = within(dialog).getByLabelText(/Heartbeat interval/);
    await user.type(heartbeat, '5');
    await save(dialog);
    await waitFor(() => expect(heartbeat.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(settingsMessages.heartbeatSeconds)).toBeTruthy();

    await user.clear(heartbeat);
    await user.type(heartbeat, '60');
    const language = within(dialog).getByLabelText(/Language/);
    expect(within(language).getAllByRole('option')[0]!.textContent).toBe('Leave as is');
    await user.selectOptions(language, 'German');
    await user.selectOptions(
      within(dialog).getByLabelText(/Log level/),
      "Clear (the fleet's value or the default applies)",
    );
    await save(dialog);
    await closed();
    expect(api.requests.find((r) => r.method === 'PATCH')?.url).toBe(`${path}/settings`);
    expect(sent(api.requests, 'PATCH')).toEqual([{ heartbeatSeconds: 60, language: 'de', logLevel: null }]);
    expect(await screen.findByText(settingsMessages.saved)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Settings of group Night ward' }));
    const again = await screen.findByRole('dialog', { name: 'Settings of group Night ward' });
    expect((within(again).getByLabelText(/Heartbeat interval/) as HTMLInputElement).value).toBe('');
    await user.click(within(again).getByLabelText('Clear the heartbeat interval'));
    await save(again);
    await closed();
    expect(sent(api.requests, 'PATCH').at(-1)).toEqual({ heartbeatSeconds: null });
  });

  it("sets the offline licence validity in days, shows the server's cap under it, and clears it", async () => {
    const above = settingsMessages.licenceOfflineDaysAbove(7);
    state.refuse = (request) =>
      request.body.includes('"licenceOfflineDays":30') ? refusal('licenceOfflineDays', above) : null;
    await openFor('Settings of group');
    let dialog = await screen.findByRole('dialog', { name: 'Settings of group Night ward' });
    const days = within(dialog).getByLabelText(/Offline licence validity/);
    expect(days.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByText(/Days the machine may treat without reaching the server/)).toBeTruthy();
    await user.type(days, '0');
    await save(dialog);
    await waitFor(() => expect(days.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(settingsMessages.licenceOfflineDays)).toBeTruthy();
    expect(sent(api.requests, 'PATCH')).toEqual([]);

    await user.clear(days);
    await user.type(days, '30');
    await save(dialog);
    await waitFor(() => expect(within(dialog).queryByText(above)).toBeTruthy());
    expect(days.getAttribute('aria-invalid')).toBe('true');

    await user.clear(days);
    await user.type(days, '3');
    await save(dialog);
    await closed();
    expect(sent(api.requests, 'PATCH').slice(-2)).toEqual([
      { licenceOfflineDays: 30 },
      { licenceOfflineDays: 3 },
    ]);

    await user.click(screen.getByRole('button', { name: 'Settings of group Night ward' }));
    dialog = await screen.findByRole('dialog', { name: 'Settings of group Night ward' });
    await user.click(within(dialog).getByLabelText('Clear the offline licence validity'));
    await save(dialog);
    await closed();
    expect(sent(api.requests, 'PATCH').at(-1)).toEqual({ licenceOfflineDays: null });
  });

  it("changes the fleet's default settings from the screen's header", async () => {
    renderPage({ path: '/admin/groups', Component: GroupsPage, at: '/admin/groups' });
    await user.click(await screen.findByRole('button', { name: 'Fleet default settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fleet default settings' });
    await user.selectOptions(within(dialog).getByLabelText(/Time zone/), 'Europe/Berlin');
    await save(dialog);
    await closed();
    expect(api.requests.find((r) => r.method === 'PATCH')?.url).toBe('/api/v1/admin/settings');
    expect(sent(api.requests, 'PATCH')).toEqual([{ timeZone: 'Europe/Berlin' }]);
    expect(await screen.findByText(settingsMessages.saved)).toBeTruthy();
  });

  it('deletes a group only after the confirmation', async () => {
    await openFor('Delete group');
    let dialog = await screen.findByRole('dialog', { name: 'Delete group' });
    expect(dialog.textContent).toContain(
      'Delete the group Night ward? Its machines stay; the maintenance window and settings it gave them are taken off.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await closed();
    expect(api.requests.filter((r) => r.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete group Night ward' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete group' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted group Night ward')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([path]);
    const table = screen.getByRole('table', { name: 'Groups' });
    await waitFor(() => expect(within(table).queryByText('Night ward')).toBeNull());
  });
});
