import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { demoCardMessages, expiryInFuture } from '@app/contract/demo-card';
import type { SubscriptionEventDetail, SubscriptionEventKind } from '@app/contract/subscription-history';
import {
  subscriptionOperationMessages as messages,
  type SubscriptionDetail,
  type SubscriptionOperationName,
  checkoutPagePath,
} from '@app/contract/subscription-operations';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { subscriptionEvents, subscriptionPayments, subscriptions } from '#api/db/schema/subscriptions.ts';
import { AppError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import type { DemoProvider } from '#api/lib/payments/demo-provider.ts';
import type { PaymentProvider } from '#api/lib/payments/payment-provider.ts';
import type { Licences } from '#api/modules/licences/licences-service.ts';
import { createPaymentStateMachine } from './payment-state-machine.ts';
import { providerCall } from './provider-call.ts';
import { recordEvent } from './subscription-history.ts';
import type { SignatureService } from '../signatures/signature-service.ts';
import {
  demoCardOnFile,
  fieldError,
  iso,
  loadSubscription,
  receiptOf,
  refusalOf,
} from './subscription-operation-rules.ts';
import { effectiveStatus } from './subscription-status.ts';
import { customerNameOf } from './subscription-customer.ts';
import { subscriptionView } from './subscription-views.ts';

type Deps = {
  db: Db;
  licences: Pick<Licences, 'recomputeForSubscription' | 'oneTimePaidThrough'>;
  provider: PaymentProvider;
  publicUrl: string;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The timeline shows each extension's signature (decision 083). */
  signatures: Pick<SignatureService, 'listFor'>;
};

/**
 * The subscription page (issue 34 item 5): its details, machine, payments and timeline, each
 * payment's receipt, and the demo provider's public receipt page and card-update form.
 */
export function createSubscriptionPage({ db, licences, provider, publicUrl, now, log, signatures }: Deps) {
  const states = createPaymentStateMachine({ provider, now, licences });
  const callProvider = providerCall(provider, log);
  const linkOf = (id: string) => `${publicUrl}${checkoutPagePath(id)}`;

  return {
    /** The subscription page: details, the machine, payments with receipts and the timeline. */
    async detail(id: string): Promise<SubscriptionDetail> {
      const row = await loadSubscription(db, id);
      const at = now();
      const [machine] = row.deviceId
        ? await db
            .select({
              id: devices.id,
              machineNumber: devices.machineNumber,
              serialNumber: devices.serialNumber,
              licenceState: devices.licenceState,
            })
            .from(devices)
            .where(eq(devices.id, row.deviceId))
            .limit(1)
        : [];
      const [payments, events, card] = await Promise.all([
        db
          .select()
          .from(subscriptionPayments)
          .where(eq(subscriptionPayments.subscriptionId, id))
          .orderBy(desc(subscriptionPayments.paidAt)),
        db
          .select()
          .from(subscriptionEvents)
          .where(eq(subscriptionEvents.subscriptionId, id))
          // Events of one moment in the order written (a heap's insertion order, best effort).
          .orderBy(desc(subscriptionEvents.at), sql`ctid desc`)
          .limit(500),
        demoCardOnFile(db, id),
      ]);
      // The extensions' signatures, each shown with its timeline event (decision 083).
      const signed = (await signatures.listFor('subscription-extension', [id])).get(id)!;
      const operations = Object.fromEntries(
        (['resend', 'revoke', 'extend', 'grace', 'resume', 'cancel', 'retry', 'cardUpdate'] as const).map(
          (op) => [op, refusalOf(row, op, at) === null],
        ),
      ) as Record<SubscriptionOperationName, boolean>;
      return {
        subscription: {
          ...subscriptionView(
            { ...row, customerName: await customerNameOf(db, row.customerId) },
            at,
            linkOf(row.id),
          ),
          status: effectiveStatus(row, at),
        },
        machine: machine
          ? {
              _id: machine.id,
              machineNumber: machine.machineNumber,
              serialNumber: machine.serialNumber,
              licenceState: machine.licenceState,
            }
          : null,
        plan: {
          provider: row.provider ?? null,
          paidThrough: iso(row.paidThrough),
          graceUntil: iso(row.graceUntil),
          collectionPaused: row.collectionPausedAt !== null,
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          cancelledAt: iso(row.cancelledAt),
          revokedAt: iso(row.revokedAt),
          renewalFailedAt: iso(row.renewalFailedAt),
          lastPaymentError: row.lastPaymentError,
          cardLast4: card?.last4 ?? null,
        },
        operations,
        payments: payments.map((p) => ({
          _id: p.id,
          paidAt: p.paidAt.toISOString(),
          amount: p.amountCents / 100,
          periodEnd: iso(p.periodEnd),
          provider: p.provider,
          receiptUrl: receiptOf(publicUrl, p),
        })),
        timeline: events.map((e) => {
          const detail = e.detail as SubscriptionEventDetail;
          const signature = signed.find((s) => s.id === detail.signatureId);
          return {
            _id: e.id,
            at: e.at.toISOString(),
            kind: e.kind as SubscriptionEventKind,
            actor: e.actorEmail,
            detail,
            ...(signature && { signature }),
          };
        }),
      };
    },

    /** One payment's receipt: kept, looked up at Stripe (and kept), or the demo's own page. */
    async receipt(id: string, paymentId: string): Promise<string> {
      const [payment] = /^[\w-]{1,64}$/.test(paymentId)
        ? await db
            .select()
            .from(subscriptionPayments)
            .where(and(eq(subscriptionPayments.id, paymentId), eq(subscriptionPayments.subscriptionId, id)))
            .limit(1)
        : [];
      if (!payment) throw new NotFoundError(messages.paymentNotFound);
      const known = receiptOf(publicUrl, payment);
      if (known) return known;
      if (payment.provider !== provider.name) throw new NotFoundError(messages.noReceipt);
      const url = await callProvider('receipt', () => provider.receiptUrl(payment.providerRef));
      if (!url) throw new NotFoundError(messages.noReceipt);
      await db
        .update(subscriptionPayments)
        .set({ receiptUrl: url })
        .where(eq(subscriptionPayments.id, payment.id));
      return url;
    },

    /** The demo's public receipt page's facts, by the payment's unguessable id; null for any other. */
    async demoReceipt(paymentId: string) {
      if (!/^[\w-]{1,64}$/.test(paymentId)) return null;
      const [found] = await db
        .select({ payment: subscriptionPayments, subscription: subscriptions })
        .from(subscriptionPayments)
        .innerJoin(subscriptions, eq(subscriptions.id, subscriptionPayments.subscriptionId))
        .where(and(eq(subscriptionPayments.id, paymentId), eq(subscriptionPayments.provider, 'demo')))
        .limit(1);
      return found ?? null;
    },

    /** The demo's card-update page: the customer's new card on file (only its last four digits are kept). */
    async demoCardUpdate(body: { subcriptionId: string; cardNumber: string; expiry: string }) {
      if (provider.name !== 'demo') throw new NotFoundError(messages.notFound);
      const row = await loadSubscription(db, body.subcriptionId);
      const refused = refusalOf(row, 'cardUpdate', now());
      if (refused) throw new ConflictError(refused);
      if (!expiryInFuture(body.expiry, now())) throw fieldError('expiry', demoCardMessages.expiryPast);
      const decided = (provider as DemoProvider).decideCard(body.cardNumber);
      if (!decided.ok) throw new AppError(402, decided.message);
      const at = now();
      await db.transaction(async (tx) => {
        await recordEvent(tx, {
          subscriptionId: row.id,
          kind: 'card-updated',
          at,
          detail: { cardLast4: decided.card.last4, declines: decided.card.declines },
        });
        await states.relicense(tx, row.id, 'subscription');
      });
      return { cardLast4: decided.card.last4 };
    },
  };
}
export type SubscriptionPage = ReturnType<typeof createSubscriptionPage>;
