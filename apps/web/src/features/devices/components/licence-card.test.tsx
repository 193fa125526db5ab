import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Licence } from '@app/contract/licences';
import { formatDate, formatDateTime } from '#web/lib/format.ts';
import { buildDevice, failure, ok } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { LicenceCard } from './licence-card.tsx';

/*
 * Device Details' Licence card (issue 34 item 4): the state, its dates, the exemption and the
 * history; exempting (with the route's step-up) and ending an exemption for licences.manage only.
 */

signedInForEachTest();

const device = buildDevice(3);
const base = `/api/v1/admin/machine/${device._id}/licence`;
const grace: Licence = {
  deviceId: device._id,
  state: 'grace',
  locked: false,
  enforcement: 'lapsed',
  paidThrough: '2026-11-01T00:00:00.000Z',
  graceUntil: '2026-11-15T00:00:00.000Z',
  version: 3,
  since: '2026-11-01T00:05:00.000Z',
  exemption: null,
  events: [
    {
      _id: 'e2',
      at: '2026-11-01T00:05:00.000Z',
      fromState: 'active',
      toState: 'grace',
      cause: 'expiry',
      actor: null,
      reason: null,
      paidThrough: '2026-11-01T00:00:00.000Z',
      graceUntil: '2026-11-15T00:00:00.000Z',
    },
    {
      _id: 'e1',
      at: '2026-10-01T09:00:00.000Z',
      fromState: 'unlicensed',
      toState: 'active',
      cause: 'payment',
      actor: null,
      reason: null,
      paidThrough: '2026-11-01T00:00:00.000Z',
      graceUntil: '2026-11-15T00:00:00.000Z',
    },
  ],
};
const exempt: Licence = {
  ...grace,
  state: 'exempt',
  exemption: {
    kind: 'loaner',
    reason: 'Loaner while the clinic machine is repaired',
    until: '2026-12-31T23:59:59.999Z',
    by: 'admin@example.com',
    at: '2026-11-02T10:00:00.000Z',
  },
};

let licence: Licence;
let steppedUp: boolean;
const api = serveTestApi((request, url): Answer => {
  if (url.pathname === base) return ok(licence);
  if (url.pathname === '/api/v1/admin/profile/step-up' && request.method === 'POST') {
    steppedUp = true;
    return ok({ steppedUpUntil: '2026-11-25T10:05:00.000Z' }, 'Password confirmed');
  }
  if (url.pathname === `${base}/exemption` && request.method === 'PUT') {
    if (!steppedUp)
      return {
        status: 403,
        body: {
          code: 403,
          msg: 'Confirm your password to continue',
          data: { stepUpRequired: true, needsCode: false },
        },
      };
    const body = JSON.parse(request.body) as { until: string };
    if (body.until < '2026-11-03')
      return {
        status: 400,
        body: {
          code: 400,
          msg: 'End date must be after today',
          data: { errors: [{ path: 'until', message: 'End date must be after today' }] },
        },
      };
    licence = exempt;
    return ok(licence, 'The machine is exempt until the end date');
  }
  if (url.pathname === `${base}/exemption/end` && request.method === 'POST') {
    licence = grace;
    return ok(null, 'The exemption has ended');
  }
  return failure(404, 'Not found');
});
beforeEach(() => {
  licence = grace;
  steppedUp = false;
});

const Card = () => <LicenceCard device={device} />;
const renderCard = () =>
  renderPage({ path: '/admin/device-details/:id', Component: Card, at: '/admin/device-details/x' });
const card = () => screen.findByRole('region', { name: 'Licence' });

describe('the Licence card', () => {
  it('shows the state, paid through, grace until and the history with each cause', async () => {
    renderCard();
    const region = await card();
    await within(region).findByText('In grace');
    const fact = (label: string) =>
      within(region).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(fact('Paid Through')).toBe(formatDate(grace.paidThrough));
    expect(fact('Grace Until')).toBe(formatDate(grace.graceUntil));
    const history = within(region).getByRole('table', { name: 'Licence history' });
    const rows = within(history)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      [formatDateTime(grace.events[0]!.at), 'Active → In grace', 'Time passed'],
      [formatDateTime(grace.events[1]!.at), 'Unlicensed → Active', 'Payment'],
    ]);
  });

  it('exempts the machine with a kind, a reason and an end date, after the step-up, naming a refused field under it', async () => {
    const user = userEvent.setup();
    renderCard();
    await user.click(await within(await card()).findByRole('button', { name: 'Exempt' }));
    const form = await screen.findByRole('dialog', { name: `Exempt ${device.machineNumber}` });
    // The contract's messages, before anything is sent.
    await user.click(within(form).getByRole('button', { name: 'Exempt' }));
    expect(await within(form).findByText('Reason is required')).toBeTruthy();
    expect(within(form).getByText('End date is required')).toBeTruthy();
    await user.selectOptions(within(form).getByLabelText(/Kind/), 'Loaner');
    await user.type(within(form).getByLabelText(/Reason/), 'Loaner while the clinic machine is repaired');
    await user.type(within(form).getByLabelText(/End date/), '2026-11-01');
    await user.click(within(form).getByRole('button', { name: 'Exempt' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm your password to continue' });
    await user.type(within(stepUp).getByLabelText('Your password'), 'Right-Passw0rd');
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    // The server's refusal names the end date: it shows under that field.
    const until = within(form).getByLabelText(/End date/);
    await waitFor(() => expect(until.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('End date must be after today')).toBeTruthy();
    await user.clear(until);
    await user.type(until, '2026-12-31');
    await user.click(within(form).getByRole('button', { name: 'Exempt' }));
    expect(await screen.findByText('The machine is exempt until the end date')).toBeTruthy();
    const puts = api.requests.filter((r) => r.method === 'PUT');
    expect(JSON.parse(puts.at(-1)!.body)).toEqual({
      kind: 'loaner',
      reason: 'Loaner while the clinic machine is repaired',
      until: '2026-12-31',
    });
    const region = await card();
    expect(await within(region).findByText('Loaner while the clinic machine is repaired')).toBeTruthy();
    const fact = (label: string) =>
      within(region).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(fact('Exemption')).toBe('Loaner');
    expect(fact('Exempt Until')).toBe(formatDate(exempt.exemption!.until));
  });

  it('ends an exemption with a reason', async () => {
    licence = exempt;
    const user = userEvent.setup();
    renderCard();
    await user.click(await within(await card()).findByRole('button', { name: 'End exemption' }));
    const form = await screen.findByRole('dialog', { name: 'End exemption' });
    await user.type(within(form).getByLabelText(/Reason/), 'Repaired early');
    await user.click(within(form).getByRole('button', { name: 'End exemption' }));
    expect(await screen.findByText('The exemption has ended')).toBeTruthy();
    const ended = api.requests.find((r) => r.url.endsWith('/exemption/end'))!;
    expect(JSON.parse(ended.body)).toEqual({ reason: 'Repaired early' });
    expect(await within(await card()).findByText('In grace')).toBeTruthy();
  });

  it('offers no exemption to a role without licences.manage', async () => {
    signInWith(['devices.view']);
    renderCard();
    const region = await card();
    await within(region).findByText('In grace');
    expect(within(region).queryByRole('button')).toBeNull();
  });
});
