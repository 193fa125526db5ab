import { eq } from 'drizzle-orm';
import { appUpdateMessages } from '@app/contract/app-updates';
import { signatureMessages } from '@app/contract/signatures';
import {
  rolloutMessages,
  type RolloutAction,
  type RolloutChangeBody,
  type RolloutState,
} from '@app/contract/app-update-rollouts';
import type { Db } from '#api/db/client.ts';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '#api/lib/errors.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';
import type { SignatureService, Signer } from '../signatures/signature-service.ts';

type Row = typeof appUpdates.$inferSelect;

/** From which states each action may start, and the state it leaves (decision 051). */
const transitions: Record<RolloutAction, { from: RolloutState[]; to: RolloutState | null }> = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  // Advancing keeps the state: a paused rollout can widen its stage and stay paused.
  advance: { from: ['active', 'paused'], to: null },
  // Halted is final but for withdrawal: a new release is the way forward.
  halt: { from: ['active', 'paused'], to: 'halted' },
  withdraw: { from: ['active', 'paused', 'halted'], to: 'withdrawn' },
  // What waits for approval waits whatever the state (a halted release's request is moot but harmless).
  approve: { from: ['active', 'paused', 'halted'], to: null },
};

const percentField = (message: string) =>
  new BadRequestError(message, { errors: [{ path: 'percent', message }] });

/**
 * Refuses what the action cannot do to this release now: a state that does not allow it, a stage
 * not above the current one, nothing to approve, or an approval by the admin who asked for it.
 */
function assertAllowed(row: Row, action: RolloutAction, percent: number | undefined, userId: string) {
  const state = row.rolloutState as RolloutState;
  if (!transitions[action].from.includes(state))
    throw new ConflictError(rolloutMessages.notAllowed(action, state));
  if (percent !== undefined && percent <= row.rolloutPercent)
    throw percentField(rolloutMessages.percentNotAbove(row.rolloutPercent));
  if (action === 'approve') {
    if (!row.approvalPending) throw new ConflictError(rolloutMessages.nothingToApprove);
    if (row.approvalRequestedBy === userId) throw new ForbiddenError(rolloutMessages.approverMustDiffer);
  }
}

/**
 * The change an allowed action makes to the row. With second-admin approval on
 * (ROLLOUT_SECOND_ADMIN), advancing to 100 % only asks for it; approve, by another admin, grants
 * what was asked.
 */
function changeOf(
  row: Row,
  action: RolloutAction,
  percent: number | undefined,
  userId: string,
  approval: boolean,
) {
  if (action === 'approve')
    return {
      approvalPending: null,
      approvalRequestedBy: null,
      ...(row.approvalPending === 'full-stage' && { rolloutPercent: 100 }),
    };
  if (action === 'advance' && percent === 100 && approval)
    return { approvalPending: row.approvalPending ?? 'full-stage', approvalRequestedBy: userId };
  const state = row.rolloutState as RolloutState;
  return { rolloutState: transitions[action].to ?? state, rolloutPercent: percent ?? row.rolloutPercent };
}

const signatureField = (message: string) =>
  new BadRequestError(message, { errors: [{ path: 'signature', message }] });

function assertPercentTaken({ action, percent, signature }: RolloutChangeBody) {
  if (action === 'advance' && percent === undefined) throw percentField(rolloutMessages.percentRequired);
  if (action !== 'advance' && percent !== undefined)
    throw percentField(`Percent is only taken with advance, not with ${action}`);
  // An approval is signed by the second admin (decision 083); nothing else is.
  if (action === 'approve' && !signature) throw signatureField(signatureMessages.required);
  if (action !== 'approve' && signature) throw signatureField(rolloutMessages.signatureOnlyWithApprove);
}

/**
 * What the second admin signs: the release (its APK by hash, so the signature names the very
 * binary), what waited for approval, who asked, and the stage it leads to.
 */
const approvalContent = (row: Row) => ({
  releaseId: row.id,
  appName: row.appName,
  versionCode: row.versionCode,
  versionName: row.versionName,
  apkSha256: row.apkSha256,
  updateType: row.updateType,
  approved: row.approvalPending,
  requestedBy: row.approvalRequestedBy,
  rolloutPercent: row.approvalPending === 'full-stage' ? 100 : row.rolloutPercent,
});

export function createRolloutService({
  db,
  secondAdminApproval,
  signatures,
}: {
  db: Db;
  secondAdminApproval: boolean;
  signatures: Pick<SignatureService, 'sign'>;
}) {
  return {
    /**
     * Refuses, from the release as it stands, what change would refuse: the route asks this before
     * it asks for a step-up, so an admin is not made to confirm the password only to be refused
     * (the admin who asked for a stage approving it, above all). change checks again under the lock.
     */
    async check(id: string, body: RolloutChangeBody, userId: string) {
      assertPercentTaken(body);
      const [row] = await db.select().from(appUpdates).where(eq(appUpdates.id, id));
      if (!row) throw new NotFoundError(appUpdateMessages.notFound);
      assertAllowed(row, body.action, body.percent, userId);
    },

    /**
     * One state change, checked against the state read under a row lock so two admins acting at
     * once cannot both pass the check. The release's history keeps the old and new stage and state,
     * with the admin (decision 081). An approval is signed in the same transaction (decision 083):
     * `signer` is who signs, checked by their password after the refusals above.
     */
    async change(id: string, body: RolloutChangeBody, actor: HistoryActor, signer?: Signer) {
      assertPercentTaken(body);
      const { action, percent } = body;
      const { userId } = actor;
      return db.transaction(async (tx) => {
        await recordActor(tx as unknown as Db, actor);
        const [row] = await tx.select().from(appUpdates).where(eq(appUpdates.id, id)).for('update');
        if (!row) throw new NotFoundError(appUpdateMessages.notFound);
        assertAllowed(row, action, percent, userId);
        if (action === 'approve') {
          if (!signer || !body.signature) throw signatureField(signatureMessages.required);
          await signatures.sign(tx as unknown as Db, signer, {
            recordType: 'app-update-rollout',
            recordId: id,
            content: approvalContent(row),
            input: body.signature,
          });
        }
        const [updated] = await tx
          .update(appUpdates)
          .set(changeOf(row, action, percent, userId, secondAdminApproval))
          .where(eq(appUpdates.id, id))
          .returning();
        return updated!;
      });
    },
  };
}
export type RolloutService = ReturnType<typeof createRolloutService>;
