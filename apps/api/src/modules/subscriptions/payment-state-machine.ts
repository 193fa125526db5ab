import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { subscriptionStatuses } from '@app/contract/subscriptions';
import type { LicenceCause } from '@app/contract/licences';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import type { Licences } from '#api/modules/licences/licences-service.ts';
import {
  addPeriod,
  paymentCurrency,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentState,
} from '#api/lib/payments/payment-provider.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

const { complete, expired, failed, pending } = subscriptionStatuses;
/** Links still waiting for their money: the only ones a failure or a lapse may change. */
export const unpaidStatuses = [pending, failed];

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
  const relicense = (executor: Db, id: string, cause: LicenceCause) =>
    licences.recomputeForSubscription(executor, id, { cause });

  async function markPaid(executor: Db, id: string, periodEnd: Date | null, cause: LicenceCause = 'payment') {
    const at = now();
    const [row] = await executor.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    if (!row) return;
    if (!row.isRecurring) {
      await executor
        .update(subscriptions)
        .set({
          status: complete,
          paidAt: at,
          paidThrough: licences.oneTimePaidThrough(at),
          updatedAt: at,
          lastPaymentError: null,
        })
        .where(and(eq(subscriptions.id, id), ne(subscriptions.status, complete)));
      await relicense(executor, id, cause);
      return;
    }
    const end =
      periodEnd ??
      addPeriod(row.status === complete && row.expiredAt > at ? row.expiredAt : at, row.planType ?? 'month');
    // A renewal extends the paid period; it never shortens it.
    await executor
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
      .where(eq(subscriptions.id, id));
    await relicense(executor, id, cause);
  }

  async function markFailed(executor: Db, id: string, message: string) {
    await executor
      .update(subscriptions)
      .set({ status: failed, lastPaymentError: message.slice(0, 500), updatedAt: now() })
      .where(and(eq(subscriptions.id, id), inArray(subscriptions.status, unpaidStatuses)));
  }

  async function markEnded(executor: Db, id: string, cause: LicenceCause = 'webhook') {
    await executor
      .update(subscriptions)
      .set({ status: expired, updatedAt: now() })
      .where(and(eq(subscriptions.id, id), ne(subscriptions.status, expired)));
    await relicense(executor, id, cause);
  }

  async function applyState(executor: Db, row: SubscriptionRow, state: PaymentState) {
    if (state.state === 'succeeded') await markPaid(executor, row.id, state.periodEnd);
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
    if (event.effect.kind === 'paid') await markPaid(executor, id, event.effect.periodEnd, 'webhook');
    else if (event.effect.kind === 'failed') await markFailed(executor, id, event.effect.message);
    else await markEnded(executor, id, 'webhook');
    return null;
  }

  /** Asks the provider how the link's payment stands and writes that down (a lost webhook's effect). */
  async function reconcileRow(executor: Db, row: SubscriptionRow) {
    if (!row.providerRef || row.provider !== provider.name) return;
    const state = await provider.retrieveState(row.providerRef, row.isRecurring);
    await applyState(executor, row, state);
  }

  return { markPaid, markFailed, applyEvent, reconcileRow };
}
export type PaymentStateMachine = ReturnType<typeof createPaymentStateMachine>;
