import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SubscriptionDetail } from '@app/contract/subscription-operations';
import { failure, ok } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { ViewSubscriptionPage } from './view-subscription-page.tsx';

signedInForEachTest();

const id = 'sub_AAAAAAAAAAAAAAAAAAAAAAAA';
const password = 'Right-Passw0rd';

const none = {
  resend: false,
  revoke: false,
  extend: false,
  grace: false,
  resume: false,
  cancel: false,
  retry: false,
  cardUpdate: false,
};

/** A monthly plan, paid twice (demo, then Stripe with and without a recorded receipt). */
function paidPlan(over: Partial<SubscriptionDetail> = {}): SubscriptionDetail {
  return {
    subscription: {
      _id: id,
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      machineSerialNumber: 'SN-7',
      deviceId: 'device-7',
      amount: 49.99,
      isRecurring: true,
      planType: 'month',
      status: 2,
      createdAt: '2026-01-01T09:00:00.000Z',
      expiredAt: '2026-03-01T09:00:00.000Z',
      paidAt: '2026-01-01T09:05:00.000Z',
      link: `http://localhost/plans/${id}`,
      demoPayment: true,
    },
    machine: { _id: 'device-7', machineNumber: 'MN-7', serialNumber: 'SN-7', licenceState: 'active' },
    plan: {
      provider: 'demo',
      paidThrough: '2026-03-01T09:00:00.000Z',
      graceUntil: null,
      collectionPaused: false,
      cancelAtPeriodEnd: false,
      cancelledAt: null,
      revokedAt: null,
      renewalFailedAt: null,
      lastPaymentError: null,
      cardLast4: '4242',
    },
    operations: { ...none, extend: true, grace: true, cancel: true, cardUpdate: true },
    payments: [
      {
        _id: 'pay_demo',
        paidAt: '2026-01-01T09:05:00.000Z',
        amount: 49.99,
        periodEnd: '2026-02-01T09:05:00.000Z',
        provider: 'demo',
        receiptUrl: null,
      },
      {
        _id: 'pay_stripe',
        paidAt: '2026-02-01T09:05:00.000Z',
        amount: 49.99,
        periodEnd: '2026-03-01T09:05:00.000Z',
        provider: 'stripe',
        receiptUrl: null,
      },
    ],
    timeline: [
      {
        _id: 'e3',
        at: '2026-02-10T10:00:00.000Z',
        kind: 'extended',
        actor: 'admin@example.com',
        detail: { reason: 'Loaner while repaired', paidThrough: '2026-03-01T23:59:59.999Z' },
      },
      { _id: 'e2', at: '2026-01-01T09:05:00.000Z', kind: 'paid', actor: null, detail: { amount: 49.99 } },
      { _id: 'e1', at: '2026-01-01T09:00:00.000Z', kind: 'created', actor: 'admin@example.com', detail: {} },
    ],
    ...over,
  };
}

let detail: SubscriptionDetail | null = paidPlan();
let steppedUp = false;
let hold: ReturnType<typeof heldAnswer> | null = null;
const base = `/api/v1/admin/subscriptions/${id}`;

