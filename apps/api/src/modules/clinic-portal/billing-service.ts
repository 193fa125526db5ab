import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { clinicPortalMessages as m, clinicPortalScreenPaths } from '@app/contract/clinic-portal-texts';
import type { ClinicSubscriptions } from '@app/contract/clinic-portal';
import { checkoutPagePath } from '@app/contract/subscription-operations';
import { subscriptionStatuses } from '@app/contract/subscriptions';
import type { Db } from '#api/db/client.ts';
import { subscriptionPayments, subscriptions } from '#api/db/schema/subscriptions.ts';
import { withCustomerScope } from '#api/lib/customer-scope.ts';
import { ConflictError, NotFoundError } from '#api/lib/errors.ts';
import type { PaymentProvider } from '#api/lib/payments/payment-provider.ts';
import type { HistoryActor } from '#api/lib/record-history.ts';
import { providerCall } from '../subscriptions/provider-call.ts';
import type { SubscriptionOperations } from '../subscriptions/subscription-operations.ts';
import {
  demoCardOnFile,
  iso,
  loadSubscription,
  refusalOf,
} from '../subscriptions/subscription-operation-rules.ts';
import type { SubscriptionPage } from '../subscriptions/subscription-page.ts';
import { effectiveStatus } from '../subscriptions/subscription-status.ts';

type Deps = {
  db: Db;
  now: () => Date;
  publicUrl: string;
  provider: PaymentProvider;
  /** The subscriptions module's own operations: a renewal paid again, a receipt found. */
  operations: Pick<SubscriptionOperations, 'retry'> & Pick<SubscriptionPage, 'receipt' | 'demoCardUpdate'>;
  log: Pick<FastifyBaseLogger, 'error'>;
};

/*
 * A clinic's billing (issue 39 item 5): its subscriptions and payments, read through row-level
 * security (decision 090). Paying and the card go through the subscriptions module's own logic, as an
 * admin's do, once the clinic's scope has shown the subscription is its own: another clinic's is not
 * found (404), as one that does not exist. The card is changed on the payment provider's page
 * (Stripe's Billing Portal) or the portal's own form (the demo provider's), at once rather than mailed
 * (decision 091).
 */
export function createBillingService({ db, now, publicUrl, provider, operations, log }: Deps) {
  const callProvider = providerCall(provider, log);
  /** The clinic's own subscription, read in its scope, or a 404. */
  const own = (customerId: string, id: string) =>
    withCustomerScope(db, customerId, (tx) => loadSubscription(tx, id, m.subscriptionNotFound));

  return {
    async list(customerId: string): Promise<ClinicSubscriptions> {
      const at = now();
      return withCustomerScope(db, customerId, async (tx) => {
        const rows = await tx
          .select()
          .from(subscriptions)
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
          .limit(200);
        const payments = rows.length
          ? await tx
              .select()
              .from(subscriptionPayments)
              .where(
                inArray(
                  subscriptionPayments.subscriptionId,
                  rows.map((r) => r.id),
                ),
              )
              .orderBy(desc(subscriptionPayments.paidAt))
          : [];
        const list = [];
        for (const row of rows) {
          const card = row.isRecurring ? await demoCardOnFile(tx, row.id) : null;
          list.push({
            _id: row.id,
            machineSerialNumber: row.machineSerialNumber,
            amount: row.amountCents / 100,
            isRecurring: row.isRecurring,
            planType: row.planType ?? null,
            status: effectiveStatus(row, at),
            createdAt: row.createdAt.toISOString(),
            expiredAt: row.expiredAt.toISOString(),
            paidThrough: iso(row.paidThrough),
            renewalFailedAt: iso(row.renewalFailedAt),
            lastPaymentError: row.lastPaymentError,
            cancelAtPeriodEnd: row.cancelAtPeriodEnd,
            cardLast4: card?.last4 ?? null,
            payUrl:
              refusalOf(row, 'resend', at) === null &&
              effectiveStatus(row, at) !== subscriptionStatuses.expired
                ? `${publicUrl}${checkoutPagePath(row.id)}`
                : null,
            canRetry: refusalOf(row, 'retry', at) === null,
            canUpdateCard: refusalOf(row, 'cardUpdate', at) === null,
            payments: payments
              .filter((p) => p.subscriptionId === row.id)
              .map((p) => ({
                _id: p.id,
                paidAt: p.paidAt.toISOString(),
                amount: p.amountCents / 100,
                periodEnd: iso(p.periodEnd),
                provider: p.provider,
              })),
          });
        }
        return { subscriptions: list };
      });
    },

    /** One payment's receipt, once the clinic's scope has found the payment among its own. */
    async receipt(customerId: string, id: string, paymentId: string): Promise<string> {
      const [payment] = /^[\w-]{1,64}$/.test(paymentId)
        ? await withCustomerScope(db, customerId, (tx) =>
            tx
              .select({ id: subscriptionPayments.id })
              .from(subscriptionPayments)
              .where(and(eq(subscriptionPayments.id, paymentId), eq(subscriptionPayments.subscriptionId, id)))
              .limit(1),
          )
        : [];
      if (!payment) throw new NotFoundError(m.subscriptionNotFound);
      return operations.receipt(id, paymentId);
    },

    /** Pays the clinic's plan's failed renewal now with the card on file. */
    async retry(customerId: string, id: string, actor: HistoryActor) {
      await own(customerId, id);
      return operations.retry(id, actor);
    },

    /**
     * The page where the clinic changes its plan's card: a Stripe Billing Portal session, back to the
     * portal's Billing page; null with the demo provider, whose card the portal's own form sends.
     */
    async cardUpdateUrl(customerId: string, id: string): Promise<string | null> {
      const row = await own(customerId, id);
      const refused = refusalOf(row, 'cardUpdate', now());
      if (refused) throw new ConflictError(refused);
      if (provider.name === 'demo') return null;
      if (row.provider !== provider.name || !row.providerRef) throw new ConflictError(m.notAtProvider);
      const back = `${publicUrl}${clinicPortalScreenPaths.billing}`;
      const url = await callProvider('card update', () => provider.cardUpdateUrl(row.providerRef!, back));
      if (!url) throw new ConflictError(m.notAtProvider);
      return url;
    },

    /** The demo provider's new card for the clinic's plan (only its last four digits are kept). */
    async demoCard(customerId: string, id: string, card: { cardNumber: string; expiry: string }) {
      await own(customerId, id);
      return operations.demoCardUpdate({ subcriptionId: id, ...card });
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
