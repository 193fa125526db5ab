import { z } from 'zod';
import { deviceFilterShape } from './device-filters.ts';
import { deviceStatusSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

/*
 * Bulk actions on lists (issue 17 item 4, docs/decisions/055): the rows picked one by one (`ids`),
 * or every row a list's filters match (`allMatching`, resolved by the server, so "select all
 * 12,000 matching" never sends 12,000 ids). Each row is answered: done, or refused with the reason.
 */

/** The most rows one request may act on; a larger selection is a 400, nothing done. */
export const bulkLimit = 10_000;
/** A request body's size limit for a bulk action: the limit's ids (39 bytes each in JSON) fit. */
export const bulkBodyBytes = 512 * 1024;

const formatted = (n: number) => n.toLocaleString('en-US');

export const bulkMessages = {
  idsOrAllMatching: 'Send either ids or allMatching, not both',
  idsRequired: 'Send ids (the rows picked) or allMatching (the list filters)',
  idsEmpty: 'ids must name at least one row',
  idsNotList: 'ids must be a list of ids',
  idInvalid: 'ids must hold valid ids',
  idsTooMany: `ids may name at most ${formatted(bulkLimit)} rows`,
  tooMany: (matching: number) =>
    `Too many rows: at most ${formatted(bulkLimit)} at a time, and ${formatted(matching)} match`,
  allMatchingInvalid: 'allMatching must be the list filters',
} as const;

/** Ids picked on the list: unique, at least one, at most the limit. */
const idsSchema = z
  .array(z.uuid({ error: bulkMessages.idInvalid }), { error: bulkMessages.idsNotList })
  .min(1, bulkMessages.idsEmpty)
  .max(bulkLimit, bulkMessages.idsTooMany)
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

/** One of `ids` or `allMatching`, checked once both are read. */
export const selection = <F extends z.ZodType, S extends z.core.$ZodLooseShape>(filters: F, action: S) =>
  strictObject({ ids: idsSchema.optional(), allMatching: filters.optional(), ...action }).superRefine(
    (body, ctx) => {
      const { ids, allMatching } = body as { ids?: unknown; allMatching?: unknown };
      if (ids !== undefined && allMatching !== undefined)
        ctx.addIssue({ code: 'custom', path: ['ids'], message: bulkMessages.idsOrAllMatching });
      else if (ids === undefined && allMatching === undefined)
        ctx.addIssue({ code: 'custom', path: ['ids'], message: bulkMessages.idsRequired });
    },
  );

/** A list's filters as `allMatching` carries them: exactly the list query's own, nothing unknown. */
export const listFilters = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `allMatching: unknown filter${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`
        : bulkMessages.allMatchingInvalid,
  });

/** Device Management's filters (search and facets), exactly as its list query takes them. */
export const deviceBulkFiltersSchema = listFilters(deviceFilterShape);
export type DeviceBulkFilters = z.output<typeof deviceBulkFiltersSchema>;

/** POST machine/bulk-status: Activate or Deactivate the picked or matching devices. */
export const deviceBulkStatusBodySchema = selection(deviceBulkFiltersSchema, { status: deviceStatusSchema });
export type DeviceBulkStatusBody = z.output<typeof deviceBulkStatusBodySchema>;

// The users list's bulk delete is in users.ts: importing the users contract here put all of it
// (its messages and schemas) on Device Management's first screen, which uses this module.

export const bulkOutcomes = ['done', 'refused'] as const;

/** One row's answer; `machineNumber` or `userName` names it for people. */
export const bulkRowResultSchema = z.object({
  _id: z.string(),
  machineNumber: z.string().optional(),
  userName: z.string().optional(),
  outcome: z.enum(bulkOutcomes),
  /** Why a row was refused: the single action's own message. */
  reason: z.string().optional(),
});
export type BulkRowResult = z.infer<typeof bulkRowResultSchema>;

export const bulkResultSchema = z.object({
  results: z.array(bulkRowResultSchema),
  done: z.number().int(),
  refused: z.number().int(),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;
export const bulkResponseSchema = envelope(bulkResultSchema);

/** The answer's own message: "3 done, 1 refused". */
export const bulkSummary = ({ done, refused }: { done: number; refused: number }) =>
  `${formatted(done)} done, ${formatted(refused)} refused`;

/** The console's words for selecting rows and acting on them (ours: the spec has no bulk actions). */
export const bulkTexts = {
  selectRow: (name: string) => `Select ${name}`,
  selectPage: 'Select all on this page',
  selected: (n: number) => `${formatted(n)} selected`,
  selectAllMatching: (n: number, estimated = false) =>
    `Select all ${estimated ? 'about ' : ''}${formatted(n)} matching`,
  allMatchingSelected: (n: number, estimated = false) =>
    `All ${estimated ? 'about ' : ''}${formatted(n)} matching selected`,
  clear: 'Clear selection',
  /** The device status the bulk buttons set, by status code: Activate (2), Deactivate (1). */
  statusAction: { 1: 'Deactivate', 2: 'Activate' } as const,
  /**
   * The spec's status select asks nothing; many machines at once do. The title and text name how
   * many machines; the buttons are the spec's No and Yes.
   */
  statusConfirmTitle: (status: 1 | 2) => `${bulkTexts.statusAction[status]} Machines`,
  statusConfirmText: (status: 1 | 2, n: number) =>
    `Are you sure you want to ${bulkTexts.statusAction[status].toLowerCase()} ${formatted(n)} machine${n === 1 ? '' : 's'}?`,
  statusPending: 'Saving...',
  deleteSelected: 'Delete',
  resultsTitle: (action: string) => `${action}: results`,
  outcome: { done: 'Done', refused: 'Refused' } as const,
  /** The results list shows this many rows, refused ones first; the summary counts them all. */
  resultsShown: 200,
  moreResults: (n: number) => `and ${formatted(n)} more done`,
} as const;
