import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SubscriptionSummary } from '@app/contract/devices';
import { formatDate } from '#web/lib/format.ts';
import { buildDevice, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { DeviceSubscriptionsCard } from './device-subscriptions-card.tsx';

/* Device Details lists the machine's subscriptions (issue 34 item 1), each opening its own page. */

signedInForEachTest();

const paid: SubscriptionSummary = {
  _id: testId(41),
  status: 2,
  createdAt: '2026-10-01T09:00:00.000Z',
  expiredAt: '2026-11-01T09:00:00.000Z',
  isRecurring: true,
  planType: 'year',
  amount: 1200,
  paidThrough: '2027-10-01T09:00:00.000Z',
};
const pending: SubscriptionSummary = {
  ...paid,
  _id: testId(42),
  status: 1,
  isRecurring: false,
  planType: null,
  amount: 99.5,
  paidThrough: null,
};

const show = (subscriptionDetails: SubscriptionSummary[]) => {
  const device = buildDevice(4, { subscriptionDetails });
  const Card = () => <DeviceSubscriptionsCard device={device} />;
  renderPage({
    path: '/admin/device-details/:id',
    Component: Card,
    at: `/admin/device-details/${device._id}`,
  });
  return device;
};

describe('the Subscriptions card', () => {
  it('lists each subscription with its status, plan, amount and paid-through date, and links to its page', async () => {
    const device = show([paid, pending]);
    const table = await screen.findByRole('table', {
      name: `Subscriptions of machine ${device.machineNumber}`,
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Complete');
    expect(rows[0]!.textContent).toContain('Yearly');
    expect(rows[0]!.textContent).toContain('$1,200.00');
    expect(rows[0]!.textContent).toContain(formatDate(paid.paidThrough));
    expect(rows[1]!.textContent).toContain('Pending');
    expect(rows[1]!.textContent).toContain('One Time');
    expect(rows[1]!.textContent).toContain('$99.50');
    const links = within(table).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      `/admin/view-subscription/${paid._id}`,
      `/admin/view-subscription/${pending._id}`,
    ]);
  });

  it('says so when no subscription names the machine', async () => {
    show([]);
    expect(await screen.findByText('No subscription names this machine yet.')).toBeTruthy();
  });

  it('offers no link to a role that may not see subscriptions', async () => {
    signInWith(['devices.view']);
    show([paid]);
    expect(await screen.findByText('Complete')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
