import { z } from 'zod';
import { bulkLimit, bulkMessages, deviceBulkFiltersSchema } from './bulk-actions.ts';
import { checkCommandParams, commandBodyShape, commandKinds, commandStates } from './commands.ts';
import { idParamSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';
import { signatureInputSchema, signatureSchema } from './signatures.ts';

/*
 * One command to several machines (issue 37, decision 077): the machines picked on Device
 * Management, every machine its filters match, or a group. Each machine gets its own copy with its
 * own state; the batch counts them. With ROLLOUT_SECOND_ADMIN on (the default) it waits for another
 * admin's approval, as a rollout's last stage does.
 */

export const commandBatchStates = ['awaiting-approval', 'queued', 'rejected'] as const;
export type CommandBatchState = (typeof commandBatchStates)[number];

export const commandBatchMessages = {
  notFound: 'Command batch not found',
  invalidId: 'Command batch id is invalid',
  targetRequired: 'target is required: ids, allMatching or groupId',
  targetOne: 'target takes one of ids, allMatching or groupId',
  groupInvalid: 'target.groupId must be a group id',
  noMachines: 'The target names no machine',
  awaitingApproval: 'Sent for approval: another admin must approve it',
  queued: (n: number) => `Command queued for ${n} ${n === 1 ? 'machine' : 'machines'}`,
  rejected: 'Command batch rejected',
  notAwaiting: 'This batch is not waiting for approval',
  approverMustDiffer: 'Another admin must approve: you sent this batch',
} as const;

export const commandTargetSchema = strictObject({
  ids: z
    .array(z.uuid({ error: bulkMessages.idInvalid }), { error: bulkMessages.idsNotList })
    .min(1, bulkMessages.idsEmpty)
    .max(bulkLimit, bulkMessages.idsTooMany)
    .optional(),
  allMatching: deviceBulkFiltersSchema.optional(),
  groupId: z.uuid({ error: commandBatchMessages.groupInvalid }).optional(),
});

/** POST /api/v1/admin/commands: `{ kind, params, ttlMinutes, target }`. */
export const sendCommandBatchBodySchema = strictObject({
  ...commandBodyShape,
  target: commandTargetSchema,
}).superRefine((body, ctx) => {
  checkCommandParams(body, ctx);
  const named = [body.target.ids, body.target.allMatching, body.target.groupId].filter(
    (t) => t !== undefined,
  );
  if (named.length === 0)
    ctx.addIssue({ code: 'custom', path: ['target'], message: commandBatchMessages.targetRequired });
  if (named.length > 1)
    ctx.addIssue({ code: 'custom', path: ['target'], message: commandBatchMessages.targetOne });
});
export type SendCommandBatchBody = z.output<typeof sendCommandBatchBodySchema>;

export const commandBatchSchema = z.object({
  _id: z.string(),
  kind: z.enum(commandKinds),
  params: z.record(z.string(), z.unknown()),
  ttlMinutes: z.number().int(),
  /** What was asked, in words: "3 machines picked", "machines matching country Germany", "group Ward 3". */
  target: z.string(),
  state: z.enum(commandBatchStates),
  /** The machines that got a copy (0 until it is queued). */
  machineCount: z.number().int(),
  /** Each machine's copy, counted by state. */
  counts: z.record(z.enum(commandStates), z.number().int()),
  createdAt: z.string(),
  createdBy: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  /** The approving admin's electronic signature (decision 083); [] until approved. */
  signatures: z.array(signatureSchema),
});
export type CommandBatch = z.infer<typeof commandBatchSchema>;

/** POST command-batches/{id}/approve: the second admin signs the approval (decision 083). */
export const approveCommandBatchBodySchema = z.preprocess(
  // No body at all is a missing signature, said by its name.
  (body) => body ?? {},
  strictObject({ signature: signatureInputSchema }),
);

export const commandBatchIdParamSchema = idParamSchema(commandBatchMessages.invalidId);
export const commandBatchResponseSchema = envelope(commandBatchSchema);

export const commandBatchPaths = {
  send: '/api/v1/admin/commands',
  batch: (id: string) => `/api/v1/admin/command-batches/${id}`,
  approve: (id: string) => `/api/v1/admin/command-batches/${id}/approve`,
  reject: (id: string) => `/api/v1/admin/command-batches/${id}/reject`,
} as const;
