import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MachineWindow, MaintenanceWindow } from '@app/contract/maintenance-windows';
import { formatDateTime } from '#web/lib/format.ts';
import { buildDevice, failure, ok } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { MaintenanceWindowCard } from './maintenance-window-card.tsx';

/*
 * Device Details' Maintenance Window card (issue 37 item 4): the window in words, where it comes
 * from, open or closed now, a running treatment; setting and removing it for devices.edit only.
 */

signedInForEachTest();

const device = buildDevice(3);
const path = `/api/v1/admin/machine/${device._id}/maintenance-window`;
const none: MachineWindow = { window: null, fromGroup: null, openNow: true, busySince: null };

let state: MachineWindow;
let sent: { window: MaintenanceWindow | null }[];
serveTestApi((request, url): Answer => {
  if (url.pathname !== path) return failure(404, 'Not found');
  if (request.method === 'GET') return ok(state);
  const body = JSON.parse(request.body) as { window: MaintenanceWindow | null };
  sent.push(body);
  if (body.window?.timeZone === 'UTC' && body.window.start === '23:00')
    return {
      status: 400,
      body: {
        code: 400,
        msg: 'end must differ from start',
        data: { errors: [{ path: 'window.end', message: 'end must differ from start' }] },
      },
    };
  state = { ...state, window: body.window, fromGroup: null, openNow: body.window === null };
  return ok(state, body.window ? 'Maintenance window saved' : 'Maintenance window removed');
});
beforeEach(() => {
  state = none;
  sent = [];
});

const Card = () => <MaintenanceWindowCard device={device} />;
const renderCard = () =>
  renderPage({ path: '/admin/device-details/:id', Component: Card, at: '/admin/device-details/x' });
const card = () => screen.findByRole('region', { name: 'Maintenance Window' });
const fact = (region: HTMLElement, label: string) =>
  within(region).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;

describe('the Maintenance Window card', () => {
  it('says a machine without a window may restart at any time, and a group’s window with a treatment running', async () => {
    renderCard();
    let region = await card();
    await within(region).findByText('None: restarts may come at any time');
    expect(fact(region, 'Now')).toBe('Always open');
    expect(fact(region, 'Treatment')).toBe('None running');

    state = {
      window: { start: '22:00', end: '02:00', timeZone: 'Europe/Amsterdam' },
      fromGroup: { _id: 'g1', name: 'Night shift' },
      openNow: false,
      busySince: '2026-11-28T21:05:00.000Z',
    };
    renderCard();
    region = (await screen.findAllByRole('region', { name: 'Maintenance Window' })).at(-1)!;
    await within(region).findByText('22:00 to 02:00 every day (past midnight), Europe/Amsterdam');
    expect(fact(region, 'Set On')).toBe('Group Night shift');
    expect(fact(region, 'Now')).toBe('Closed');
    expect(fact(region, 'Treatment')).toBe(`Running since ${formatDateTime(state.busySince)}`);
  });

  it('sets a window by keyboard, shows a refused field under it, and removes it after a confirmation', async () => {
    const user = userEvent.setup();
    renderCard();
    await user.click(await within(await card()).findByRole('button', { name: 'Set window' }));
    const form = await screen.findByRole('dialog', { name: `Maintenance window of ${device.machineNumber}` });
    const from = within(form).getByLabelText(/From/);
    await user.clear(from);
    await user.type(from, '23:00');
    await user.selectOptions(within(form).getByLabelText(/time zone/), 'UTC');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    const until = within(form).getByLabelText(/Until/);
    await waitFor(() => expect(until.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('end must differ from start')).toBeTruthy();

    await user.clear(from);
    await user.type(from, '01:30');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.at(-1)).toEqual({ window: { start: '01:30', end: '04:00', timeZone: 'UTC' } });
    const region = await card();
    await within(region).findByText('01:30 to 04:00 every day, UTC');
    expect(fact(region, 'Set On')).toBe('This machine');

    await user.click(within(region).getByRole('button', { name: 'Remove window' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove maintenance window' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await within(region).findByText('None: restarts may come at any time');
    expect(sent.at(-1)).toEqual({ window: null });
  });

  it('offers nothing to change without devices.edit', async () => {
    signInWith(['devices.view']);
    renderCard();
    const region = await card();
    await within(region).findByText('None: restarts may come at any time');
    expect(within(region).queryByRole('button')).toBeNull();
  });
});
