import { planTypeLabels, oneTimeLabel } from '@app/contract/subscriptions';
import type { subscriptions } from '#api/db/schema/subscriptions.ts';
import { escapeHtml } from '#api/lib/mailer.ts';

type Row = typeof subscriptions.$inferSelect;

const money = (cents: number) => (cents / 100).toFixed(2);

/** The mail that sends a new payment link to its customer. */
export function linkMail(row: Row, link: string) {
  const plan = row.isRecurring
    ? `${planTypeLabels[row.planType ?? 'month']} subscription`
    : `${oneTimeLabel} payment`;
  const expires = row.expiredAt.toUTCString();
  const text = [
    `Hello ${row.fullName},`,
    '',
    `Your ${plan} for machine ${row.machineSerialNumber} is ready: $${money(row.amountCents)}.`,
    `Pay securely by card here: ${link}`,
    '',
    `This link expires on ${expires}.`,
  ].join('\n');
  const html =
    `<p>Hello ${escapeHtml(row.fullName)},</p>` +
    `<p>Your ${escapeHtml(plan)} for machine ${escapeHtml(row.machineSerialNumber)} is ready: $${money(row.amountCents)}.</p>` +
    `<p><a href="${escapeHtml(link)}">Pay securely by card</a></p>` +
    `<p>This link expires on ${escapeHtml(expires)}.</p>`;
  // The link is the customer's only key to the checkout: cleared from the outbox once sent.
  return { to: row.email, subject: 'Your subscription payment link', text, html, secret: true };
}

/** The mail that sends a recurring plan's customer a link to change its card. */
export function cardUpdateMail(row: Row, link: string) {
  const text = [
    `Hello ${row.fullName},`,
    '',
    `Please update the card that pays the subscription for machine ${row.machineSerialNumber} here: ${link}`,
  ].join('\n');
  const html =
    `<p>Hello ${escapeHtml(row.fullName)},</p>` +
    `<p>Please update the card that pays the subscription for machine ${escapeHtml(row.machineSerialNumber)}:</p>` +
    `<p><a href="${escapeHtml(link)}">Update your card</a></p>`;
  // A key to the customer's billing: cleared from the outbox once sent.
  return { to: row.email, subject: 'Update the card for your subscription', text, html, secret: true };
}
