import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  subscriptionOperationMessages as messages,
  subscriptionOperationPaths,
  type SubscriptionOperationName,
} from '@app/contract/subscription-operations';
import { subscriptionStatuses } from '@app/contract/subscriptions';
import type { Db } from '#api/db/client.ts';
import { subscriptionEvents, subscriptions } from '#api/db/schema/subscriptions.ts';
import { BadRequestError, NotFoundError } from '#api/lib/errors.ts';
import type { CardOnFile } from '#api/lib/payments/payment-provider.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';
import type { SubscriptionEventDetail, SubscriptionEventKind } from '@app/contract/subscription-history';
import type { LicenceChangeCause } from '#api/modules/licences/licence-ledger.ts';
import { recordEvent, type EventActor } from './subscription-history.ts';
import { unpaidStatuses, type SubscriptionRow as Row } from './payment-state-machine.ts';

/*
 * What the subscription page and its operations (issue 34 item 5) share: which operation the
 * subscription's state allows, the demo plan's card on file and a payment's receipt address.
 */

const { complete, expired } = subscriptionStatuses;

/** The end of a day given as YYYY-MM-DD (UTC): what "through that day" means. */
export const endOfDay = (date: string) => new Date(`${date}T23:59:59.999Z`);
export const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
/** A 400 naming the field, as a refused body's. */
export const fieldError = (path: string, message: string) =>
  new BadRequestError(message, { errors: [{ path, message }] });

/**
 * One subscription by its id, or a 404 with `notFound` (the admin's text by default; the customer's
 * pages pass theirs). Our ids are base64url: anything else names none, and some text (a NUL byte)
 * would make PostgreSQL refuse the query itself, a 500 instead of the 404.
 */
export async function loadSubscription(
  db: Db,
  id: string,
  notFound: string = messages.notFound,
): Promise<Row> {
  if (!/^[\w-]{1,64}$/.test(id)) throw new NotFoundError(notFound);
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
  if (!row) throw new NotFoundError(notFound);
  return row;
}

export const unpaid = (row: Row) => row.paidAt === null && (unpaidStatuses as number[]).includes(row.status);
export const planLive = (row: Row) =>
  row.isRecurring && row.paidAt !== null && row.cancelledAt === null && row.status !== expired;

/** What each operation needs of the subscription's state: null when it fits, else why not. */
export function refusalOf(row: Row, op: SubscriptionOperationName, at: Date): string | null {
  switch (op) {
    case 'resend':
    case 'revoke':
      if (row.revokedAt) return messages.revoked;
      if (row.paidAt || row.status === complete) return messages.alreadyPaid;
      if (!unpaid(row)) return messages.linkEnded;
      return null;
    case 'extend':
    case 'grace':
      return row.paidThrough ? null : messages.notPaidYet;
    case 'resume':
      if (!row.isRecurring) return messages.notRecurring;
      return row.collectionPausedAt ? null : messages.notPaused;
    case 'cancel':
      if (!row.isRecurring) return messages.notRecurring;
      if (!planLive(row)) return messages.planEnded;
      return row.cancelAtPeriodEnd ? messages.alreadyCancelled : null;
    case 'retry':
      if (!row.isRecurring) return messages.notRecurring;
      if (row.paidAt === null || row.cancelledAt) return messages.planEnded;
      return row.renewalFailedAt || (row.paidThrough && row.paidThrough <= at)
        ? null
        : messages.nothingToRetry;
    case 'cardUpdate':
      if (!row.isRecurring) return messages.notRecurring;
      return planLive(row) ? null : messages.planEnded;
  }
}

/** The card on file of a demo plan: the last one the customer gave, else the card that paid. */
export async function demoCardOnFile(db: Db, id: string): Promise<CardOnFile | null> {
  const [last] = await db
    .select({ kind: subscriptionEvents.kind, detail: subscriptionEvents.detail })
    .from(subscriptionEvents)
    .where(
      and(
        eq(subscriptionEvents.subscriptionId, id),
        inArray(subscriptionEvents.kind, ['card-updated', 'paid', 'renewed']),
        sql`${subscriptionEvents.detail} ? 'cardLast4'`,
      ),
    )
    .orderBy(desc(subscriptionEvents.at), sql`ctid desc`)
    .limit(1);
  if (!last) return null;
  const declines = last.kind === 'card-updated' ? last.detail.declines : null;
  return { last4: String(last.detail.cardLast4), declines: typeof declines === 'string' ? declines : null };
}

export const receiptOf = (
  publicUrl: string,
  payment: { id: string; provider: string; receiptUrl: string | null },
) =>
  payment.provider === 'demo'
    ? `${publicUrl}${subscriptionOperationPaths.demoReceipt(payment.id)}`
    : payment.receiptUrl;

/** The admin acting, as the timeline and the subscription's history name them (decision 081). */
export type Admin = HistoryActor;

/**
 * An admin's change to a subscription, its timeline event and the machine's licence derived again
 * (with the admin and the reason), in one transaction; the subscription's history keeps the old and
 * new values of what changed, with the admin and the reason (decision 081).
 */
export const adminChange =
  ({
    db,
    now,
    relicense,
  }: {
    db: Db;
    now: () => Date;
    relicense: (tx: Db, id: string, why: LicenceChangeCause) => Promise<unknown>;
  }) =>
  async (
    row: Row,
    admin: Admin,
    event: { kind: SubscriptionEventKind; detail?: SubscriptionEventDetail; reason?: string | null },
    change: (tx: Db, at: Date) => Promise<unknown>,
  ) => {
    const at = now();
    const actor: EventActor = admin;
    await db.transaction(async (tx) => {
      await recordActor(tx, { ...admin, reason: event.reason ?? admin.reason ?? null });
      await change(tx, at);
      await recordEvent(tx, {
        subscriptionId: row.id,
        kind: event.kind,
        at,
        actor,
        detail: { ...(event.reason ? { reason: event.reason } : {}), ...event.detail },
      });
      await relicense(tx, row.id, {
        cause: 'admin',
        actorId: admin.userId,
        actorEmail: admin.email,
        reason: event.reason ?? `subscription ${event.kind}`,
      });
    });
  };
