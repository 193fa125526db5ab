import { and, desc, getTableColumns, type SQL } from 'drizzle-orm';
import { logInWords } from '@app/contract/log-words';
import { accessLogExportHeader, errorLogExportHeader, type LogExportQuery } from '@app/contract/logs';
import type { Db } from '#api/db/client.ts';
import { accessLogMatches, accessLogs, errorLogMatches, errorLogs } from '#api/db/schema/logs.ts';
import { afterCursor, cursorAt, keysetCsv } from '#api/lib/csv-export.ts';
import { containsPattern } from '#api/lib/pagination.ts';
import { logFilterConditions } from './log-filters.ts';

type Counted = (rows: number) => void;

/** A list's filters and search as its list reads them (decision 056). */
const logWhere = (
  kind: 'access' | 'error',
  t: typeof accessLogs | typeof errorLogs,
  q: LogExportQuery,
  matches: (pattern: string) => SQL,
) => and(...logFilterConditions(kind, t, q), q.search ? matches(containsPattern(q.search)) : undefined);

const who = (r: { userEmail: string | null; userId: string | null }) => r.userEmail ?? r.userId;

/** The access logs as CSV, newest first, each with its What Happened words. */
export function accessLogExportCsv(db: Db, q: LogExportQuery, counted: Counted): AsyncGenerator<string> {
  const { listedIds: _listed, ...columns } = getTableColumns(accessLogs);
  const where = logWhere('access', accessLogs, q, (p) => accessLogMatches(accessLogs, p));
  return keysetCsv(
    accessLogExportHeader,
    (after, size) =>
      db
        .select({ ...columns, cursorAt: cursorAt(accessLogs.createdAt) })
        .from(accessLogs)
        .where(and(where, afterCursor(accessLogs.createdAt, accessLogs.id, after)))
        .orderBy(desc(accessLogs.createdAt), desc(accessLogs.id))
        .limit(size)
        .then((rows) => rows.map((r) => ({ ...r, id: String(r.id) }))),
    (r) => [
      r.createdAt.toISOString(),
      who(r),
      r.resource,
      logInWords(r)?.text ?? null,
      r.location,
      r.statusCode,
    ],
    counted,
  );
}

/** The error logs as CSV, newest first. */
export function errorLogExportCsv(db: Db, q: LogExportQuery, counted: Counted): AsyncGenerator<string> {
  const where = logWhere('error', errorLogs, q, (p) => errorLogMatches(errorLogs, p));
  return keysetCsv(
    errorLogExportHeader,
    (after, size) =>
      db
        .select({ ...getTableColumns(errorLogs), cursorAt: cursorAt(errorLogs.createdAt) })
        .from(errorLogs)
        .where(and(where, afterCursor(errorLogs.createdAt, errorLogs.id, after)))
        .orderBy(desc(errorLogs.createdAt), desc(errorLogs.id))
        .limit(size)
        .then((rows) => rows.map((r) => ({ ...r, id: String(r.id) }))),
    (r) => [r.createdAt.toISOString(), who(r), r.resource, r.functionName, r.message, r.statusCode],
    counted,
  );
}
