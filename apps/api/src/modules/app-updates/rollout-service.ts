import { eq } from 'drizzle-orm';
import { appUpdateMessages } from '@app/contract/app-updates';
import {
  rolloutMessages,
  type RolloutAction,
  type RolloutChangeBody,
  type RolloutState,
} from '@app/contract/app-update-rollouts';
import type { Db } from '#api/db/client.ts';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';

/** From which states each action may start, and the state it leaves (decision 051). */
const transitions: Record<RolloutAction, { from: RolloutState[]; to: RolloutState | null }> = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  // Advancing keeps the state: a paused rollout can widen its stage and stay paused.
  advance: { from: ['active', 'paused'], to: null },
  // Halted is final but for withdrawal: a new release is the way forward.
  halt: { from: ['active', 'paused'], to: 'halted' },
  withdraw: { from: ['active', 'paused', 'halted'], to: 'withdrawn' },
};

const percentField = (message: string) =>
  new BadRequestError(message, { errors: [{ path: 'percent', message }] });

export function createRolloutService({ db }: { db: Db }) {
  return {
    /**
     * One state change, checked against the state read under a row lock so two admins acting at
     * once cannot both pass the check.
     */
    async change(id: string, { action, percent }: RolloutChangeBody) {
      const rule = transitions[action];
      if (action === 'advance' && percent === undefined) throw percentField(rolloutMessages.percentRequired);
      if (action !== 'advance' && percent !== undefined)
        throw percentField(`Percent is only taken with advance, not with ${action}`);
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(appUpdates).where(eq(appUpdates.id, id)).for('update');
        if (!row) throw new NotFoundError(appUpdateMessages.notFound);
        const state = row.rolloutState as RolloutState;
        if (!rule.from.includes(state)) throw new ConflictError(rolloutMessages.notAllowed(action, state));
        if (percent !== undefined && percent <= row.rolloutPercent)
          throw percentField(rolloutMessages.percentNotAbove(row.rolloutPercent));
        const [updated] = await tx
          .update(appUpdates)
          .set({ rolloutState: rule.to ?? state, rolloutPercent: percent ?? row.rolloutPercent })
          .where(eq(appUpdates.id, id))
          .returning();
        return updated!;
      });
    },
  };
}
export type RolloutService = ReturnType<typeof createRolloutService>;
