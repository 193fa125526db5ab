import { z } from 'zod';
import { exportColumnsQuery } from './export-columns.ts';
import { envelope } from './envelope.ts';
import { pageQuery, strictObject } from './fields.ts';

/** docs/product.md §2.8 and §8: the tabs' empty texts and the default empty-result message. */
export const logMessages = {
  accessEmpty: 'No Access Logs found.',
  errorEmpty: 'No Error Logs found.',
  noneFound: 'No access logs found',
  invalidCursor: 'after must be a cursor returned by the previous page',
  fromInvalid: 'from must be a date (YYYY-MM-DD)',
  toInvalid: 'to must be a date (YYYY-MM-DD)',
  rangeReversed: 'from must not be after to',
} as const;

/** docs/product.md §9: log pagers offer 10 and 25; log queries are cached 5 seconds. */
export const logPageSizes = [10, 25] as const;
export const logStaleTimeMs = 5_000;

/**
 * A filtered list (search, or user and machine together) counts its matches exactly up to this
 * many; past it, `total` is the database's estimate, so 'Page X of Y' never costs a scan of
 * millions of rows.
 */
export const logExactCountLimit = 5_000;

const filterText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .optional();

/**
 * GET access-logs/all and error-logs/all. `after` is the `nextCursor` of the page before: with it
 * the next page is read from where the last one ended (fast at any depth) instead of skipping rows.
 */
export const logListQuerySchema = pageQuery
  .extend({
    search: filterText('search', 100),
    userId: filterText('userId', 64),
    machineNumber: filterText('machineNumber', 64),
    recordId: filterText('recordId', 64),
    after: filterText('after', 120),
    /** Ours (issue 17): written on or after this UTC day, and on or before `to`, as Treatment Records. */
    from: z.iso.date({ error: logMessages.fromInvalid }).max(10, logMessages.fromInvalid).optional(),
    to: z.iso.date({ error: logMessages.toInvalid }).max(10, logMessages.toInvalid).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: logMessages.rangeReversed, path: ['from'] });

/** The exports' columns, keyed as the log tables' columns (Status Code is the export's own). */
export const accessLogExportColumns = {
  time: 'Time',
  userEmail: 'User',
  resource: 'Resource',
  words: 'What Happened',
  location: 'Location',
  statusCode: 'Status Code',
} as const;
export const errorLogExportColumns = {
  time: 'Time',
  userEmail: 'User',
  resource: 'Resource',
  functionName: 'Function Name',
  message: 'Message',
  statusCode: 'Status Code',
} as const;
/** Ours (issue 17): a log list's filters and the columns shown for its CSV export. */
const logExportQuery = <K extends string>(columns: Readonly<Record<K, string>>) =>
  strictObject({
    search: filterText('search', 100),
    userId: filterText('userId', 64),
    machineNumber: filterText('machineNumber', 64),
    recordId: filterText('recordId', 64),
    from: z.iso.date({ error: logMessages.fromInvalid }).max(10, logMessages.fromInvalid).optional(),
    to: z.iso.date({ error: logMessages.toInvalid }).max(10, logMessages.toInvalid).optional(),
    columns: exportColumnsQuery(columns),
  }).refine((q) => !q.from || !q.to || q.from <= q.to, { error: logMessages.rangeReversed, path: ['from'] });
export const accessLogExportQuerySchema = logExportQuery(accessLogExportColumns);
export const errorLogExportQuerySchema = logExportQuery(errorLogExportColumns);
export type AccessLogExportQuery = z.output<typeof accessLogExportQuerySchema>;
export type ErrorLogExportQuery = z.output<typeof errorLogExportQuerySchema>;

/**
 * What an access-log row is about (its `recordKind`, beside `recordId`): the API names it when it
 * writes the row (audit.ts, audit-records.ts), and the console links the row to that record's page.
 */
export type RecordKind =
  | 'patient'
  | 'doctor'
  | 'technician'
  | 'treatment'
  | 'device'
  | 'user'
  | 'role'
  | 'subscription'
  | 'app-update'
  | 'alarm'
  | 'saved-view'
  // A mail of the outbox (its resend).
  | 'mail'
  // Machine groups and commands to several machines (decision 077).
  | 'group'
  | 'command-batch'
  // The fleet's default settings of the machines' app (decision 079): one of a kind, no id.
  | 'fleet-settings'
  // An emergency access to a patient, signed off by a reviewer (decision 082).
  | 'break-glass'
  // A legal hold placed or lifted, and a retention run with its counts (decision 086).
  | 'legal-hold'
  | 'retention-run'
  // A patient's erasure request recorded and decided (decision 085).
  | 'erasure-request'
  // A field safety notice drafted, changed and sent (decision 084).
  | 'safety-notice'
  // A customer (clinic) added, changed or deleted (decision 087).
  | 'customer';

const logUserSchema = z.object({ userId: z.string(), email: z.string().nullable() }).nullable();

/** docs/product.md §3.8 "Access log": resource, location, time (createdTime elsewhere), userEmail or user. */
export const accessLogSchema = z.object({
  _id: z.string(),
  resource: z.string(),
  location: z.string().nullable(),
  time: z.string(),
  createdTime: z.string(),
  userEmail: z.string().nullable(),
  user: logUserSchema,
  machineNumber: z.string().nullable(),
  statusCode: z.number().int().nullable(),
  recordKind: z.string().nullable(),
  recordId: z.string().nullable(),
  /** A write's changed fields, by name (never a value: decision 048); the What Happened words end with them. */
  changedFields: z.array(z.string()).nullable(),
});
export type AccessLog = z.infer<typeof accessLogSchema>;

/** docs/product.md §3.8 "Error log": resource, functionName, utcTime (createdTime elsewhere), userEmail or user. */
export const errorLogSchema = z.object({
  _id: z.string(),
  resource: z.string(),
  functionName: z.string(),
  utcTime: z.string(),
  createdTime: z.string(),
  userEmail: z.string().nullable(),
  user: logUserSchema,
  machineNumber: z.string().nullable(),
  statusCode: z.number().int().nullable(),
  message: z.string().nullable(),
  location: z.string().nullable(),
});
export type ErrorLog = z.infer<typeof errorLogSchema>;

const listShape = <T extends z.ZodType>(item: T) =>
  z.object({
    logs: z.array(item),
    total_pages: z.number().int(),
    total: z.number().int(),
    /** True when `total` is the database's estimate (a broad search over many rows); exact otherwise. */
    totalIsEstimate: z.boolean(),
    page: z.number().int(),
    limit: z.number().int(),
    /** Pass as `after` to read the next page; null on the last page. */
    nextCursor: z.string().nullable(),
  });

export const accessLogListSchema = listShape(accessLogSchema);
export const errorLogListSchema = listShape(errorLogSchema);
export type AccessLogList = z.infer<typeof accessLogListSchema>;
export type ErrorLogList = z.infer<typeof errorLogListSchema>;
export const accessLogListResponseSchema = envelope(accessLogListSchema);
export const errorLogListResponseSchema = envelope(errorLogListSchema);
