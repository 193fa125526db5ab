import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Command } from '@app/contract/commands';
import { formatDateTime } from '#web/lib/format.ts';
import { buildDevice, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { CommandsCard } from './commands-card.tsx';

/*
 * Device Details' Commands section (issue 37 item 5): the machine's commands with their states, paged;
 * sending one (a disruptive kind after the step-up), cancelling one while queued, downloading a
 * diagnostics file, and reading the list again while a command is still open.
 */

signedInForEachTest();

const device = buildDevice(3);
const listPath = `/api/v1/admin/machine/${device._id}/commands`;

const buildCommand = (n: number, over: Partial<Command> = {}): Command => ({
  _id: testId(n, 9),
  deviceId: device._id,
  machineNumber: device.machineNumber,
  kind: 'sync-now',
  params: {},
  state: 'succeeded',
  createdAt: `2025-03-0${n}T10:00:00.000Z`,
  createdBy: 'Ada Admin',
  expiresAt: `2025-03-0${n}T11:00:00.000Z`,
  deliveredAt: `2025-03-0${n}T10:00:05.000Z`,
  finishedAt: `2025-03-0${n}T10:00:09.000Z`,
  waiting: null,
  message: 'synced 12 items',
  diagnostics: null,
  ...over,
});

const diagnosticsSent = buildCommand(3, {
  kind: 'upload-diagnostics',
  params: { minutes: 90 },
  message: null,
  diagnostics: { size: 23_552, uploadedAt: '2025-03-03T10:00:08.000Z' },
});
const held = buildCommand(2, {
  kind: 'safety-hold',
  params: { reason: 'Pump alarm under review' },
  state: 'delivered',
  finishedAt: null,
  message: null,
});
// Reported the next day: that time shows with its date.
const failed = buildCommand(1, {
  state: 'failed',
  finishedAt: '2025-03-02T10:00:09.000Z',
  message: 'storage busy, try again',
});

let commands: Command[];
let listAnswer: (() => Answer | Promise<Answer>) | null;
let cancelRefused: boolean;
let steppedUp: boolean;
const stepUpRequired: Answer = {
  status: 403,
  body: {
    code: 403,
    msg: 'Confirm your password to continue',
    data: { stepUpRequired: true, needsCode: false },
  },
};

const api = serveTestApi((request, url): Answer | Promise<Answer> => {
  if (url.pathname === listPath && request.method === 'GET') {
    if (listAnswer) return listAnswer();
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const { rows, ...paging } = pageOf(commands, { page, limit });
    return ok({ commands: rows, ...paging });
  }
  if (url.pathname === listPath && request.method === 'POST') {
    const body = JSON.parse(request.body) as Pick<Command, 'kind' | 'params'>;
    if (body.kind === 'safety-hold' && !steppedUp) return stepUpRequired;
    const sent = buildCommand(9, { ...body, params: body.params ?? {}, state: 'queued', deliveredAt: null });
    commands = [{ ...sent, finishedAt: null, message: null }, ...commands];
    return ok(sent, 'Command queued', 201);
  }
  if (url.pathname === '/api/v1/admin/profile/step-up' && request.method === 'POST') {
    steppedUp = true;
    return ok({ steppedUpUntil: '2025-03-09T10:05:00.000Z' }, 'Password confirmed');
  }
  const cancelled = /^\/api\/v1\/admin\/commands\/([^/]+)\/cancel$/.exec(url.pathname);
  if (cancelled && request.method === 'POST') {
    if (cancelRefused)
      return failure(409, 'Only a queued command can be cancelled: this one has reached the machine');
    commands = commands.map((c) =>
      c._id === cancelled[1] ? { ...c, state: 'cancelled', message: 'Cancelled by Ada Admin' } : c,
    );
    return ok(
      commands.find((c) => c._id === cancelled[1]),
      'Command cancelled',
    );
  }
  if (url.pathname === `/api/v1/admin/commands/${diagnosticsSent._id}/diagnostics`)
    return {
      status: 200,
      body: 'log lines',
      headers: {
        'content-type': 'application/gzip',
        'content-disposition': 'attachment; filename="diagnostics-MN-3-2025-03-03T10-00-08.gz"',
      },
    };
  return failure(404, 'Not found');
});

beforeAll(() => {
  // jsdom keeps no files: the saved file's address is all the download needs.
  URL.createObjectURL = () => 'blob:diagnostics';
  URL.revokeObjectURL = () => undefined;
});
beforeEach(() => {
  commands = [diagnosticsSent, held, failed];
  listAnswer = null;
  cancelRefused = false;
  steppedUp = false;
});
afterEach(() => vi.restoreAllMocks());

const Card = () => <CommandsCard device={device} />;
const renderCard = () =>
  renderPage({ path: '/admin/device-details/:id', Component: Card, at: '/admin/device-details/x' });
const section = () => screen.findByRole('region', { name: 'Commands' });
const table = async () => within(await section()).getByRole('table', { name: 'Command history' });
const rowsOf = async () =>
  within(await table())
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
const listReads = () => api.queries(listPath).length;

describe('the Commands section', { timeout: 20_000 }, () => {
  it('lists the commands newest first: kind, parameters in words, state, sender, times, message and downloads', async () => {
    renderCard();
    await within(await section()).findByText('Upload diagnostics');
    // Delivered and finished on the day it was sent: the time alone.
    const at = (value: string | null) => formatDateTime(value, 'HH:mm:ss');
    expect(await rowsOf()).toEqual([
      [
        'Upload diagnosticsLogs of the last 90 minutes',
        'Succeeded',
        `${formatDateTime(diagnosticsSent.createdAt)}by Ada Admin`,
        at(diagnosticsSent.deliveredAt),
        at(diagnosticsSent.finishedAt),
        'N/A',
        'Download',
      ],
      [
        'Safety holdReason: Pump alarm under review',
        'Delivered',
        `${formatDateTime(held.createdAt)}by Ada Admin`,
        at(held.deliveredAt),
        // Still open: when it expires unless the machine reports.
        `Expires${formatDateTime(held.expiresAt, 'HH:mm')}`,
        'N/A',
        '',
      ],
      [
        'Sync now',
        'Failed',
        `${formatDateTime(failed.createdAt)}by Ada Admin`,
        at(failed.deliveredAt),
        formatDateTime(failed.finishedAt),
        'storage busy, try again',
        '',
      ],
    ]);
    const region = await section();
    expect(within(region).getByText('3 commands')).toBeTruthy();
    expect(within(region).getByRole('navigation', { name: 'Command history pages' })).toBeTruthy();
  });

  it('says why a queued restart waits: the maintenance window, or a running treatment', async () => {
    const queued = { state: 'queued', deliveredAt: null, finishedAt: null, message: null } as const;
    commands = [
      buildCommand(5, { ...queued, kind: 'restart-app', waiting: 'window' }),
      buildCommand(4, { ...queued, kind: 're-enrol', waiting: 'treatment' }),
    ];
    renderCard();
    await within(await section()).findByText('Restart the app');
    expect((await rowsOf()).map((cells) => cells[1])).toEqual([
      'QueuedWaiting for window',
      'QueuedWaiting for the treatment to end',
    ]);
  });

  it('shows the loading state, then says so when the machine has no commands', async () => {
    const answer = heldAnswer();
    listAnswer = () => answer.answer;
    renderCard();
    const region = await section();
    expect(await within(region).findByRole('status')).toBeTruthy();
    answer.release(ok({ commands: [], total: 0, totalPages: 1, page: 1, limit: 10 }));
    expect(await within(region).findByText('No commands sent to this machine yet')).toBeTruthy();
  });

  it("shows the API's message when the list fails, and reads it again on Try again", async () => {
    listAnswer = () => failure(500, 'Something went wrong');
    renderCard();
    const region = await section();
    expect(await within(region).findByText('Something went wrong')).toBeTruthy();
    listAnswer = null;
    await userEvent.click(within(region).getByRole('button', { name: 'Try again' }));
    expect(await within(region).findByText('Upload diagnostics')).toBeTruthy();
  });

  it('sends upload diagnostics with its minutes and a TTL, toasts and lists it', async () => {
    const user = userEvent.setup();
    renderCard();
    await within(await section()).findByText('Sync now');
    await user.click(within(await section()).getByRole('button', { name: 'Send command' }));
    const form = await screen.findByRole('dialog', { name: `Send a command to ${device.machineNumber}` });
    await user.selectOptions(within(form).getByLabelText(/Command/), 'Upload diagnostics');
    expect(within(form).getByText(/recent logs and state, as a file/)).toBeTruthy();
    const minutes = within(form).getByLabelText('Minutes of logs');
    expect((minutes as HTMLInputElement).value).toBe('60');
    // The contract's messages, under their fields, before anything is sent.
    await user.clear(minutes);
    await user.type(minutes, '2000');
    await user.type(within(form).getByLabelText('Expires after (minutes)'), '0');
    await user.click(within(form).getByRole('button', { name: 'Send command' }));
    expect(
      await within(form).findByText('params.minutes must be a whole number from 1 to 1440'),
    ).toBeTruthy();
    expect(within(form).getByText('ttlMinutes must be a whole number from 1 to 10080')).toBeTruthy();
    expect(minutes.getAttribute('aria-invalid')).toBe('true');
    await user.clear(minutes);
    await user.type(minutes, '30');
    await user.clear(within(form).getByLabelText('Expires after (minutes)'));
    await user.type(within(form).getByLabelText('Expires after (minutes)'), '120');
    const reads = listReads();
    await user.click(within(form).getByRole('button', { name: 'Send command' }));
    const posts = () => api.requests.filter((r) => r.url === listPath && r.method === 'POST');
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(await screen.findByText('Command queued')).toBeTruthy();
    expect(JSON.parse(posts()[0]!.body)).toEqual({
      kind: 'upload-diagnostics',
      params: { minutes: 30 },
      ttlMinutes: 120,
    });
    await waitFor(() => expect(listReads()).toBeGreaterThan(reads));
    expect((await rowsOf())[0]!.slice(0, 2)).toEqual([
      'Upload diagnosticsLogs of the last 30 minutes',
      'Queued',
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('puts the machine on safety hold with a required reason, after a warning and the password', async () => {
    const user = userEvent.setup();
    renderCard();
    await user.click(await within(await section()).findByRole('button', { name: 'Send command' }));
    const form = await screen.findByRole('dialog', { name: `Send a command to ${device.machineNumber}` });
    await user.selectOptions(within(form).getByLabelText(/Command/), 'Safety hold (interrupts the machine)');
    expect(within(form).getByText("This interrupts the machine's work.")).toBeTruthy();
    expect(within(form).queryByLabelText('Minutes of logs')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Send command' }));
    const reason = within(form).getByLabelText(/Reason/);
    expect(await within(form).findByText('params.reason is required')).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    await user.type(reason, 'Pump alarm under review');
    await user.click(within(form).getByRole('button', { name: 'Send command' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm your password to continue' });
    await user.type(within(stepUp).getByLabelText('Your password'), 'Right-Passw0rd');
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    const posts = () => api.requests.filter((r) => r.url === listPath && r.method === 'POST');
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(await screen.findByText('Command queued')).toBeTruthy();
    // Refused once for the step-up, then sent again as it was.
    expect(posts().map((r) => JSON.parse(r.body) as unknown)).toEqual([
      { kind: 'safety-hold', params: { reason: 'Pump alarm under review' } },
      { kind: 'safety-hold', params: { reason: 'Pump alarm under review' } },
    ]);
  });

  it('offers the disruptive kinds only with commands.disruptive, and nothing to send without commands.send', async () => {
    signInWith(['devices.view', 'commands.send']);
    const user = userEvent.setup();
    renderCard();
    await user.click(await within(await section()).findByRole('button', { name: 'Send command' }));
    const form = await screen.findByRole('dialog', { name: `Send a command to ${device.machineNumber}` });
    const options = within(within(form).getByLabelText(/Command/)).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Sync now',
      'Upload diagnostics',
      'Release safety hold',
    ]);
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    signInWith(['devices.view']);
    await within(await section()).findByText('Upload diagnostics');
    const region = await section();
    expect(within(region).queryByRole('button', { name: 'Send command' })).toBeNull();
    expect(within(region).queryByRole('button', { name: /Download|Cancel/ })).toBeNull();
    expect(within(region).queryByRole('columnheader', { name: 'Action' })).toBeNull();
  });

  it("cancels a queued command, and shows the API's reason when it had reached the machine", async () => {
    commands = [buildCommand(4, { state: 'queued', deliveredAt: null, finishedAt: null, message: null })];
    const user = userEvent.setup();
    renderCard();
    const name = `Cancel Sync now sent ${formatDateTime(commands[0]!.createdAt)}`;
    cancelRefused = true;
    await user.click(await within(await section()).findByRole('button', { name }));
    expect(
      await screen.findByText('Only a queued command can be cancelled: this one has reached the machine'),
    ).toBeTruthy();
    cancelRefused = false;
    await user.click(within(await section()).getByRole('button', { name }));
    expect(await screen.findByText('Command cancelled')).toBeTruthy();
    await waitFor(async () => expect((await rowsOf())[0]![1]).toBe('Cancelled'));
    expect(within(await section()).queryByRole('button', { name })).toBeNull();
  });

  it('downloads a diagnostics file under the name the API gives it', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const user = userEvent.setup();
    renderCard();
    await user.click(
      await within(await section()).findByRole('button', {
        name: `Download diagnostics of Upload diagnostics sent ${formatDateTime(diagnosticsSent.createdAt)} (23 kB)`,
      }),
    );
    await waitFor(() => expect(saved).toEqual(['diagnostics-MN-3-2025-03-03T10-00-08.gz']));
  });

  it('reads the list again every few seconds while a command is open, and stops once none is', async () => {
    renderCard();
    await within(await section()).findByText('Delivered');
    // The machine reports: the next read shows it.
    commands = [
      diagnosticsSent,
      { ...held, state: 'succeeded', finishedAt: '2025-03-02T10:01:00.000Z' },
      failed,
    ];
    await waitFor(async () => expect((await rowsOf())[1]![1]).toBe('Succeeded'), { timeout: 5_000 });
    const reads = listReads();
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(listReads()).toBe(reads);
  });
});
