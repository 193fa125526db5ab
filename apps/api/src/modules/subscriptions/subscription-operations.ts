import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  cardUpdatePagePath,
  subscriptionOperationMessages as messages,
  type CancelBody,
  type GraceBody,
  type SubscriptionOperationName,
  checkoutPagePath,
} from '@app/contract/subscription-operations';
import { subscriptionStatuses } from '@app/contract/subscriptions';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { ConflictError } from '#api/lib/errors.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import type { PaymentProvider } from '#api/lib/payments/payment-provider.ts';
import type { Licences } from '#api/modules/licences/licences-service.ts';
import {
  createPaymentStateMachine,
  unpaidStatuses,
  type SubscriptionRow as Row,
} from './payment-state-machine.ts';
import { providerCall } from './provider-call.ts';
import { cardUpdateMail, linkMail } from './subscription-link-mail.ts';
import {
  adminChange,
  type Admin,
  demoCardOnFile,
  endOfDay,
  fieldError,
  loadSubscription,
  planLive,
  refusalOf,
} from './subscription-operation-rules.ts';

const { expired } = subscriptionStatuses;
const day = 86_400_000;

type Deps = {
  db: Db;
  licences: Pick<Licences, 'recomputeForSubscription' | 'oneTimePaidThrough'>;
  mailer: Pick<Mailer, 'sendWithin'>;
  provider: PaymentProvider;
  publicUrl: string;
  linkDays: number;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
};

/**
 * The admins' operations on one subscription (issue 34 item 5). Each checks the subscription's state
 * (a 409 saying why it does not fit), asks the payment provider first where the provider holds the
 * plan (Stripe), then writes the change, its timeline event and the machine's licence derived again
 * in one transaction. The demo provider does each offline, with the same states.
 */