const api = serveTestApi(async (request, url): Promise<Answer> => {
  if (url.pathname === base && request.method === 'GET') {
    if (hold) return hold.answer;
    return detail ? ok(detail) : failure(404, 'Subscription not found');
  }
  if (url.pathname === `${base}/payments/pay_stripe/receipt`)
    return ok({ url: 'https://pay.stripe.com/receipts/inv_1' });
  if (url.pathname === '/api/v1/admin/profile/step-up') {
    steppedUp = (JSON.parse(request.body) as { password: string }).password === password;
    return steppedUp
      ? ok({ steppedUpUntil: '2026-02-10T10:05:00.000Z' }, 'Password confirmed')
      : {
          status: 400,
          body: { code: 400, msg: 'Password is incorrect', data: { errors: [{ path: 'password' }] } },
        };
  }
  if (url.pathname === '/api/v1/admin/profile/mfa')
    return ok({ enabled: false, recoveryCodesLeft: 0, required: false });
  if (url.pathname === `${base}/extend`) {
    // Signed (decision 083): the signature's password is the confirmation, no step-up is asked.
    const body = JSON.parse(request.body) as {
      paidThrough: string;
      reason: string;
      signature: { meaning: 'responsibility'; password: string };
    };
    if (body.signature.password !== password)
      return {
        status: 400,
        body: {
          code: 400,
          msg: 'Password is incorrect',
          data: { errors: [{ path: 'signature.password', message: 'Password is incorrect' }] },
        },
      };
    const at = '2026-02-11T10:00:00.000Z';
    detail = paidPlan({
      plan: { ...paidPlan().plan, paidThrough: `${body.paidThrough}T23:59:59.999Z` },
      timeline: [
        {
          _id: 'e4',
          at,
          kind: 'extended',
          actor: 'admin@example.com',
          detail: {
            reason: body.reason,
            paidThrough: `${body.paidThrough}T23:59:59.999Z`,
            signatureId: 's1',
          },
          signature: {
            id: 's1',
            signerName: 'Ada Admin',
            signerEmail: 'admin@example.com',
            meaning: body.signature.meaning,
            signedAt: at,
            contentHash: 'f'.repeat(64),
          },
        },
        ...paidPlan().timeline,
      ],
    });
    return ok(null, 'Paid-through date extended');
  }
  if (url.pathname === `${base}/card-update`) return failure(409, 'This plan has ended');
  return failure(404, 'Route not found');
});

beforeEach(() => {
  detail = paidPlan();
  steppedUp = false;
  hold = null;
});

const open = () =>
  renderPage({
    path: '/admin/view-subscription/:id',
    Component: ViewSubscriptionPage,
    at: `/admin/view-subscription/${id}`,
  });
const posts = () => api.requests.filter((r) => r.method === 'POST');

