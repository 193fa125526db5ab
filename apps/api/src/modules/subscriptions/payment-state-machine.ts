import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { subscriptionStatuses } from '@app/contract/subscriptions';
import type { LicenceCause } from '@app/contract/licences';
import type { SubscriptionEventDetail } from '@app/contract/subscription-history';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import type { LicenceChangeCause } from '#api/modules/licences/licence-ledger.ts';
import type { Licences } from '#api/modules/licences/licences-service.ts';
import {
  addPeriod,
  paymentCurrency,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentState,
} from '#api/lib/payments/payment-provider.ts';
import { recordEvent, recordPayment } from './subscription-history.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

const { complete, expired, failed, pending } = subscriptionStatuses;
/** Links still waiting for their money: the only ones a failure or a lapse may change. */
export const unpaidStatuses = [pending, failed];

/** The payment a success is for, when the caller knows it: its row and receipt (subscription-history.ts). */
export type PaidWith = {
  /** The provider's id of this payment: PaymentIntent, invoice, or the demo provider's reference. */
  ref: string;
  receiptUrl: string | null;
  /** What was paid; the subscription's amount when not given. */
  amountCents?: number | null;
  /** More for the timeline's event (the demo card's last four digits). */
  detail?: SubscriptionEventDetail;
};

const dollars = (cents: number) => cents / 100;

/**
 * A link's payment states. The webhook, the demo provider and reconciliation all change a link
 * through here; each step takes the executor so it can run inside the caller's transaction.
 */
