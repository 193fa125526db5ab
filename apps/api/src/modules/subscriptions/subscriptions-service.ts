import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  checkoutMessages,
  demoCardMessages,
  expiryInFuture,
  planTypeLabels,
  oneTimeLabel,
  subscriptionStatuses,
  type CheckoutSummary,
  type CreateSubscriptionBody,
  type Subscription,
} from '@app/contract/subscriptions';
import type { Db } from '../../db/client.ts';
import { processedPaymentEvents, subscriptions } from '../../db/schema/subscriptions.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { escapeHtml, type Mailer } from '../../lib/mailer.ts';
import type { DemoProvider } from '../../lib/payments/demo-provider.ts';
import {
  addPeriod,
  paymentCurrency,
  WebhookSignatureError,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentState,
} from '../../lib/payments/payment-provider.ts';
import { effectiveStatus, renewalGraceMs } from './subscription-status.ts';

type Row = typeof subscriptions.$inferSelect;
type Deps = {
  db: Db;
  mailer: Pick<Mailer, 'sendWithin'>;
  provider: PaymentProvider;
  publicUrl: string;
  linkDays: number;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
};

const { pending, complete, expired, failed } = subscriptionStatuses;
const unpaid = [pending, failed];

/** 144 random bits: the link is the customer's only key, so it must not be guessable. */
export const newSubscriptionId = () => randomBytes(18).toString('base64url');

const providerUnavailable = 'The payment provider is not available right now. Please try again.';
const money = (cents: number) => (cents / 100).toFixed(2);

