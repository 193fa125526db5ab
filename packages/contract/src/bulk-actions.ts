import { z } from 'zod';
import { deviceFilterShape } from './device-filters.ts';
import { deviceStatusSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';
import { formatCount } from './count-format.ts';

// The console's words are in bulk-texts.ts, without zod (the lists' first screen shows them); the
// answer's summary is the API's message too.
export { bulkSummary } from './bulk-texts.ts';

/*
 * Bulk actions on lists (issue 17 item 4, docs/decisions/055): the rows picked one by one (`ids`),
 * or every row a list's filters match (`allMatching`, resolved by the server, so "select all
 * 12,000 matching" never sends 12,000 ids). Each row is answered: done, or refused with the reason.
 */

/** The most rows one request may act on; a larger selection is a 400, nothing done. */
export const bulkLimit = 10_000;
/** A request body's size limit for a bulk action: the limit's ids (39 bytes each in JSON) fit. */
export const bulkBodyBytes = 512 * 1024;

export const bulkMessages = {
  idsOrAllMatching: 'Send either ids or allMatching, not both',
  idsRequired: 'Send ids (the rows picked) or allMatching (the list filters)',
  idsEmpty: 'ids must name at least one row',
  idsNotList: 'ids must be a list of ids',
  idInvalid: 'ids must hold valid ids',
  idsTooMany: `ids may name at most ${formatCount(bulkLimit)} rows`,
  tooMany: (matching: number) =>
    `Too many rows: at most ${formatCount(bulkLimit)} at a time, and ${formatCount(matching)} match`,
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
