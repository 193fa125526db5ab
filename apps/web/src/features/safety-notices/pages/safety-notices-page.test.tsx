import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { safetyNoticeMessages, type NoticeMachine, type SafetyNotice } from '@app/contract/safety-notices';
import { safetyNoticeTexts } from '@app/contract/safety-notices-texts';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { SafetyNoticePage } from './safety-notice-page.tsx';
import { SafetyNoticesPage } from './safety-notices-page.tsx';

/*
 * Decision 084: the list of field safety notices, a new draft (its selection checked before it is
 * sent, the API's refusal under its field), and a sent notice's status per machine with its filter.
 */

const buildNotice = (n: number, over: Partial<SafetyNotice> = {}): SafetyNotice => ({
  _id: testId(n, 9),
  reference: `FSN-${n}`,
  title: `Pump drift ${n}`,
  description: 'The pump may drift.',
  kind: 'corrective-action',
  remedyText: 'Update the app.',
  selection: {
    serialRanges: [{ from: 'SN-1', to: 'SN-2' }],
    appVersionCodes: [],
    groupId: null,
    groupName: null,
  },
  remedy: null,
  state: 'sent',
  createdAt: '2030-01-02T10:00:00.000Z',
  createdBy: 'Ada',
  sentAt: '2030-01-02T11:00:00.000Z',
  sentBy: 'Ada',
  counts: { machines: 2, contacts: 2, notified: 1, acknowledged: 1, noContact: 0, remedied: 0 },
  signature: null,
  ...over,
});
const machine = (serial: string, over: Partial<NoticeMachine> = {}): NoticeMachine => ({
  deviceId: null,
  machineNumber: `MN-${serial}`,
  serialNumber: serial,
  appVersionCode: 40,
  appVersionName: '1.3.0',
  contact: `${serial.toLowerCase()}@clinic.example`,
  status: 'notified',
  notifiedAt: '2030-01-02T11:00:00.000Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
  remediedAt: null,
  ...over,
});

let notices: SafetyNotice[] = [];
const machines = [
  machine('SN-1', {
    status: 'acknowledged',
    acknowledgedAt: '2030-01-03T09:00:00.000Z',
    acknowledgedBy: 'Nora',
  }),
  machine('SN-2'),
];

const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/safety-notices' && request.method === 'GET') {
    const { rows, ...rest } = pageOf(notices);
    return ok({ notices: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/safety-notices' && request.method === 'POST')
    return {
      status: 400,
      body: {
        code: 400,
        msg: safetyNoticeMessages.groupUnknown,
        data: { errors: [{ path: 'selection.groupId', message: safetyNoticeMessages.groupUnknown }] },
      },
    };
  if (url.pathname === `/api/v1/admin/safety-notices/${testId(1, 9)}`) return ok(notices[0]);
  if (url.pathname.endsWith('/machines')) {
    const status = url.searchParams.get('status');
    const { rows, ...rest } = pageOf(machines.filter((m) => !status || m.status === status));
    return ok({ machines: rows, ...rest, counts: notices[0]!.counts });
  }
  if (url.pathname.startsWith('/api/v1/admin/groups')) return ok({ groups: [], ...pageOf([]) });
  if (url.pathname.startsWith('/api/v1/admin/system/updates')) return ok({ allSystems: [], ...pageOf([]) });
  return failure(404, 'Not found');
});

beforeEach(() => {
  notices = [buildNotice(1)];
  startSession(buildAdminProfile(['safety-notices.manage']), 'a.b.c');
});

describe('Field Safety Notices', () => {
  it('lists the notices with how many machines acknowledged and were remedied', async () => {
    renderPage({ path: '/admin/safety-notices', Component: SafetyNoticesPage, at: '/admin/safety-notices' });
    expect(await screen.findByRole('heading', { level: 1, name: safetyNoticeTexts.title })).toBeTruthy();
    const table = await screen.findByRole('table', { name: safetyNoticeTexts.title });
    const row = (await within(table).findByText('Pump drift 1')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'FSN-1' }).getAttribute('href')).toBe(
      `/admin/safety-notices/${testId(1, 9)}`,
    );
    expect(within(row).getByText('1 of 2')).toBeTruthy();
    expect(within(row).getByText('Field safety corrective action')).toBeTruthy();
  });

  it('says when there is no notice yet', async () => {
    notices = [];
    renderPage({ path: '/admin/safety-notices', Component: SafetyNoticesPage, at: '/admin/safety-notices' });
    expect(await screen.findByText(safetyNoticeTexts.empty)).toBeTruthy();
  });

  it('checks a new draft: required texts, a reversed serial range, and the API naming the group', async () => {
    const user = userEvent.setup();
    renderPage({ path: '/admin/safety-notices', Component: SafetyNoticesPage, at: '/admin/safety-notices' });
    await user.click(await screen.findByRole('button', { name: safetyNoticeTexts.create }));
    const dialog = await screen.findByRole('dialog', { name: safetyNoticeTexts.createTitle });
    await user.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    expect(await within(dialog).findByText(safetyNoticeMessages.referenceRequired)).toBeTruthy();
    expect(within(dialog).getByText(safetyNoticeMessages.selectionRequired)).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/^Reference/), 'FSN-9');
    await user.type(within(dialog).getByLabelText(/^Title/), 'Drift');
    await user.type(within(dialog).getByLabelText(/^Description/), 'It drifts.');
    await user.type(within(dialog).getByLabelText(/^What the clinic must do/), 'Update.');
    await user.type(within(dialog).getByLabelText(/^Serial ranges/), 'SN-9 SN-1');
    await user.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    expect(await within(dialog).findByText(/the last serial comes before the first/)).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
    await user.clear(within(dialog).getByLabelText(/^Serial ranges/));
    await user.type(within(dialog).getByLabelText(/^Serial ranges/), 'SN-1 SN-9');
    await user.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    expect(await within(dialog).findByText(safetyNoticeMessages.groupUnknown)).toBeTruthy();
    const sent = api.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(sent.body).selection).toEqual({
      serialRanges: [{ from: 'SN-1', to: 'SN-9' }],
      appVersionCodes: [],
      groupId: null,
    });
  });

  it("shows a sent notice's machines, its counts and the filter by status", async () => {
    const user = userEvent.setup();
    renderPage({
      path: '/admin/safety-notices/:id',
      Component: SafetyNoticePage,
      at: `/admin/safety-notices/${testId(1, 9)}`,
    });
    const table = await screen.findByRole('table', { name: safetyNoticeTexts.status });
    const acknowledged = (await within(table).findByText('SN-1')).closest('tr')!;
    expect(within(acknowledged).getByText(/by Nora/)).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Counts' })).getByText('Acknowledged: 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Show'), 'notified');
    await waitFor(() => expect(within(table).queryByText('SN-1')).toBeNull());
    expect(within(table).getByText('SN-2')).toBeTruthy();
  });
});
