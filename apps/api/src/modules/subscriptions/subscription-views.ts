import type { CheckoutSummary, Subscription } from '@app/contract/subscriptions';
import type { SubscriptionRow } from './payment-state-machine.ts';
import { effectiveStatus } from './subscription-status.ts';

/** A link as the console lists it. */
export const subscriptionView = (
  row: SubscriptionRow & { customerName?: string | null },
  at: Date,
  link: string,
): Subscription => ({
  _id: row.id,
  fullName: row.fullName,
  email: row.email,
  machineSerialNumber: row.machineSerialNumber,
  deviceId: row.deviceId,
  amount: row.amountCents / 100,
  isRecurring: row.isRecurring,
  planType: row.planType ?? null,
  status: effectiveStatus(row, at),
  createdAt: row.createdAt.toISOString(),
  expiredAt: row.expiredAt.toISOString(),
  paidAt: row.paidAt?.toISOString() ?? null,
  link,
  demoPayment: row.provider === 'demo',
  customerId: row.customerId,
  customerName: row.customerName ?? null,
});

/** What the customer's checkout page shows: no link, no payment details. */
export const checkoutSummaryView = (row: SubscriptionRow, at: Date): CheckoutSummary => ({
  _id: row.id,
  fullName: row.fullName,
  isRecurring: row.isRecurring,
  planType: row.planType ?? null,
  email: row.email,
  machineSerialNumber: row.machineSerialNumber,
  amount: row.amountCents / 100,
  createdAt: row.createdAt.toISOString(),
  status: effectiveStatus(row, at),
});
