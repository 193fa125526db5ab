import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClinicMachine, ClinicSubscription, Figures, UsageReport } from '@app/contract/clinic-portal';
import { clinicPortalMessages, clinicPortalTexts } from '@app/contract/clinic-portal-texts';
import { failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest } from '#web/test/session.ts';
import { leavePortal } from '../components/subscription-card.tsx';
import { ClinicBillingPage } from './clinic-billing-page.tsx';
import { ClinicFiguresPage } from './clinic-figures-page.tsx';
import { ClinicMachinesPage } from './clinic-machines-page.tsx';
import { ClinicUsagePage } from './clinic-usage-page.tsx';

/* Issue 39 item 5: the clinic portal's machines, figures, billing and usage report. */

const machine = (n: number, over: Partial<ClinicMachine> = {}): ClinicMachine => ({
  _id: testId(n),
  machineNumber: `MN-${n}`,
  serialNumber: `SN-${n}`,
  location: 'Room 1',
  city: 'Lyon',
  country: 'France',
  status: 2,
  lastSeenAt: null,
  online: false,
  licenceState: 'active',
  licencePaidThrough: '2027-01-31T00:00:00.000Z',
  licenceGraceUntil: null,
  heldSince: '2026-01-01T00:00:00.000Z',
  ...over,
});
const figures: Figures = {
  from: '2026-01-01',
  to: '2026-02-28',
  timeZone: 'UTC',
  total: { count: 7, minutes: 70 },
  byMachine: [
    { deviceId: testId(1), label: 'MN-1', current: true, count: 4, minutes: 40 },
    { deviceId: testId(2), label: 'Former machine 00000000', current: false, count: 3, minutes: 30 },
  ],
  byDoctor: [{ doctorId: testId(5), label: 'Dr. Who', count: 7, minutes: 70 }],
  byWeek: [{ week: '2025-12-29', count: 7, minutes: 70 }],
  byMonth: [
    { month: '2026-01', count: 7, minutes: 70 },
    { month: '2026-02', count: 0, minutes: 0 },
  ],
};
const subscription = (over: Partial<ClinicSubscription> = {}): ClinicSubscription => ({
  _id: 'sub-1',
  machineSerialNumber: 'SN-1',
  amount: 49,
  isRecurring: true,
  planType: 'month',
  status: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  expiredAt: '2026-03-01T00:00:00.000Z',
  paidThrough: '2026-03-01T00:00:00.000Z',
  renewalFailedAt: null,
  lastPaymentError: null,
  cancelAtPeriodEnd: false,
  cardLast4: '4242',
  payUrl: null,
  canRetry: false,
  canUpdateCard: true,
  payments: [
    { _id: 'pay-1', paidAt: '2026-02-01T10:00:00.000Z', amount: 49, periodEnd: null, provider: 'demo' },
  ],
  ...over,
});
const usage: UsageReport = {
  month: '2026-02',
  timeZone: 'UTC',
  machines: [
    {
      deviceId: testId(1),
      label: 'MN-1',
      serialNumber: 'SN-1',
      current: true,
      treatments: 4,
      minutes: 40,
      daysUsed: 2,
    },
  ],
  total: { treatments: 4, minutes: 40, daysUsed: 2 },
};

let failing = false;
let held: ReturnType<typeof heldAnswer> | null = null;
let subscriptions: ClinicSubscription[] = [];
const api = serveTestApi(async (request, url) => {
  if (held) return held.answer;
  if (failing) return failure(503, 'The database is restarting: try again in a moment');
  switch (url.pathname) {
    case '/api/v1/clinic/machines': {
      const search = url.searchParams.get('search');
      const rows = [
        machine(1, { online: true, lastSeenAt: '2026-02-01T10:00:00.000Z' }),
        machine(2, { status: 1 }),
      ];
      const { rows: page, ...rest } = pageOf(rows.filter((m) => !search || m.machineNumber === search));
      return ok({ machines: page, ...rest });
    }
    case '/api/v1/clinic/figures':
      return ok(figures);
    case '/api/v1/clinic/usage':
      return ok(usage);
    case '/api/v1/clinic/subscriptions':
      return ok({ subscriptions });
    case '/api/v1/clinic/subscriptions/sub-1/payments/pay-1/receipt':
      return ok({ url: 'http://127.0.0.1/api/v1/receipts/pay-1' });
    case '/api/v1/clinic/subscriptions/sub-1/card-update':
      return ok({ url: 'http://127.0.0.1/plans/sub-1/card' }, clinicPortalMessages.cardUpdateOpened);
    case '/api/v1/clinic/subscriptions/sub-3/card-update':
      return ok({ url: null }, clinicPortalMessages.cardUpdateDemo);
    case '/api/v1/clinic/subscriptions/sub-3/demo-card':
      return ok({ cardLast4: '5556' }, clinicPortalMessages.cardUpdated);
    case '/api/v1/clinic/subscriptions/sub-1/retry':
      return ok({ paid: true }, clinicPortalMessages.retried);
  }
  return failure(404, 'Route not found');
});

beforeEach(() => {
  failing = false;
  held = null;
  subscriptions = [subscription()];
});
afterEach(() => vi.restoreAllMocks());
signedInForEachTest();

const open = (path: string, Component: () => React.JSX.Element) => renderPage({ path, Component, at: path });

