import { and, desc, getTableColumns, type SQL } from 'drizzle-orm';
import { logInWords } from '@app/contract/log-words';
import {
  accessLogExportColumns,
  errorLogExportColumns,
  type AccessLogExportQuery,
  type ErrorLogExportQuery,
} from '@app/contract/logs';
import type { Db } from '#api/db/client.ts';
import { accessLogMatches, accessLogs, errorLogMatches, errorLogs } from '#api/db/schema/logs.ts';
import { afterCursor, cursorAt, keysetCsv } from '#api/lib/csv-export.ts';
import { chosenColumns, type Cell } from '#api/lib/export-columns.ts';
import { containsPattern } from '#api/lib/pagination.ts';
import { logFilterConditions } from './log-filters.ts';

type Counted = (rows: number) => void;

/** A list's filters and search as its list reads them (decision 056). */
const logWhere = (
  kind: 'access' | 'error',
  t: typeof accessLogs | typeof errorLogs,
  q: AccessLogExportQuery | ErrorLogExportQuery,
  matches: (pattern: string) => SQL,
) => and(...logFilterConditions(kind, t, q), q.search ? matches(containsPattern(q.search)) : undefined);

type Shared = { createdAt: Date; userEmail: string | null; userId: string | null; resource: string | null };
/** The columns both lists have, keyed as their tables' columns. */
const sharedCells = {
  time: (r: Shared) => r.createdAt.toISOString(),
  userEmail: (r: Shared) => r.userEmail ?? r.userId,
  resource: (r: Shared) => r.resource,
};

type AccessRow = Omit<typeof accessLogs.$inferSelect, 'id' | 'listedIds'>;
const accessCells: Record<keyof typeof accessLogExportColumns, (r: AccessRow) => Cell> = {
  ...sharedCells,
  words: (r) => logInWords(r)?.text ?? null,
  location: (r) => r.location,
  statusCode: (r) => r.statusCode,
};

type ErrorRow = Omit<typeof errorLogs.$inferSelect, 'id'>;
const errorCells: Record<keyof typeof errorLogExportColumns, (r: ErrorRow) => Cell> = {
  ...sharedCells,
  functionName: (r) => r.functionName,
  message: (r) => r.message,
  statusCode: (r) => r.statusCode,
};

/** The access logs as CSV in the columns asked for, newest first, each with its What Happened words. */
export function accessLogExportCsv(
  db: Db,
  q: AccessLogExportQuery,
  counted: Counted,
): AsyncGenerator<string> {
  const { listedIds: _listed, ...columns } = getTableColumns(accessLogs);
  const where = logWhere('access', accessLogs, q, (p) => accessLogMatches(accessLogs, p));
  return keysetCsv(
    chosenColumns(accessLogExportColumns, accessCells, q.columns),
    (after, size) =>
      db
        .select({ ...columns, cursorAt: cursorAt(accessLogs.createdAt) })
        .from(accessLogs)
        .where(and(where, afterCursor(accessLogs.createdAt, accessLogs.id, after)))
        .orderBy(desc(accessLogs.createdAt), desc(accessLogs.id))
        .limit(size)
        .then((rows) => rows.map((r) => ({ ...r, id: String(r.id) }))),
    counted,
  );
}

/** The error logs as CSV in the columns asked for, newest first. */
export function errorLogExportCsv(db: Db, q: ErrorLogExportQuery, counted: Counted): AsyncGenerator<string> {
  const where = logWhere('error', errorLogs, q, (p) => errorLogMatches(errorLogs, p));
  return keysetCsv(
    chosenColumns(errorLogExportColumns, errorCells, q.columns),
    (after, size) =>
      db
        .select({ ...getTableColumns(errorLogs), cursorAt: cursorAt(errorLogs.createdAt) })
        .from(errorLogs)
        .where(and(where, afterCursor(errorLogs.createdAt, errorLogs.id, after)))
        .orderBy(desc(errorLogs.createdAt), desc(errorLogs.id))
        .limit(size)
        .then((rows) => rows.map((r) => ({ ...r, id: String(r.id) }))),
    counted,
  );
}