export function createSubscriptionsService({ db, mailer, provider, publicUrl, linkDays, now, log }: Deps) {
  const linkOf = (id: string) => `${publicUrl}/plans/${id}`;

  const toSubscription = (row: Row): Subscription => ({
    _id: row.id,
    fullName: row.fullName,
    email: row.email,
    machineSerialNumber: row.machineSerialNumber,
    amount: row.amountCents / 100,
    isRecurring: row.isRecurring,
    planType: row.planType ?? null,
    status: effectiveStatus(row, now()),
    createdAt: row.createdAt.toISOString(),
    expiredAt: row.expiredAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    link: linkOf(row.id),
    demoPayment: row.provider === 'demo',
  });

  const toSummary = (row: Row): CheckoutSummary => ({
    _id: row.id,
    fullName: row.fullName,
    isRecurring: row.isRecurring,
    planType: row.planType ?? null,
    email: row.email,
    machineSerialNumber: row.machineSerialNumber,
    amount: row.amountCents / 100,
    createdAt: row.createdAt.toISOString(),
    status: effectiveStatus(row, now()),
  });

  async function load(id: string): Promise<Row> {
    // Our ids are base64url (newSubscriptionId): anything else names no link, and some text (a NUL
    // byte) would make PostgreSQL refuse the query itself, a 500 instead of this 404.
    if (!/^[\w-]{1,64}$/.test(id)) throw new NotFoundError(checkoutMessages.notFound);
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    if (!row) throw new NotFoundError(checkoutMessages.notFound);
    return row;
  }

  /** Paid or lapsed links refuse every payment: nobody pays twice, nobody pays late. */
  function assertPayable(row: Row) {
    const status = effectiveStatus(row, now());
    if (status === complete) throw new ConflictError(checkoutMessages.paid);
    if (status === expired) throw new ConflictError(checkoutMessages.expired);
  }

  /** A provider outage is not the caller's fault and not a bug: a 502 with a plain message. */
  async function callProvider<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      log.error(
        { err: error instanceof Error ? error.message : String(error), provider: provider.name },
        `payment provider: ${what} failed`,
      );
      throw new AppError(502, providerUnavailable);
    }
  }

  // ---- state changes: the webhook, the demo provider and reconciliation all come through here

  async function markPaid(executor: Db, id: string, periodEnd: Date | null) {
    const at = now();
    const [row] = await executor.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    if (!row) return;
    if (!row.isRecurring) {
      await executor
        .update(subscriptions)
        .set({ status: complete, paidAt: at, updatedAt: at, lastPaymentError: null })
        .where(and(eq(subscriptions.id, id), ne(subscriptions.status, complete)));
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
        updatedAt: at,
        lastPaymentError: null,
      })
      .where(eq(subscriptions.id, id));
  }

  async function markFailed(executor: Db, id: string, message: string) {
    await executor
      .update(subscriptions)
      .set({ status: failed, lastPaymentError: message.slice(0, 500), updatedAt: now() })
      .where(and(eq(subscriptions.id, id), inArray(subscriptions.status, unpaid)));
  }

  async function markEnded(executor: Db, id: string) {
    await executor
      .update(subscriptions)
      .set({ status: expired, updatedAt: now() })
      .where(and(eq(subscriptions.id, id), ne(subscriptions.status, expired)));
  }

  async function applyState(executor: Db, row: Row, state: PaymentState) {
    if (state.state === 'succeeded') await markPaid(executor, row.id, state.periodEnd);
    else if (state.state === 'failed') await markFailed(executor, row.id, state.message);
  }

  /**
   * Why an event does not belong to the link it names, or null when it does. The metadata naming
   * the link is only a hint: the payment must be the one we created for it (its ref on our record),
   * and a payment must be for the link's amount, in its currency (issue 18).
   */
  function mismatchOf(event: PaymentEvent, row: Row): string | null {
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
    if (event.effect.kind === 'paid') await markPaid(executor, id, event.effect.periodEnd);
    else if (event.effect.kind === 'failed') await markFailed(executor, id, event.effect.message);
    else await markEnded(executor, id);
    return null;
  }

  async function reconcileRow(row: Row) {
    if (!row.providerRef || row.provider !== provider.name) return;
    const state = await provider.retrieveState(row.providerRef, row.isRecurring);
    await applyState(db, row, state);
  }

  return {
    async list({ page, limit }: { page: number; limit: number }) {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(subscriptions)
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(subscriptions),
      ]);
      const n = total?.n ?? 0;
      return {
        subscriptions: rows.map(toSubscription),
        total_pages: Math.ceil(n / limit),
        total: n,
        page,
        limit,
      };
    },

    /**
     * Creates the link (Pending, expiring in linkDays) and mails it to the customer. The row and its
     * mail are committed together: a crash in between never leaves a link nobody was sent.
     */
    async create(input: CreateSubscriptionBody, createdBy: string | null): Promise<Subscription> {
      const at = now();
      const { row, sendMail } = await db.transaction(async (tx) => {
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
          })
          .returning();
        return { row: created!, sendMail: await mailer.sendWithin(tx as unknown as Db, linkMail(created!)) };
      });
      await sendMail();
      return toSubscription(row);
    },

    async summary(id: string): Promise<CheckoutSummary> {
      return toSummary(await load(id));
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
        await callProvider('retrieve', () => reconcileRow(row));
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
      if (outcome.ok) {
        await markPaid(db, row.id, row.isRecurring ? addPeriod(now(), row.planType ?? 'month') : null);
        return { status: 'succeeded' as const };
      }
      await markFailed(db, row.id, outcome.message);
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
        const refused = await applyEvent(tx as unknown as Db, event);
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
      if (row.status !== complete) await callProvider('retrieve', () => reconcileRow(row));
      return toSummary(await load(id));
    },

    /** Periodic: reconcile open payments, then write down lapsed links as Expired and close their intents. */
    async sweep() {
      const at = now();
      const open = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            inArray(subscriptions.status, unpaid),
            isNotNull(subscriptions.providerRef),
            eq(subscriptions.provider, provider.name),
          ),
        )
        .orderBy(asc(subscriptions.updatedAt))
        .limit(100);
      let reconciled = 0;
      if (provider.name !== 'demo') {
        for (const row of open) {
          try {
            await reconcileRow(row);
            reconciled += 1;
          } catch (error) {
            log.warn(
              { subscriptionId: row.id, err: error instanceof Error ? error.message : String(error) },
              'reconcile failed',
            );
          }
        }
      }
      const lapsed = await db
        .update(subscriptions)
        .set({ status: expired, updatedAt: at })
        .where(and(inArray(subscriptions.status, unpaid), lte(subscriptions.expiredAt, at)))
        .returning({
          id: subscriptions.id,
          provider: subscriptions.provider,
          providerRef: subscriptions.providerRef,
          isRecurring: subscriptions.isRecurring,
        });
      for (const row of lapsed) {
        if (!row.providerRef || row.provider !== provider.name) continue;
        const ref = row.providerRef;
        await provider.cancel(ref, row.isRecurring).catch((error: unknown) => {
          log.warn(
            { subscriptionId: row.id, err: error instanceof Error ? error.message : String(error) },
            'could not cancel a lapsed payment',
          );
        });
      }
      const ended = await db
        .update(subscriptions)
        .set({ status: expired, updatedAt: at })
        .where(
          and(
            eq(subscriptions.status, complete),
            eq(subscriptions.isRecurring, true),
            lte(subscriptions.expiredAt, new Date(at.getTime() - renewalGraceMs)),
          ),
        )
        .returning({ id: subscriptions.id });
      return { reconciled, expired: lapsed.length + ended.length };
    },

    /** Runs the sweep every `seconds` until stopped; the timer never keeps the process alive. */
    startSweep(seconds: number): () => void {
      if (seconds <= 0) return () => {};
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        this.sweep()
          .catch((error: unknown) =>
            log.error(
              { err: error instanceof Error ? error.message : String(error) },
              'subscription sweep failed',
            ),
          )
          .finally(() => {
            running = false;
          });
      }, seconds * 1000);
      timer.unref();
      return () => clearInterval(timer);
    },
  };

  function linkMail(row: Row) {
    const link = linkOf(row.id);
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
}
export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The subscriptions service; tests run its sweep directly. */
    subscriptions: SubscriptionsService;
  }
}