describe('Subscription Details', () => {
  it('shows the subscription, its machine linked to Device Details, its payments with receipts and its timeline', async () => {
    open();
    const card = await screen.findByRole('region', { name: 'Subscription' });
    expect(await within(card).findByText('ada@example.com')).toBeTruthy();
    expect(within(card).getByText('Monthly')).toBeTruthy();
    expect(within(card).getByText('Complete')).toBeTruthy();
    expect(within(card).getByText('Demo payment')).toBeTruthy();
    expect(within(card).getByText('01-03-2026')).toBeTruthy();
    expect(within(card).getByText('Ending 4242')).toBeTruthy();

    const machine = screen.getByRole('region', { name: 'Machine' });
    expect(within(machine).getByRole('link', { name: 'MN-7' }).getAttribute('href')).toBe(
      '/admin/device-details/device-7',
    );
    expect(within(machine).getByText('Active')).toBeTruthy();

    const payments = screen.getByRole('table', { name: 'Payments' });
    const demoReceipt = within(payments).getByRole('link', { name: /Receipt of 01-01-2026/ });
    expect(demoReceipt.getAttribute('href')).toBe('/api/v1/receipts/pay_demo');
    expect(demoReceipt.getAttribute('target')).toBe('_blank');
    // A Stripe payment whose receipt was not recorded: asked for, then linked in the button's place.
    await userEvent.click(within(payments).getByRole('button', { name: 'Find receipt of 01-02-2026' }));
    const stripeReceipt = await within(payments).findByRole('link', { name: /Receipt of 01-02-2026/ });
    expect(stripeReceipt.getAttribute('href')).toBe('https://pay.stripe.com/receipts/inv_1');
    expect(document.activeElement).toBe(stripeReceipt);

    const timeline = screen.getByRole('list', { name: 'Timeline, newest first' });
    const entries = within(timeline).getAllByRole('listitem');
    expect(entries.map((e) => e.querySelector('.fw-semibold')?.textContent)).toEqual([
      'Paid-through date extended',
      'Paid',
      'Created',
    ]);
    expect(within(entries[0]!).getByText('by admin@example.com')).toBeTruthy();
    expect(within(entries[0]!).getByText('Loaner while repaired')).toBeTruthy();
    expect(within(entries[1]!).getByText('$49.99')).toBeTruthy();
  });

  it('names the customer it is for, linking to its page (issue 39)', async () => {
    const plan = paidPlan();
    detail = {
      ...plan,
      subscription: { ...plan.subscription, customerId: 'cust-1', customerName: 'Harbour Clinic' },
    };
    open();
    const link = await screen.findByRole('link', { name: 'Harbour Clinic' });
    expect(link.getAttribute('href')).toBe('/admin/customers/cust-1');
  });

  it('shows a spinner while loading, and says so when the subscription does not exist', async () => {
    hold = heldAnswer();
    open();
    expect(await screen.findByRole('status')).toBeTruthy();
    hold.release(failure(404, 'Subscription not found'));
    expect(await screen.findByText('Subscription not found')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Payments' })).toBeNull();
  });

  it('says when nothing was paid yet and nothing happened yet', async () => {
    detail = paidPlan({ payments: [], timeline: [] });
    open();
    expect(await screen.findByText('No payment yet.')).toBeTruthy();
    expect(screen.getByText('Nothing has happened yet.')).toBeTruthy();
  });

  it("offers the operations the subscription's state allows and the admin's role carries", async () => {
    open();
    const operations = await screen.findByRole('group', { name: 'Operations' });
    expect(
      within(operations)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Extend paid-through date', 'Grant grace', 'Send card update link', 'Cancel plan']);
  });

  it('offers no time without payment to a role lacking licences.manage', async () => {
    signInWith(['subscriptions.view', 'subscriptions.manage']);
    open();
    const operations = await screen.findByRole('group', { name: 'Operations' });
    expect(
      within(operations)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Send card update link', 'Cancel plan']);
  });

  it('offers nothing to a role that may only view subscriptions', async () => {
    signInWith(['subscriptions.view']);
    open();
    expect(await screen.findByText('ada@example.com')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Operations' })).toBeNull();
  });

  it('shows what is missing in the extension form under each field, and sends nothing', async () => {
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Extend paid-through date' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend paid-through date' });
    expect(within(dialog).getByText('Paid through 01-03-2026 now.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText('Paid-through date is required')).toBeTruthy();
    const reason = within(dialog).getByLabelText(/Reason/);
    expect(within(dialog).getByText('Reason is required')).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(posts()).toHaveLength(0);
  });

  it('extends the paid-through date with a reason, signed with the meaning and password; the timeline shows the signature', async () => {
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Extend paid-through date' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend paid-through date' });
    await userEvent.type(within(dialog).getByLabelText(/New paid-through date/), '2026-06-30');
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Loaner while repaired');
    await userEvent.selectOptions(within(dialog).getByLabelText(/Meaning/), 'Responsibility');
    await userEvent.type(within(dialog).getByLabelText(/Your password/), 'not-it');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    // A wrong password is said under its field; the dialog keeps what was typed.
    expect(await within(dialog).findByText('Password is incorrect')).toBeTruthy();
    const field = within(dialog).getByLabelText(/Your password/);
    await userEvent.clear(field);
    await userEvent.type(field, password);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));

    expect(await screen.findByText('Paid-through date extended')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const extends_ = posts().filter((r) => r.url === `${base}/extend`);
    expect(extends_).toHaveLength(2);
    expect(JSON.parse(extends_[1]!.body)).toEqual({
      paidThrough: '2026-06-30',
      reason: 'Loaner while repaired',
      signature: { meaning: 'responsibility', password },
    });
    const card = screen.getByRole('region', { name: 'Subscription' });
    expect(await within(card).findByText('30-06-2026')).toBeTruthy();
    const line = await screen.findByTestId('signature-line');
    expect(line.textContent).toMatch(/^Signed by Ada Admin · .+ · Responsibility/);
    expect(screen.queryByText('signatureId:')).toBeNull();
  });

  it("shows the API's refusal when the state changed meanwhile", async () => {
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Send card update link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send card update link' });
    expect(within(dialog).getByText("Mail ada@example.com a link to change the plan's card?")).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('This plan has ended')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