export function createPaymentStateMachine({
  provider,
  now,
  licences,
}: {
  provider: Pick<PaymentProvider, 'name' | 'retrieveState'>;
  now: () => Date;
  /** Every change ends with the machine's licence derived again, in the same transaction (decision 068). */
  licences: Pick<Licences, 'recomputeForSubscription' | 'oneTimePaidThrough'>;
}) {
  /** The subscription's machine derived again, in `executor`, with why (a cause, or an admin's action). */
  const relicense = (executor: Db, id: string, why: LicenceCause | LicenceChangeCause) =>
    licences.recomputeForSubscription(executor, id, typeof why === 'string' ? { cause: why } : why);

  /**
   * A payment succeeded. The subscription is paid (a one-time link once, a recurring plan for one
   * more period), its payment recorded once (`payment`), its timeline told ('paid' the first time,
   * 'renewed' after) and its machine relicensed: all in `executor`. A second event for a payment
   * already recorded changes nothing.
   */
  async function markPaid(
    executor: Db,
    id: string,
    periodEnd: Date | null,
    cause: LicenceCause | LicenceChangeCause = 'payment',
    payment?: PaidWith,
  ) {
    const at = now();
    const [row] = await executor.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    if (!row) return;
    const amountCents = payment?.amountCents ?? row.amountCents;
    /** The payment's row, if the caller named it; whether it is new. */
    const record = async (end: Date | null) =>
      payment
        ? (
            await recordPayment(executor, {
              subscriptionId: id,
              provider: provider.name,
              providerRef: payment.ref,
              amountCents,
              paidAt: at,
              periodEnd: end,
              receiptUrl: payment.receiptUrl,
            })
          ).recorded
        : true;
    const event = (kind: 'paid' | 'renewed', paidThrough: Date) =>
      recordEvent(executor, {
        subscriptionId: id,
        kind,
        at,
        detail: {
          amount: dollars(amountCents),
          paidThrough: paidThrough.toISOString(),
          provider: provider.name,
          ...payment?.detail,
        },
      });

    if (!row.isRecurring) {
      const paidThrough = licences.oneTimePaidThrough(at);
      const updated = await executor
        .update(subscriptions)
        .set({ status: complete, paidAt: at, paidThrough, updatedAt: at, lastPaymentError: null })
        .where(and(eq(subscriptions.id, id), ne(subscriptions.status, complete)))
        .returning({ id: subscriptions.id });
      // A link is paid once: a later event for it records no second payment.
      if (updated.length && (await record(paidThrough))) await event('paid', paidThrough);
      await relicense(executor, id, cause);
      return;
    }
    const end =
      periodEnd ??
      addPeriod(row.status === complete && row.expiredAt > at ? row.expiredAt : at, row.planType ?? 'month');
    // A renewal extends the paid period; it never shortens it.
    const [updated] = await executor
      .update(subscriptions)
      .set({
        status: complete,
        paidAt: sql`coalesce(${subscriptions.paidAt}, ${at.toISOString()}::timestamptz)`,
        expiredAt: sql`case when ${subscriptions.status} = ${complete} then greatest(${subscriptions.expiredAt}, ${end.toISOString()}::timestamptz) else ${end.toISOString()}::timestamptz end`,
        paidThrough: sql`greatest(${subscriptions.paidThrough}, ${end.toISOString()}::timestamptz)`,
        renewalFailedAt: null,
        updatedAt: at,
        lastPaymentError: null,
      })
      .where(eq(subscriptions.id, id))
      .returning({ paidThrough: subscriptions.paidThrough });
    const recorded = await record(end);
    const moved = !row.paidThrough || (updated?.paidThrough ?? end) > row.paidThrough;
    // Told once per payment: a replay, or the invoice of a period reconciliation already applied, is not.
    if (recorded && (row.status !== complete || moved))
      await event(row.paidAt ? 'renewed' : 'paid', updated?.paidThrough ?? end);
    await relicense(executor, id, cause);
  }

  /** A payment of an unpaid link was refused: the link is Failed (it may be paid again). */
  async function markFailed(executor: Db, id: string, message: string, detail: SubscriptionEventDetail = {}) {
    const at = now();
    const updated = await executor
      .update(subscriptions)
      .set({ status: failed, lastPaymentError: message.slice(0, 500), updatedAt: at })
      .where(and(eq(subscriptions.id, id), inArray(subscriptions.status, unpaidStatuses)))
      .returning({ id: subscriptions.id });
    if (updated.length)
      await recordEvent(executor, {
        subscriptionId: id,
        kind: 'failed',
        at,
        detail: { message: message.slice(0, 500), ...detail },
      });
  }

  /**
   * A paid recurring plan's renewal was refused (the invoice for the period ending `periodEnd`): the
   * machine's licence goes into grace from now (the licence notices mail the customer), until a
   * payment succeeds. A failure for a period already paid (a late event) changes nothing.
   */
  async function markRenewalFailed(
    executor: Db,
    id: string,
    message: string,
    periodEnd: Date | null,
    {
      detail = {},
      why = 'webhook',
    }: { detail?: SubscriptionEventDetail; why?: LicenceCause | LicenceChangeCause } = {},
  ) {
    const at = now();
    const text = message.slice(0, 500);
    const updated = await executor
      .update(subscriptions)
      .set({
        renewalFailedAt: sql`coalesce(${subscriptions.renewalFailedAt}, ${at.toISOString()}::timestamptz)`,
        lastPaymentError: text,
        updatedAt: at,
      })
      .where(
        and(
          eq(subscriptions.id, id),
          eq(subscriptions.isRecurring, true),
          ne(subscriptions.status, pending),
          ne(subscriptions.status, failed),
          periodEnd
            ? sql`(${subscriptions.paidThrough} is null or ${subscriptions.paidThrough} < ${periodEnd.toISOString()}::timestamptz)`
            : sql`true`,
        ),
      )
      .returning({ id: subscriptions.id });
    if (!updated.length) return false;
    await recordEvent(executor, {
      subscriptionId: id,
      kind: 'failed',
      at,
      detail: { message: text, renewal: true, ...detail },
    });
    await relicense(executor, id, why);
    return true;
  }

  /** The provider ended the plan (Stripe's customer.subscription.deleted). */
  async function markEnded(executor: Db, id: string, cause: LicenceCause = 'webhook') {
    const at = now();
    const updated = await executor
      .update(subscriptions)
      .set({ status: expired, updatedAt: at })
      .where(and(eq(subscriptions.id, id), ne(subscriptions.status, expired)))
      .returning({ id: subscriptions.id });
    if (updated.length) await recordEvent(executor, { subscriptionId: id, kind: 'ended', at });
    await relicense(executor, id, cause);
  }

  async function applyState(executor: Db, row: SubscriptionRow, state: PaymentState) {
    // A one-time link's payment is the intent on our record; a recurring plan's first invoice is
    // not known here, and is recorded when its invoice's event names it.
    const payment =
      !row.isRecurring && row.providerRef ? { ref: row.providerRef, receiptUrl: null } : undefined;
    if (state.state === 'succeeded') await markPaid(executor, row.id, state.periodEnd, 'payment', payment);
    else if (state.state === 'failed') await markFailed(executor, row.id, state.message);
  }

  /**
   * Why an event does not belong to the link it names, or null when it does. The metadata naming
   * the link is only a hint: the payment must be the one we created for it (its ref on our record),
   * and a payment must be for the link's amount, in its currency (issue 18).
   */
  function mismatchOf(event: PaymentEvent, row: SubscriptionRow): string | null {
    if (row.provider !== provider.name) return `the link is not paid through ${provider.name}`;
    if (!event.payment.ref || event.payment.ref !== row.providerRef)
      return `payment ${event.payment.ref ?? '(none)'} is not the link's payment ${row.providerRef ?? '(none yet)'}`;
    if (event.effect.kind !== 'paid') return null;
    if (event.payment.amountCents !== row.amountCents)
      return `amount ${event.payment.amountCents ?? '(none)'} is not the link's ${row.amountCents}`;
    if (event.payment.currency?.toLowerCase() !== paymentCurrency)
      return `currency ${event.payment.currency ?? '(none)'} is not ${paymentCurrency}`;
    return null;
  }

  /** Applies an event to its link; returns why it was refused instead, if it was. */
  async function applyEvent(executor: Db, event: PaymentEvent): Promise<string | null> {
    if (!event.target || event.effect.kind === 'ignored') return null;
    const [row] = await executor
      .select()
      .from(subscriptions)
      .where(
        'subscriptionId' in event.target
          ? eq(subscriptions.id, event.target.subscriptionId)
          : eq(subscriptions.providerRef, event.target.ref),
      )
      .limit(1);
    if (!row) return null;
    const mismatch = mismatchOf(event, row);
    if (mismatch) return mismatch;
    const id = row.id;
    if (event.effect.kind === 'paid') {
      // The payment the event names: its own (an invoice's, when the provider says), or the link's
      // PaymentIntent for a one-time link.
      const ref = event.receipt?.ref ?? (row.isRecurring ? null : event.payment.ref);
      const payment = ref
        ? { ref, receiptUrl: event.receipt?.url ?? null, amountCents: event.payment.amountCents }
        : undefined;
      await markPaid(executor, id, event.effect.periodEnd, 'webhook', payment);
    } else if (event.effect.kind === 'failed') await markFailed(executor, id, event.effect.message);
    else if (event.effect.kind === 'renewal-failed')
      await markRenewalFailed(executor, id, event.effect.message, event.effect.periodEnd);
    else await markEnded(executor, id, 'webhook');
    return null;
  }

  /** Asks the provider how the link's payment stands and writes that down (a lost webhook's effect). */
  async function reconcileRow(executor: Db, row: SubscriptionRow) {
    if (!row.providerRef || row.provider !== provider.name) return;
    const state = await provider.retrieveState(row.providerRef, row.isRecurring);
    await applyState(executor, row, state);
  }

  return { markPaid, markFailed, markRenewalFailed, applyEvent, reconcileRow, relicense };
}
export type PaymentStateMachine = ReturnType<typeof createPaymentStateMachine>;
