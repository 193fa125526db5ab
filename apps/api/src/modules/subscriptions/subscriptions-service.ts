import { randomBytes } from 'node:crypto';
import { count, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { demoCardMessages, expiryInFuture } from '@app/contract/demo-card';
import {
  checkoutMessages,
  subscriptionStatuses,
  type CheckoutSummary,
  type CreateSubscriptionBody,
  type Subscription,
  type SubscriptionExportQuery,
  type SubscriptionListQuery,
} from '@app/contract/subscriptions';
import { checkoutPagePath } from '@app/contract/subscription-operations';
import type { Db } from '#api/db/client.ts';
import { processedPaymentEvents, subscriptions } from '#api/db/schema/subscriptions.ts';
import type { Licences } from '#api/modules/licences/licences-service.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';
import type { DemoProvider } from '#api/lib/payments/demo-provider.ts';
import {
  addPeriod,
  WebhookSignatureError,
  type PaymentEvent,
  type PaymentProvider,
} from '#api/lib/payments/payment-provider.ts';
import { createPaymentStateMachine, type SubscriptionRow as Row } from './payment-state-machine.ts';
import { effectiveStatus } from './subscription-status.ts';
import { subscriptionExportCsv } from './subscription-export.ts';
import { subscriptionFilter } from './subscription-filters.ts';
import { checkoutSummaryView, subscriptionView } from './subscription-views.ts';
import { linkMail } from './subscription-link-mail.ts';
import { recordEvent, recordFirstEvent } from './subscription-history.ts';
import { createSubscriptionSweep } from './subscription-sweep.ts';
import { machineOfSerial, providerCall } from './provider-call.ts';
import { customerOfSubscription, subscriptionWithCustomer } from './subscription-customer.ts';
import { loadSubscription } from './subscription-operation-rules.ts';

type Deps = {
  db: Db;
  /** A subscription's machine licence follows every change to it (decision 068). */
  licences: Pick<Licences, 'recomputeForSubscription' | 'oneTimePaidThrough'>;
  mailer: Pick<Mailer, 'sendWithin'>;
  provider: PaymentProvider;
  publicUrl: string;
  linkDays: number;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
};

const { pending, complete, expired } = subscriptionStatuses;

/** 144 random bits: the link is the customer's only key, so it must not be guessable. */
export const newSubscriptionId = () => randomBytes(18).toString('base64url');

export function createSubscriptionsService({
  db,
  licences,
  mailer,
  provider,
  publicUrl,
  linkDays,
  now,
  log,
}: Deps) {
  const linkOf = (id: string) => `${publicUrl}${checkoutPagePath(id)}`;

  const toSubscription = (row: Row & { customerName?: string | null }) =>
    subscriptionView(row, now(), linkOf(row.id));
  const toSummary = (row: Row) => checkoutSummaryView(row, now());

  /** The customer's link, or their page's 404. */
  const load = (id: string) => loadSubscription(db, id, checkoutMessages.notFound);

  /** Paid or lapsed links refuse every payment: nobody pays twice, nobody pays late. */
  function assertPayable(row: Row) {
    const status = effectiveStatus(row, now());
    if (status === complete) throw new ConflictError(checkoutMessages.paid);
    if (status === expired) throw new ConflictError(checkoutMessages.expired);
  }

  const callProvider = providerCall(provider, log);

  const states = createPaymentStateMachine({ provider, now, licences });

  const deviceOfSerial = (serial: string) => machineOfSerial(db, serial);
  const { sweep } = createSubscriptionSweep({ db, provider, states, now, log });

  return {
    exportCsv: (filters: SubscriptionExportQuery, counted: (rows: number) => void) =>
      subscriptionExportCsv(db, filters, { now: now(), linkOf, counted }),

    async list({ page, limit, ...filters }: SubscriptionListQuery) {
      const where = subscriptionFilter(filters, now());
      const [rows, [total]] = await Promise.all([
        db
          .select(subscriptionWithCustomer)
          .from(subscriptions)
          .where(where)
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
          .limit(limit)
          .offset(offsetOf(page, limit)),
        db.select({ n: count() }).from(subscriptions).where(where),
      ]);
      const n = total?.n ?? 0;
      return {
        subscriptions: rows.map(toSubscription),
        total_pages: pageCount(n, limit),
        total: n,
        page,
        limit,
      };
    },

    /**
     * Creates the link (Pending, expiring in linkDays) and mails it to the customer. The row and its
     * mail are committed together: a crash in between never leaves a link nobody was sent. The
     * answer does not wait for the SMTP server: the mail goes out (and is retried) after it.
     */
    async create(input: CreateSubscriptionBody, admin: HistoryActor | null): Promise<Subscription> {
      const createdBy = admin?.userId ?? null;
      const deviceId = await deviceOfSerial(input.machineSerialNumber);
      const customer = await customerOfSubscription(db, deviceId, input.customerId);
      const at = now();
      const { row, startMail } = await db.transaction(async (tx) => {
        // Its history starts with the values it was created with, by this admin (decision 081).
        await recordActor(tx as unknown as Db, admin);
        const [created] = await tx
          .insert(subscriptions)
          .values({
            id: newSubscriptionId(),
            fullName: input.fullName,
            email: input.email.toLowerCase(),
            machineSerialNumber: input.machineSerialNumber,
            amountCents: Math.round(input.amount * 100),
            isRecurring: input.isRecurring,
            planType: 'planType' in input ? input.planType : null,
            status: pending,
            createdAt: at,
            updatedAt: at,
            expiredAt: new Date(at.getTime() + linkDays * 24 * 3600_000),
            createdBy,
            deviceId,
            customerId: customer?.id ?? null,
          })
          .returning();
        const startMail = await mailer.sendWithin(tx, linkMail(created!, linkOf(created!.id)));
        const actor = admin ? { userId: admin.userId, email: admin.email } : null;
        await recordEvent(tx, { subscriptionId: created!.id, kind: 'created', at, actor });
        await recordEvent(tx, {
          subscriptionId: created!.id,
          kind: 'mailed',
          at,
          actor,
          detail: { to: created!.email },
        });
        return { row: created!, startMail };
      });
      startMail();
      return toSubscription({ ...row, customerName: customer?.name ?? null });
    },

    /** The customer's page: its first load is the timeline's 'opened'. */
    async summary(id: string): Promise<CheckoutSummary> {
      const row = await load(id);
      await recordFirstEvent(db, { subscriptionId: row.id, kind: 'opened', at: now() });
      return toSummary(row);
    },

    /** A payment intent for the amount on our record; an open one is reused so a reload cannot pay twice. */
    async checkout(id: string) {
      let row = await load(id);
      assertPayable(row);
      if (row.providerRef && row.provider === provider.name) {
        const ref = row.providerRef;
        const resumed = await callProvider('resume', () => provider.resumeIntent(ref, row.isRecurring));
        if (resumed) return { clientSecret: resumed.clientSecret, provider: provider.name };
        // The old intent is closed: it may have been paid while our webhook was lost.
        await callProvider('retrieve', () => states.reconcileRow(db, row));
        row = await load(id);
        assertPayable(row);
      }
      const attempt = row.paymentAttempts + 1;
      const created = await callProvider('create intent', () =>
        provider.createIntent({
          subscriptionId: row.id,
          amountCents: row.amountCents,
          isRecurring: row.isRecurring,
          planType: row.planType ?? null,
          email: row.email,
          fullName: row.fullName,
          machineSerialNumber: row.machineSerialNumber,
          attempt,
        }),
      );
      await db
        .update(subscriptions)
        .set({
          provider: provider.name,
          providerRef: created.ref,
          paymentAttempts: attempt,
          updatedAt: now(),
        })
        .where(eq(subscriptions.id, row.id));
      return { clientSecret: created.clientSecret, provider: provider.name };
    },

    /** The demo provider's "card network": card data is checked, decided on and forgotten. */
    async demoPay(input: {
      subcriptionId: string;
      clientSecret: string;
      cardNumber: string;
      expiry: string;
    }) {
      if (provider.name !== 'demo') throw new NotFoundError('The demo payment provider is not active');
      const row = await load(input.subcriptionId);
      assertPayable(row);
      if (row.provider !== 'demo' || row.providerRef !== input.clientSecret)
        throw new ConflictError(checkoutMessages.intentMismatch);
      if (!expiryInFuture(input.expiry, now())) throw new BadRequestError(demoCardMessages.expiryPast);
      const outcome = (provider as DemoProvider).decide(input.cardNumber);
      // Only the last four digits are kept: the timeline's card, and the demo's card on file.
      const cardLast4 = input.cardNumber.replace(/\D/g, '').slice(-4);
      if (outcome.ok) {
        const periodEnd = row.isRecurring ? addPeriod(now(), row.planType ?? 'month') : null;
        await db.transaction((tx) =>
          states.markPaid(tx, row.id, periodEnd, 'payment', {
            ref: row.providerRef!,
            receiptUrl: null,
            detail: { cardLast4 },
          }),
        );
        return { status: 'succeeded' as const };
      }
      await db.transaction((tx) => states.markFailed(tx, row.id, outcome.message, { cardLast4 }));
      throw new AppError(402, outcome.message);
    },

    /** Verified, applied once: the event id is written in the same transaction as its effect. */
    async handleWebhook(rawBody: Buffer, signature: string | undefined) {
      let event: PaymentEvent;
      try {
        event = await provider.parseWebhook(rawBody, signature);
      } catch (error) {
        if (error instanceof WebhookSignatureError) {
          log.warn({ reason: error.message }, 'payment webhook refused');
          throw new BadRequestError(
            provider.name === 'stripe'
              ? checkoutMessages.webhookBadSignature
              : checkoutMessages.webhookNotConfigured,
          );
        }
        throw error;
      }
      return db.transaction(async (tx) => {
        const inserted = await tx
          .insert(processedPaymentEvents)
          .values({ id: event.id, type: event.type, processedAt: now() })
          .onConflictDoNothing()
          .returning({ id: processedPaymentEvents.id });
        if (inserted.length === 0) return { received: true, duplicate: true };
        const refused = await states.applyEvent(tx, event);
        if (refused) {
          // Recorded, not applied: the event's row says why, and a replay is not looked at again.
          log.warn({ eventId: event.id, type: event.type, reason: refused }, 'payment event refused');
          await tx
            .update(processedPaymentEvents)
            .set({ type: `${event.type} refused: ${refused}`.slice(0, 300) })
            .where(eq(processedPaymentEvents.id, event.id));
        }
        return { received: true, duplicate: false };
      });
    },

    /** Asks the provider how an unpaid link's payment stands, so a lost webhook cannot leave it Pending. */
    async reconcile(id: string): Promise<CheckoutSummary> {
      const row = await load(id);
      if (row.status !== complete) await callProvider('retrieve', () => states.reconcileRow(db, row));
      return toSummary(await load(id));
    },

    /** Periodic: reconcile open payments, then write down lapsed links as Expired and close their intents. */
    sweep,
  };
}
export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The subscriptions service; tests run its sweep directly. */
    subscriptions: SubscriptionsService;
  }
}
