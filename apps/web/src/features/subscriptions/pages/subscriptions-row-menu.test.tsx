import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SubscriptionDetail } from '@app/contract/subscription-operations';
import { failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { SubscriptionsPage } from './subscriptions-page.tsx';

/*
 * The list's row menu (issue 34 item 5): View, the operations the subscription's state allows (the
 * API's detail, fetched when the pointer or focus reaches the menu) and the admin's role carries,
 * and the latest receipt; each operation opens the same dialog as on the subscription's page.
 */
signedInForEachTest();

const pending = {
  _id: 'sub_pending',
  fullName: 'Pending Customer',
  email: 'pending@example.com',
  machineSerialNumber: 'SN-1',
  deviceId: 'device-1',
  amount: 20,
  isRecurring: false,
  planType: null,
  status: 1 as const,
  createdAt: '2026-01-01T09:00:00.000Z',
  expiredAt: '2026-01-08T09:00:00.000Z',
  paidAt: null,
  link: 'http://localhost/plans/sub_pending',
  demoPayment: false,
};

const detailOf = (over: Partial<SubscriptionDetail> = {}): SubscriptionDetail => ({
  subscription: pending,
  machine: null,
  plan: {
    provider: null,
    paidThrough: null,
    graceUntil: null,
    collectionPaused: false,
    cancelAtPeriodEnd: false,
    cancelledAt: null,
    revokedAt: null,
    renewalFailedAt: null,
    lastPaymentError: null,
    cardLast4: null,
  },
  operations: {
    resend: true,
    revoke: true,
    extend: false,
    grace: false,
    resume: false,
    cancel: false,
    retry: false,
    cardUpdate: false,
  },
  payments: [],
  timeline: [],
  ...over,
});

let detail = detailOf();
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/subscrption/all')
    return ok({ subscriptions: [pending], total_pages: 1, total: 1, page: 1, limit: 10 });
  if (url.pathname === '/api/v1/admin/preferences') return ok({ lists: {} });
  if (url.pathname.startsWith('/api/v1/admin/views')) return ok({ views: [] });
  if (url.pathname === '/api/v1/admin/subscriptions/sub_pending') return ok(detail);
  if (url.pathname === '/api/v1/admin/subscriptions/sub_pending/revoke')
    return ok(null, 'Link revoked: it can no longer be paid');
  if (url.pathname === '/api/v1/admin/subscriptions/sub_pending/resend')
    return failure(409, 'This link was revoked');
  return failure(404, 'Route not found');
});

beforeEach(() => {
  detail = detailOf();
});

const open = () =>
  renderPage({
    path: '/admin/subscription-management',
    Component: SubscriptionsPage,
    at: '/admin/subscription-management',
  });
const detailReads = () => api.requests.filter((r) => r.url === '/api/v1/admin/subscriptions/sub_pending');

async function openMenu() {
  const button = await screen.findByRole('button', { name: 'Actions for Pending Customer' });
  button.focus();
  await userEvent.keyboard('{Enter}');
  return screen.getByRole('menu', { name: 'Actions for Pending Customer' });
}

describe("the subscription list's row menu", () => {
  it('asks for the detail only when the menu is reached, and offers what the state allows', async () => {
    open();
    await screen.findByText('Pending Customer');
    expect(detailReads()).toHaveLength(0);
    const menu = await openMenu();
    expect(detailReads()).toHaveLength(1);
    await waitFor(() =>
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((i) => i.textContent),
      ).toEqual(['View', 'Resend link', 'Revoke link']),
    );
  });

  it('revokes an unpaid link from the menu with an optional reason, sending none when left empty', async () => {
    open();
    const menu = await openMenu();
    await userEvent.click(await within(menu).findByRole('menuitem', { name: 'Revoke link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke link' });
    expect(within(dialog).getByText('pending@example.com can no longer pay this link.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke link' }));
    expect(await screen.findByText('Link revoked: it can no longer be paid')).toBeTruthy();
    const revoke = api.requests.find((r) => r.url.endsWith('/revoke'))!;
    expect(JSON.parse(revoke.body)).toEqual({});
    // The list and the subscription are read again.
    await waitFor(() => expect(detailReads().length).toBeGreaterThan(1));
  });

  it("shows the API's refusal as a message", async () => {
    open();
    const menu = await openMenu();
    await userEvent.click(await within(menu).findByRole('menuitem', { name: 'Resend link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resend link' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('This link was revoked')).toBeTruthy();
  });

  it('opens the subscription page from View', async () => {
    open();
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'View' }));
    expect(await screen.findByText('Navigated to /admin/view-subscription/sub_pending')).toBeTruthy();
  });

  it("offers the latest payment's receipt", async () => {
    detail = detailOf({
      operations: { ...detailOf().operations, resend: false, revoke: false },
      payments: [
        {
          _id: 'p1',
          paidAt: '2026-01-01T09:00:00.000Z',
          amount: 20,
          periodEnd: null,
          provider: 'stripe',
          receiptUrl: 'https://r/1',
        },
        {
          _id: 'p2',
          paidAt: '2026-02-01T09:00:00.000Z',
          amount: 20,
          periodEnd: null,
          provider: 'stripe',
          receiptUrl: 'https://r/2',
        },
      ],
    });
    open();
    const menu = await openMenu();
    const receipt = await within(menu).findByRole('menuitem', { name: /Receipt of 01-02-2026/ });
    expect(receipt.getAttribute('href')).toBe('https://r/2');
  });

  it('offers only View to a role that may not manage subscriptions', async () => {
    signInWith(['subscriptions.view']);
    open();
    const menu = await openMenu();
    await waitFor(() => expect(detailReads()).toHaveLength(1));
    await waitFor(() => expect(within(menu).queryByText('Loading…')).toBeNull());
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['View']);
  });
});
