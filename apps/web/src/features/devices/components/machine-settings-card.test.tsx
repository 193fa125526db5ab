import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  catalogueDefaults,
  settingsMessages,
  type MachineSettingsView,
  type SettingKey,
  type SettingsChangeBody,
} from '@app/contract/machine-settings';
import { formatDateTime } from '#web/lib/format.ts';
import { buildDevice, failure, ok } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { MachineSettingsCard } from './machine-settings-card.tsx';

/*
 * Device Details' Settings card (issue 37 item 3): each setting's effective value in words and
 * where it comes from, whether the machine applied them (drift); changing the machine's own values
 * (only what changed is sent) for devices.edit only.
 */

signedInForEachTest();

const device = buildDevice(3);
const path = `/api/v1/admin/machine/${device._id}/settings`;
const driftSince = '2026-11-28T21:05:00.000Z';
const defaults: MachineSettingsView = {
  effective: catalogueDefaults,
  sources: {
    heartbeatSeconds: { source: 'default', group: null },
    logLevel: { source: 'default', group: null },
    language: { source: 'default', group: null },
    timeZone: { source: 'default', group: null },
    licenceOfflineDays: { source: 'default', group: null },
  },
  own: {},
  version: 0,
  appliedVersion: null,
  appliedAt: null,
  driftSince: null,
};
/**
 * Its own heartbeat, the fleet's log level, a group's language and licence validity, the default
 * zone; not applied yet.
 */
const mixed: MachineSettingsView = {
  effective: {
    heartbeatSeconds: 60,
    logLevel: 'debug',
    language: 'de',
    timeZone: 'UTC',
    licenceOfflineDays: 3,
  },
  sources: {
    heartbeatSeconds: { source: 'machine', group: null },
    logLevel: { source: 'fleet', group: null },
    language: { source: 'group', group: { _id: 'g1', name: 'Night shift' } },
    timeZone: { source: 'default', group: null },
    licenceOfflineDays: { source: 'group', group: { _id: 'g1', name: 'Night shift' } },
  },
  own: { heartbeatSeconds: 60 },
  version: 4,
  appliedVersion: 3,
  appliedAt: '2026-11-28T20:00:00.000Z',
  driftSince,
};

let state: MachineSettingsView;
let getFails: boolean;
let sent: SettingsChangeBody[];
serveTestApi((request, url): Answer => {
  if (url.pathname !== path) return failure(404, 'Not found');
  if (request.method === 'GET') return getFails ? failure(500, 'Something went wrong') : ok(state);
  const body = JSON.parse(request.body) as SettingsChangeBody;
  sent.push(body);
  // Above the server's LICENCE_OFFLINE_DAYS (7 here): only the server knows its maximum.
  if (body.licenceOfflineDays === 30) {
    const message = settingsMessages.licenceOfflineDaysAbove(7);
    return {
      status: 400,
      body: { code: 400, msg: message, data: { errors: [{ path: 'licenceOfflineDays', message }] } },
    };
  }
  // A zone the browser knows but this server's runtime, say, does not: the server has the last word.
  if (body.timeZone === 'Europe/Kyiv')
    return {
      status: 400,
      body: {
        code: 400,
        msg: settingsMessages.timeZone,
        data: { errors: [{ path: 'timeZone', message: settingsMessages.timeZone }] },
      },
    };
  // The machine's own values win; a removed one falls back to the default here.
  const own = { ...state.own };
  const next = { ...state, effective: { ...state.effective }, sources: { ...state.sources } };
  for (const [key, value] of Object.entries(body) as [SettingKey, never][]) {
    if (value === null) delete own[key];
    else own[key] = value;
    next.effective[key] = value ?? catalogueDefaults[key];
    next.sources[key] = { source: value === null ? 'default' : 'machine', group: null };
  }
  state = { ...next, own, version: state.version + 1, driftSince };
  return ok(state, settingsMessages.saved);
});
beforeEach(() => {
  state = mixed;
  getFails = false;
  sent = [];
});

const Card = () => <MachineSettingsCard device={device} />;
const renderCard = () =>
  renderPage({ path: '/admin/device-details/:id', Component: Card, at: '/admin/device-details/x' });
const lastCard = async () => (await screen.findAllByRole('region', { name: 'Settings' })).at(-1)!;
/** The value and the source on a setting's row. */
const row = (region: HTMLElement, label: string) =>
  [...within(region).getByRole('rowheader', { name: label }).parentElement!.querySelectorAll('td')].map(
    (cell) => cell.textContent,
  );

