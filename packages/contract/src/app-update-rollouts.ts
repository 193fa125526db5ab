import { z } from 'zod';
import { strictObject } from './fields.ts';
import { signatureInputSchema } from './signatures.ts';

/**
 * Staged rollouts of app releases (issue 16 item 3, decision 051). A release reaches the share of
 * enrolled machines its stage names, chosen by a stable hash of each machine's id.
 */
export const rolloutStates = ['active', 'paused', 'halted', 'withdrawn'] as const;
export type RolloutState = (typeof rolloutStates)[number];
export const rolloutStateLabels: Record<RolloutState, string> = {
  active: 'Rolling out',
  paused: 'Paused',
  halted: 'Halted',
  withdrawn: 'Withdrawn',
};

export const rolloutActions = ['pause', 'resume', 'advance', 'halt', 'withdraw', 'approve'] as const;
export type RolloutAction = (typeof rolloutActions)[number];

/** The stages the console offers; the API takes any whole percentage from 1 to 100. */
export const rolloutStages = [5, 25, 50, 100] as const;

const pastTense: Record<RolloutAction, string> = {
  pause: 'paused',
  resume: 'resumed',
  advance: 'advanced',
  halt: 'halted',
  withdraw: 'withdrawn',
  approve: 'approved',
};

export const rolloutMessages = {
  actionInvalid: `Action must be one of ${rolloutActions.join(', ')}`,
  percentInvalid: 'Percent must be a whole number from 1 to 100',
  percentRequired: 'Percent is required to advance a rollout',
  percentNotAbove: (current: number) => `Percent must be above the current stage (${current} %)`,
  notAllowed: (action: RolloutAction, state: RolloutState) =>
    `A rollout that is ${rolloutStateLabels[state].toLowerCase()} cannot ${action === 'advance' ? 'advance' : `be ${pastTense[action]}`}`,
  nothingToApprove: 'Nothing of this release waits for approval',
  approverMustDiffer: 'A second admin must approve this: you asked for it yourself',
  /** Only an approval is signed (decision 083). */
  signatureOnlyWithApprove: 'Signature is only taken with approve',
  awaitingApproval: 'Waiting for a second admin to approve the 100 % stage',
  changed: {
    pause: 'Rollout paused',
    resume: 'Rollout resumed',
    advance: 'Rollout advanced',
    halt: 'Rollout halted',
    withdraw: 'Release withdrawn',
    approve: 'Approved',
  } satisfies Record<RolloutAction, string>,
} as const;

export const rolloutPercentSchema = z.coerce
  .number({ error: rolloutMessages.percentInvalid })
  .int({ error: rolloutMessages.percentInvalid })
  .min(1, { error: rolloutMessages.percentInvalid })
  .max(100, { error: rolloutMessages.percentInvalid });

/** POST system/updates/{id}/rollout. */
export const rolloutChangeBodySchema = strictObject({
  action: z.enum(rolloutActions, { error: rolloutMessages.actionInvalid }),
  /** The new stage: only with advance, and above the current one. */
  percent: rolloutPercentSchema.optional(),
  /** Required with approve, and only there: the second admin's electronic signature (decision 083). */
  signature: signatureInputSchema.optional(),
});
export type RolloutChangeBody = z.infer<typeof rolloutChangeBodySchema>;

/** What every release carries about its rollout. */
export const approvalKinds = ['release', 'full-stage'] as const;
export const rolloutFields = {
  rolloutPercent: z.number().int(),
  rolloutState: z.enum(rolloutStates),
  /**
   * What waits for a second admin (decision 051): 'release', a new Force or 100 % release offered
   * to nobody yet; 'full-stage', the move to 100 % while the current stage goes on.
   */
  approvalPending: z.enum(approvalKinds).nullable(),
  /** The admin who asked for it: any other admin with the permission may approve. */
  approvalRequestedBy: z.string().nullable(),
};

/** A release's rollout progress, from the machines' check-ins (the App Update list's bar). */
export const rolloutProgressSchema = z.object({
  /** Machines inside the release's stage. */
  targeted: z.number().int(),
  /** Of those, the machines reporting this release or a later one. */
  updated: z.number().int(),
  /** Of those, the machines still reporting an earlier version of the same app. */
  onOldVersion: z.number().int(),
  /** Of those, the machines whose check-ins name another app (another package). */
  otherApp: z.number().int(),
  /** Of those, the machines whose check-ins give a version but no app (an app older than the field). */
  appUnknown: z.number().int(),
  /** Of those, the machines that never reported a version. */
  notReported: z.number().int(),
  /**
   * Of the machines on an older version, those told at their last update check to wait for their
   * maintenance window, or for a treatment to end (a release that respects windows, issue 37).
   */
  waitingForWindow: z.number().int(),
  waitingForTreatment: z.number().int(),
});
export type RolloutProgress = z.infer<typeof rolloutProgressSchema>;

/**
 * A release's progress in words, every targeted machine in exactly one part (issue 35 item 2):
 * "3 of 64 updated, 60 on an older version, 1 not reported yet"; parts with no machine are left out.
 */
export function rolloutProgressText(p: RolloutProgress): string {
  const parts = [`${p.updated} of ${p.targeted} updated`];
  const waiting = [
    p.waitingForWindow ? `${p.waitingForWindow} waiting for window` : '',
    p.waitingForTreatment ? `${p.waitingForTreatment} waiting for a treatment to end` : '',
  ].filter(Boolean);
  if (p.onOldVersion)
    parts.push(`${p.onOldVersion} on an older version${waiting.length ? ` (${waiting.join(', ')})` : ''}`);
  if (p.otherApp) parts.push(`${p.otherApp} on another app`);
  if (p.appUnknown) parts.push(`${p.appUnknown} not saying which app`);
  if (p.notReported) parts.push(`${p.notReported} not reported yet`);
  return parts.join(', ');
}