export function createSubscriptionOperations({
  db,
  licences,
  mailer,
  provider,
  publicUrl,
  linkDays,
  now,
  log,
}: Deps) {
  const states = createPaymentStateMachine({ provider, now, licences });
  const load = (id: string) => loadSubscription(db, id);
  const linkOf = (id: string) => `${publicUrl}${checkoutPagePath(id)}`;

  const callProvider = providerCall(provider, log);

  /** Whether the provider holding the plan is this one (a plan paid before a switch is ours alone). */
  const heldByProvider = (row: Row) => row.provider === provider.name && row.providerRef !== null;
  function assertFits(row: Row, op: SubscriptionOperationName) {
    const why = refusalOf(row, op, now());
    if (why) throw new ConflictError(why);
  }

  const commit = adminChange({ db, now, relicense: states.relicense });

  return {
    /** Mails the payment link again; an expiring link gets another LINK_DAYS. */
    async resend(id: string, admin: Admin) {
      const row = await load(id);
      assertFits(row, 'resend');
      let startMail = () => {};
      await commit(row, admin, { kind: 'resent', detail: { to: row.email } }, async (tx, at) => {
        const fresh = new Date(at.getTime() + linkDays * day);
        const [updated] = await tx
          .update(subscriptions)
          .set({
            expiredAt: sql`greatest(${subscriptions.expiredAt}, ${fresh.toISOString()}::timestamptz)`,
            updatedAt: at,
          })
          .where(
            and(
              eq(subscriptions.id, id),
              inArray(subscriptions.status, unpaidStatuses),
              isNull(subscriptions.paidAt),
            ),
          )
          .returning();
        if (!updated) throw new ConflictError(messages.alreadyPaid);
        const start = await mailer.sendWithin(tx, linkMail(updated, linkOf(id)));
        startMail = () => void start();
      });
      startMail();
    },

    /**
     * An unpaid link can no longer be paid: the provider's open payment is cancelled first (a
     * payment that went through meanwhile makes that fail, and the link stays as paid).
     */
    async revoke(id: string, reason: string | undefined, admin: Admin) {
      const row = await load(id);
      assertFits(row, 'revoke');
      if (heldByProvider(row))
        await callProvider('cancel', () => provider.cancel(row.providerRef!, row.isRecurring));
      await commit(row, admin, { kind: 'revoked', reason: reason ?? null }, async (tx, at) => {
        const updated = await tx
          .update(subscriptions)
          .set({ status: expired, revokedAt: at, updatedAt: at })
          .where(
            and(
              eq(subscriptions.id, id),
              inArray(subscriptions.status, unpaidStatuses),
              isNull(subscriptions.paidAt),
            ),
          )
          .returning({ id: subscriptions.id });
        if (!updated.length) throw new ConflictError(messages.alreadyPaid);
      });
    },

    /**
     * Grace until the end of a day: the machine keeps its licence (in grace) until then; a live
     * recurring plan's collection pauses until then too (Stripe: pause_collection, invoices kept as
     * drafts).
     */
    async grace(id: string, body: GraceBody, admin: Admin) {
      const row = await load(id);
      assertFits(row, 'grace');
      const until = endOfDay(body.until);
      const at = now();
      if (until <= at) throw fieldError('until', messages.untilPast);
      if (until.getTime() > at.getTime() + 366 * day) throw fieldError('until', messages.untilTooFar);
      const pause = planLive(row);
      if (pause && heldByProvider(row))
        await callProvider('pause collection', () => provider.pauseCollection(row.providerRef!, until));
      await commit(
        row,
        admin,
        {
          kind: 'grace',
          reason: body.reason,
          detail: { until: until.toISOString(), collectionPaused: pause },
        },
        (tx, when) =>
          tx
            .update(subscriptions)
            .set({
              graceUntil: until,
              ...(pause ? { collectionPausedAt: when } : {}),
              updatedAt: when,
            })
            .where(eq(subscriptions.id, id)),
      );
    },

    /** Collects a paused plan's payments again (the grace granted stays). */
    async resume(id: string, admin: Admin) {
      const row = await load(id);
      assertFits(row, 'resume');
      if (heldByProvider(row) && planLive(row))
        await callProvider('resume collection', () => provider.resumeCollection(row.providerRef!));
      await commit(row, admin, { kind: 'resumed' }, (tx, at) =>
        tx
          .update(subscriptions)
          .set({ collectionPausedAt: null, updatedAt: at })
          .where(eq(subscriptions.id, id)),
      );
    },

    /**
     * Ends a recurring plan: at the end of its paid period (it does not renew; the machine stays
     * licensed until then), or now (the plan ends and the machine's paid time ends now, into grace).
     */
    async cancel(id: string, body: CancelBody, admin: Admin) {
      const row = await load(id);
      assertFits(row, 'cancel');
      const atPeriodEnd = body.when === 'period-end';
      if (heldByProvider(row))
        await callProvider('cancel', () => provider.cancelSubscription(row.providerRef!, atPeriodEnd));
      await commit(
        row,
        admin,
        { kind: 'cancelled', reason: body.reason ?? null, detail: { when: body.when } },
        (tx, at) =>
          tx
            .update(subscriptions)
            .set(
              atPeriodEnd
                ? { cancelAtPeriodEnd: true, updatedAt: at }
                : {
                    status: expired,
                    cancelledAt: at,
                    collectionPausedAt: null,
                    paidThrough: sql`least(${subscriptions.paidThrough}, ${at.toISOString()}::timestamptz)`,
                    expiredAt: sql`least(${subscriptions.expiredAt}, ${at.toISOString()}::timestamptz)`,
                    graceUntil: null,
                    updatedAt: at,
                  },
            )
            .where(eq(subscriptions.id, id)),
      );
    },

    /**
     * Pays a recurring plan's failed renewal now with the card on file (Stripe: its open invoice).
     * Answers whether it paid; a refusal is written down too (the timeline, the failure kept).
     */
    async retry(id: string, admin: Admin): Promise<{ paid: boolean; message: string | null }> {
      const row = await load(id);
      assertFits(row, 'retry');
      const card = provider.name === 'demo' ? await demoCardOnFile(db, id) : null;
      const outcome = await callProvider('retry', () =>
        provider.retryPayment(row.providerRef ?? row.id, card),
      );
      const why = {
        cause: 'admin' as const,
        actorId: admin.userId,
        actorEmail: admin.email,
        reason: 'payment retried',
      };
      if (outcome.state === 'succeeded') {
        await commit(row, admin, { kind: 'retried', detail: { outcome: 'paid' } }, (tx) =>
          states.markPaid(tx, id, outcome.periodEnd, why, {
            ref: outcome.paymentRef,
            receiptUrl: outcome.receiptUrl,
            amountCents: outcome.amountCents,
            ...(card ? { detail: { cardLast4: card.last4 } } : {}),
          }),
        );
        return { paid: true, message: null };
      }
      await commit(
        row,
        admin,
        { kind: 'retried', detail: { outcome: 'failed', message: outcome.message } },
        (tx) => states.markRenewalFailed(tx, id, outcome.message, null, { why }),
      );
      return { paid: false, message: outcome.message };
    },

    /** Mails the customer a link to change the plan's card: Stripe's Billing Portal, or the demo's page. */
    async sendCardUpdate(id: string, admin: Admin) {
      const row = await load(id);
      assertFits(row, 'cardUpdate');
      const link =
        provider.name === 'stripe' && heldByProvider(row)
          ? await callProvider('card update', () => provider.cardUpdateUrl(row.providerRef!, linkOf(id)))
          : null;
      const url = link ?? `${publicUrl}${cardUpdatePagePath(id)}`;
      let startMail = () => {};
      await commit(row, admin, { kind: 'card-update-sent', detail: { to: row.email } }, async (tx) => {
        const start = await mailer.sendWithin(tx, cardUpdateMail(row, url));
        startMail = () => void start();
      });
      startMail();
    },
  };
}
export type SubscriptionOperations = ReturnType<typeof createSubscriptionOperations>;
