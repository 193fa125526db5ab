import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { PaymentProviderName } from '@app/contract/subscriptions';
import type { SubscriptionEventDetail, SubscriptionEventKind } from '@app/contract/subscription-history';
import type { Db } from '#api/db/client.ts';
import { subscriptionEvents, subscriptionPayments } from '#api/db/schema/subscriptions.ts';

/*
 * A subscription's history (issue 34 item 5): its timeline events and the payments taken for it,
 * each written with the executor of the change that caused it, so an event or a payment is kept
 * exactly when its change is. The webhooks, the demo provider, the admins' operations and the
 * reminder mails all write through here.
 */

/** Who did it: an admin (kept by email too, so the timeline survives the user's deletion), or nobody. */
export type EventActor = { userId: string; email: string } | null;

export type SubscriptionEventInput = {
  subscriptionId: string;
  kind: SubscriptionEventKind;
  at: Date;
  actor?: EventActor;
  detail?: SubscriptionEventDetail;
};

/** Adds one event to a subscription's timeline. */
export async function recordEvent(executor: Db, event: SubscriptionEventInput): Promise<void> {
  await executor.insert(subscriptionEvents).values({
    subscriptionId: event.subscriptionId,
    at: event.at,
    kind: event.kind,
    actorId: event.actor?.userId ?? null,
    actorEmail: event.actor?.email ?? null,
    detail: event.detail ?? {},
  });
}

/**
 * Adds the event unless the subscription already has one of this kind (the customer's first
 * opening of the link). Two requests at the same instant may both add it; nothing else can.
 */
export async function recordFirstEvent(executor: Db, event: SubscriptionEventInput): Promise<void> {
  await executor.execute(sql`
    insert into ${subscriptionEvents} (subscription_id, at, kind, actor_id, actor_email, detail)
    select ${event.subscriptionId}, ${event.at.toISOString()}::timestamptz, ${event.kind},
      ${event.actor?.userId ?? null}::uuid, ${event.actor?.email ?? null}, ${JSON.stringify(event.detail ?? {})}::jsonb
    where not exists (
      select 1 from ${subscriptionEvents}
      where subscription_id = ${event.subscriptionId} and kind = ${event.kind})`);
}

export type PaymentRecord = {
  subscriptionId: string;
  provider: PaymentProviderName;
  /**
   * The provider's id of this one payment, its idempotency key: a PaymentIntent (one-time), an
   * invoice (each period of a recurring plan), or the demo provider's own reference.
   */
  providerRef: string;
  amountCents: number;
  paidAt: Date;
  /** The end of the period it pays for (recurring), or null. */
  periodEnd: Date | null;
  /**
   * Stripe: the charge's `receipt_url` or the invoice's `hosted_invoice_url`, if known (the
   * subscription's page looks a missing one up later). The demo provider: null, its own page serves
   * the receipt (`/receipts/{id}`).
   */
  receiptUrl: string | null;
};

/** 144 random bits: the id is the only key to the demo receipt page. */
const newPaymentId = () => randomBytes(18).toString('base64url');

/**
 * Records a payment once per (provider, providerRef): a replayed or second event for the same
 * payment records nothing. Answers the payment's id, and whether this call recorded it.
 */
export async function recordPayment(
  executor: Db,
  payment: PaymentRecord,
): Promise<{ id: string; recorded: boolean }> {
  const [inserted] = await executor
    .insert(subscriptionPayments)
    .values({ id: newPaymentId(), ...payment })
    .onConflictDoNothing({ target: [subscriptionPayments.provider, subscriptionPayments.providerRef] })
    .returning({ id: subscriptionPayments.id });
  if (inserted) return { id: inserted.id, recorded: true };
  const [existing] = await executor
    .select({ id: subscriptionPayments.id })
    .from(subscriptionPayments)
    .where(
      and(
        eq(subscriptionPayments.provider, payment.provider),
        eq(subscriptionPayments.providerRef, payment.providerRef),
      ),
    )
    .limit(1);
  return { id: existing!.id, recorded: false };
}
