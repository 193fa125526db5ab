import { z } from 'zod';
import { envelope } from './envelope.ts';

/*
 * The audit trail's hash chain (issue 38 item 1, decision 080): every access and error log row
 * carries its place in its log's chain and a hash over the previous row's hash and its own columns.
 * Verification recomputes them and answers whether each chain is whole, and where it first breaks.
 */

/** The module's own API path (a module's paths live in its contract file, decision 067). */
export const auditChainPaths = {
  verify: '/api/v1/admin/audit/verify',
} as const;

/** The two chained logs: access_logs and error_logs. */
export const auditChainLogs = ['access', 'error'] as const;
export type AuditChainLog = (typeof auditChainLogs)[number];

/**
 * What is wrong at a broken link:
 * - altered: the row's columns and the hash before it do not give its stored hash (the row was
 *   changed, or the row before it was changed and its hash recomputed; or the newest row's hash is
 *   not the one the chain's head recorded);
 * - missing: places in the chain hold no row (rows were deleted), in the middle or at the end;
 * - unchained: a row written after the chain began has no place in it (it went in with the chain's
 *   trigger turned off).
 */
export const auditChainProblems = ['altered', 'missing', 'unchained'] as const;

export const auditChainBreakSchema = z.object({
  /** The place where the chain breaks: the row whose link fails, or the first empty place. */
  chainSeq: z.number().int().nullable(),
  /** The row found there, if any. */
  id: z.number().int().nullable(),
  createdAt: z.string().nullable(),
  problem: z.enum(auditChainProblems),
  /** The same in a sentence. */
  detail: z.string(),
});
export type AuditChainBreak = z.infer<typeof auditChainBreakSchema>;

export const auditChainReportSchema = z.object({
  log: z.enum(auditChainLogs),
  whole: z.boolean(),
  /** Rows whose link was checked: from `fromSeq` to `toSeq`. */
  rowsChecked: z.number().int(),
  /** Where verification started: the chain's start, or past the rows a retention job removed. */
  fromSeq: z.number().int(),
  /** The chain's newest place when verification began (rows written since are checked next time). */
  toSeq: z.number().int(),
  /** The newest row's hash (hex): written down elsewhere, it proves later that nothing before it changed. */
  headHash: z.string(),
  /** When the chain began (rows written before carry no place in it). */
  startedAt: z.string(),
  /** The first broken link, in chain order; null when the chain is whole. */
  firstBreak: auditChainBreakSchema.nullable(),
});
export type AuditChainReport = z.infer<typeof auditChainReportSchema>;

export const auditChainVerificationSchema = z.object({
  /** Every chain is whole. */
  whole: z.boolean(),
  rowsChecked: z.number().int(),
  chains: z.array(auditChainReportSchema),
  checkedAt: z.string(),
  tookMs: z.number().int(),
});
export type AuditChainVerification = z.infer<typeof auditChainVerificationSchema>;

export const auditChainVerifyResponseSchema = envelope(auditChainVerificationSchema);
