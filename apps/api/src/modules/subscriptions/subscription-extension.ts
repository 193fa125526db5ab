import {
  subscriptionOperationMessages as messages,
  type ExtendBody,
} from '@app/contract/subscription-operations';
import type { Db } from '#api/db/client.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { ConflictError } from '#api/lib/errors.ts';
import type { Licences } from '#api/modules/licences/licences-service.ts';
import { eq } from 'drizzle-orm';
import type { SignatureService, Signer } from '../signatures/signature-service.ts';
import { createPaymentStateMachine } from './payment-state-machine.ts';
import type { PaymentProvider } from '#api/lib/payments/payment-provider.ts';
import {
  adminChange,
  type Admin,
  endOfDay,
  fieldError,
  iso,
  loadSubscription,
  refusalOf,
} from './subscription-operation-rules.ts';

const day = 86_400_000;

/**
 * Extending a subscription's paid-through date by hand (issue 34 item 5) gives a machine time
 * without payment: it is signed (issue 38 item 2, decision 083). The signature binds the
 * subscription, the dates from and to and the reason; it is written in the extension's transaction
 * and its id goes in the timeline event, which the subscription's page shows with it.
 */
export function createSubscriptionExtension({
  db,
  licences,
  provider,
  now,
  signatures,
}: {
  db: Db;
  licences: Pick<Licences, 'recomputeForSubscription' | 'oneTimePaidThrough'>;
  provider: PaymentProvider;
  now: () => Date;
  signatures: Pick<SignatureService, 'sign'>;
}) {
  const states = createPaymentStateMachine({ provider, now, licences });
  const commit = adminChange({ db, now, relicense: states.relicense });

  return {
    /** Moves the paid-through date later (our record: the machine's licence); a failed renewal is forgiven. */
    async extend(id: string, body: ExtendBody, admin: Admin, signer: Signer) {
      const row = await loadSubscription(db, id);
      const why = refusalOf(row, 'extend', now());
      if (why) throw new ConflictError(why);
      const paidThrough = endOfDay(body.paidThrough);
      if (paidThrough <= row.paidThrough!) throw fieldError('paidThrough', messages.paidThroughNotLater);
      if (paidThrough.getTime() > now().getTime() + 731 * day)
        throw fieldError('paidThrough', messages.paidThroughTooFar);
      const detail: Record<string, string> = {
        paidThrough: paidThrough.toISOString(),
        from: iso(row.paidThrough)!,
      };
      await commit(row, admin, { kind: 'extended', reason: body.reason, detail }, async (tx, at) => {
        const signature = await signatures.sign(tx, signer, {
          recordType: 'subscription-extension',
          recordId: id,
          content: {
            subscriptionId: id,
            email: row.email,
            from: detail.from,
            paidThrough: detail.paidThrough,
            reason: body.reason,
          },
          input: body.signature,
        });
        // The timeline event is written after this change, in this transaction: it names its signature.
        detail.signatureId = signature.id;
        await tx
          .update(subscriptions)
          .set({ paidThrough, renewalFailedAt: null, updatedAt: at })
          .where(eq(subscriptions.id, id));
      });
    },
  };
}
export type SubscriptionExtension = ReturnType<typeof createSubscriptionExtension>;