describe('Machines', { timeout: 30_000 }, () => {
  it('lists the clinic’s machines with status, last seen and licence, and searches them', async () => {
    const user = userEvent.setup();
    open('/clinic/machines', ClinicMachinesPage);
    expect(
      await screen.findByRole('heading', { level: 1, name: clinicPortalTexts.machinesTitle }),
    ).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Machines' });
    const row = (await within(table).findByText('MN-1')).closest('tr')!;
    expect(within(row).getByText('Online')).toBeTruthy();
    expect(within(row).getByText('Active until 31-01-2027')).toBeTruthy();
    expect(within(table).getByText('Never')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search machines' }), 'MN-2');
    await waitFor(() => expect(within(table).queryByText('MN-1')).toBeNull(), { timeout: 3000 });
    expect(api.requests.some((r) => r.url.includes('search=MN-2'))).toBe(true);
  });

  it('shows the loading state, then an error with Try again', async () => {
    held = heldAnswer();
    open('/clinic/machines', ClinicMachinesPage);
    expect(await screen.findByRole('status')).toBeTruthy();
    failing = true;
    held.release(failure(503, 'down'));
    held = null;
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('Treatment figures', { timeout: 30_000 }, () => {
  it('shows the totals, a chart’s table per grouping, a former machine, and a CSV of the grouping shown', async () => {
    const user = userEvent.setup();
    open('/clinic/figures', ClinicFiguresPage);
    expect(await screen.findByText(/treatments,/)).toBeTruthy();
    const months = screen.getByRole('table', { name: 'Treatments per month' });
    expect(within(months).getByRole('rowheader', { name: '2026-02' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Per machine' }));
    const perMachine = screen.getByRole('table', { name: 'Treatments per machine' });
    expect(within(perMachine).getByText('Former machine 00000000')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.getByLabelText('From')).toHaveProperty('value', '2026-01-01');
  });

  it('says when the range has no treatment', async () => {
    figures.total.count = 0;
    open('/clinic/figures', ClinicFiguresPage);
    expect(await screen.findByText(clinicPortalTexts.figuresEmpty)).toBeTruthy();
    figures.total.count = 7;
  });
});

describe('Billing', { timeout: 30_000 }, () => {
  it('shows each subscription with its payments, opens a receipt and the card page', async () => {
    const user = userEvent.setup();
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const left = vi.spyOn(leavePortal, 'to').mockReturnValue(undefined);
    open('/clinic/billing', ClinicBillingPage);
    expect(await screen.findByRole('heading', { name: 'Monthly plan for machine SN-1' })).toBeTruthy();
    expect(screen.getByText('Complete')).toBeTruthy();
    expect(screen.getByText('•••• 4242')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Receipt of the payment/ }));
    await waitFor(() =>
      expect(opened).toHaveBeenCalledWith('http://127.0.0.1/api/v1/receipts/pay-1', '_blank', 'noopener'),
    );
    await user.click(screen.getByRole('button', { name: clinicPortalTexts.updateCard }));
    await waitFor(() => expect(left).toHaveBeenCalledWith('http://127.0.0.1/plans/sub-1/card'));
  });

  it('offers Pay for an open link and Pay now for a failed renewal', async () => {
    const user = userEvent.setup();
    subscriptions = [
      subscription({
        renewalFailedAt: '2026-02-01T00:00:00.000Z',
        lastPaymentError: 'Card declined',
        canRetry: true,
      }),
      subscription({
        _id: 'sub-2',
        machineSerialNumber: 'SN-2',
        status: 1,
        payUrl: 'http://127.0.0.1/plans/sub-2',
        canUpdateCard: false,
        payments: [],
      }),
    ];
    open('/clinic/billing', ClinicBillingPage);
    expect((await screen.findByRole('link', { name: 'Pay $49.00' })).getAttribute('href')).toBe(
      'http://127.0.0.1/plans/sub-2',
    );
    expect(screen.getByText('Renewal failed: Card declined')).toBeTruthy();
    expect(screen.getByText(clinicPortalTexts.paymentsEmpty)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: clinicPortalTexts.retry }));
    expect(await screen.findByText(clinicPortalMessages.retried)).toBeTruthy();
  });

  it("takes the demo provider's new card in the portal's own form", async () => {
    const user = userEvent.setup();
    subscriptions = [subscription({ _id: 'sub-3' })];
    open('/clinic/billing', ClinicBillingPage);
    await user.click(await screen.findByRole('button', { name: clinicPortalTexts.updateCard }));
    const dialog = await screen.findByRole('dialog', { name: clinicPortalTexts.updateCard });
    await user.type(await within(dialog).findByLabelText(/^Card number/), '4000 0566 5566 5556');
    await user.type(within(dialog).getByLabelText(/^Expiry/), '12/49');
    await user.type(within(dialog).getByLabelText(/^CVC/), '123');
    await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText(clinicPortalMessages.cardUpdated)).toBeTruthy();
    const sent = api.requests.find((r) => r.url.endsWith('/sub-3/demo-card'));
    const body = JSON.parse(sent!.body) as { cardNumber: string; expiry: string };
    expect(body.cardNumber.replace(/\s/g, '')).toBe('4000056655665556');
    expect(body.expiry).toBe('12/49');
  });

  it('says when the clinic has no subscription', async () => {
    subscriptions = [];
    open('/clinic/billing', ClinicBillingPage);
    expect(await screen.findByText(clinicPortalTexts.billingEmpty)).toBeTruthy();
  });
});

describe('Monthly usage report', { timeout: 30_000 }, () => {
  it('shows each machine’s month, prints, and downloads the CSV of the month', async () => {
    const user = userEvent.setup();
    const printed = vi.spyOn(window, 'print').mockReturnValue(undefined);
    open('/clinic/usage', ClinicUsagePage);
    const table = await screen.findByRole('table', { name: 'Usage per machine, 2026-02' });
    const row = within(table).getByText('MN-1').closest('tr')!;
    expect(within(row).getByText('SN-1')).toBeTruthy();
    expect(screen.getByLabelText('Month')).toHaveProperty('value', '2026-02');
    await user.click(screen.getByRole('button', { name: clinicPortalTexts.print }));
    expect(printed).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });
});
