import { and, asc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { subscriptionStatuses } from '@app/contract/subscriptions';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import type { PaymentProvider } from '#api/lib/payments/payment-provider.ts';
import { unpaidStatuses, type PaymentStateMachine } from './payment-state-machine.ts';
import { renewalGraceMs } from './subscription-status.ts';

const { complete, expired } = subscriptionStatuses;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The periodic job: reconcile open payments, then write down lapsed links as Expired. */
export function createSubscriptionSweep({
  db,
  provider,
  states,
  now,
  log,
}: {
  db: Db;
  provider: Pick<PaymentProvider, 'name' | 'cancel'>;
  states: Pick<PaymentStateMachine, 'reconcileRow'>;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}) {
  async function reconcileOpen(): Promise<number> {
    const open = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          inArray(subscriptions.status, unpaidStatuses),
          isNotNull(subscriptions.providerRef),
          eq(subscriptions.provider, provider.name),
        ),
      )
      .orderBy(asc(subscriptions.updatedAt))
      .limit(100);
    let reconciled = 0;
    // The demo provider keeps no state of its own to ask about.
    if (provider.name === 'demo') return reconciled;
    for (const row of open) {
      try {
        await states.reconcileRow(db, row);
        reconciled += 1;
      } catch (error) {
        log.warn({ subscriptionId: row.id, err: messageOf(error) }, 'reconcile failed');
      }
    }
    return reconciled;
  }

  /** Unpaid links past their date become Expired, and their open intents are closed. */
  async function expireLapsed(at: Date): Promise<number> {
    const lapsed = await db
      .update(subscriptions)
      .set({ status: expired, updatedAt: at })
      .where(and(inArray(subscriptions.status, unpaidStatuses), lte(subscriptions.expiredAt, at)))
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
        log.warn({ subscriptionId: row.id, err: messageOf(error) }, 'could not cancel a lapsed payment');
      });
    }
    return lapsed.length;
  }

  /** Paid subscriptions whose renewal did not come within the grace period end. */
  async function endUnrenewed(at: Date): Promise<number> {
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
    return ended.length;
  }

  async function sweep() {
    const at = now();
    const reconciled = await reconcileOpen();
    const lapsed = await expireLapsed(at);
    const ended = await endUnrenewed(at);
    return { reconciled, expired: lapsed + ended };
  }

  return { sweep };
}