describe('the Settings card', () => {
  it('shows each value in words with where it comes from, and the drift or the applied version', async () => {
    renderCard();
    let region = await lastCard();
    await within(region).findByText(`Not applied yet: waiting since ${formatDateTime(driftSince)}`);
    expect(row(region, 'Heartbeat interval')).toEqual(['60 s', 'This machine']);
    expect(row(region, 'Log level')).toEqual(['debug', 'Fleet default']);
    expect(row(region, 'Language')).toEqual(['German', 'Group Night shift']);
    expect(row(region, 'Time zone')).toEqual(['UTC', 'Default']);
    expect(row(region, 'Offline licence validity')).toEqual(['3 days', 'Group Night shift']);

    state = { ...mixed, appliedVersion: 4, driftSince: null };
    renderCard();
    region = await lastCard();
    await within(region).findByText('Applied (version 4)');

    state = defaults;
    renderCard();
    region = await lastCard();
    await within(region).findByText('Defaults');
    expect(row(region, 'Heartbeat interval')).toEqual(['300 s', 'Default']);
    expect(row(region, 'Language')).toEqual(['English', 'Default']);
    expect(row(region, 'Offline licence validity')).toEqual(['7 days', 'Default']);
  });

  it('says when the settings could not be loaded and loads them again on Try again', async () => {
    getFails = true;
    const user = userEvent.setup();
    renderCard();
    const region = await lastCard();
    await within(region).findByText('Something went wrong');
    expect(within(region).queryByRole('button', { name: 'Change settings' })).toBeNull();
    getFails = false;
    await user.click(within(region).getByRole('button', { name: 'Try again' }));
    await within(region).findByText('60 s');
  });

  it("edits the machine's own values by keyboard, sends only what changed, and shows a refused field under it", async () => {
    const user = userEvent.setup();
    renderCard();
    await user.click(await within(await lastCard()).findByRole('button', { name: 'Change settings' }));
    const form = await screen.findByRole('dialog', { name: `Settings of ${device.machineNumber}` });
    const heartbeat = within(form).getByLabelText(/Heartbeat interval/);
    const language = within(form).getByLabelText(/Language/);
    const zone = within(form).getByLabelText(/Time zone/);
    // Filled with the machine's own values: only its heartbeat is its own.
    expect((heartbeat as HTMLInputElement).value).toBe('60');
    expect((within(form).getByLabelText(/Log level/) as HTMLSelectElement).value).toBe('');
    expect(within(language).getAllByRole('option')[0]!.textContent).toBe('Not set on this machine');

    // The contract's rule refuses a heartbeat out of range before anything is sent.
    await user.clear(heartbeat);
    await user.type(heartbeat, '5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(heartbeat.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText(settingsMessages.heartbeatSeconds)).toBeTruthy();
    expect(sent).toEqual([]);

    await user.clear(heartbeat);
    await user.selectOptions(language, 'German');
    await user.type(zone, 'Europe/Kyiv');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(zone.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText(settingsMessages.timeZone)).toBeTruthy();
    expect(sent).toEqual([{ heartbeatSeconds: null, language: 'de', timeZone: 'Europe/Kyiv' }]);

    await user.clear(zone);
    await user.type(zone, 'Europe/Amsterdam');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.at(-1)).toEqual({ heartbeatSeconds: null, language: 'de', timeZone: 'Europe/Amsterdam' });
    await screen.findByText('Settings saved');
    const region = await lastCard();
    await within(region).findByText('Europe/Amsterdam');
    expect(row(region, 'Heartbeat interval')).toEqual(['300 s', 'Default']);
    expect(row(region, 'Language')).toEqual(['German', 'This machine']);
  });

  it("sets the machine's own offline licence validity in whole days, the server's cap shown under it", async () => {
    const user = userEvent.setup();
    renderCard();
    await user.click(await within(await lastCard()).findByRole('button', { name: 'Change settings' }));
    const form = await screen.findByRole('dialog', { name: `Settings of ${device.machineNumber}` });
    const days = within(form).getByLabelText(/Offline licence validity/);
    expect((days as HTMLInputElement).value).toBe('');
    expect(within(form).getByText(/Days the machine may treat without reaching the server/)).toBeTruthy();
    // Below one day, or a fraction: the contract refuses it before anything is sent.
    await user.type(days, '1.5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(days.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText(settingsMessages.licenceOfflineDays)).toBeTruthy();
    expect(sent).toEqual([]);

    await user.clear(days);
    await user.type(days, '30');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByText(settingsMessages.licenceOfflineDaysAbove(7));
    expect(days.getAttribute('aria-invalid')).toBe('true');

    await user.clear(days);
    await user.type(days, '1');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ licenceOfflineDays: 30 }, { licenceOfflineDays: 1 }]);
    expect(row(await lastCard(), 'Offline licence validity')).toEqual(['1 day', 'This machine']);
  });

  it('offers nothing to change without devices.edit', async () => {
    signInWith(['devices.view']);
    renderCard();
    const region = await lastCard();
    await within(region).findByText('60 s');
    expect(within(region).queryByRole('button')).toBeNull();
  });
});
