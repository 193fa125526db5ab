import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { RoutePermission } from '@app/contract/permissions';
import { Readable } from 'node:stream';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { clientAddress, type AccessEntry } from './audit.ts';
import { csvLine } from './csv.ts';
import { requireAuth, requirePermission } from './request-context.ts';
import type { ExportColumn } from './export-columns.ts';

/** Rows read per query: a batch is all an export holds in memory at once, whatever its size. */
export const exportBatchRows = 1000;

/** Where a batch ends: its last row's time as the database writes it (a Date drops microseconds), and id. */
export type ExportCursor = { at: string; id: string };

/** The columns a list's newest-first keyset reads: the time as text for the cursor, beside the row. */
export const cursorAt = (createdAt: AnyColumn) => sql<string>`${createdAt}::text`;
/** Rows after the cursor in (created_at, id) descending order: the list's own index, a range. */
export const afterCursor = (
  createdAt: AnyColumn,
  id: AnyColumn,
  after: ExportCursor | null,
): SQL | undefined =>
  after ? sql`(${createdAt}, ${id}) < (${after.at}::timestamptz, ${after.id})` : undefined;

/**
 * A list as CSV lines in the chosen columns (`chosenColumns`), newest first: a byte order mark and
 * the header, then batch after batch read by keyset until one comes back short. Yielding a batch waits for the reader, so a slow download
 * holds the next query back. `counted` hears the rows written so far.
 */
export async function* keysetCsv<Shown, Row extends Shown & { cursorAt: string; id: string }>(
  columns: readonly ExportColumn<Shown>[],
  batch: (after: ExportCursor | null, size: number) => Promise<Row[]>,
  counted: (rows: number) => void,
): AsyncGenerator<string> {
  // The byte order mark makes a spreadsheet read the file as UTF-8.
  yield `\uFEFF${csvLine(columns.map((c) => c.header))}`;
  let after: ExportCursor | null = null;
  let written = 0;
  for (;;) {
    const rows = await batch(after, exportBatchRows);
    if (rows.length === 0) return;
    yield rows.map((row) => csvLine(columns.map((c) => c.cell(row)))).join('');
    written += rows.length;
    counted(written);
    if (rows.length < exportBatchRows) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.cursorAt, id: last.id };
  }
}

/**
 * One of an export's two audit rows (decision 064), by the admin who asked, from where. A row of an
 * export names no record: it may hold a million (decision 058).
 */
function exportRow(request: FastifyRequest, resource: string): Omit<AccessEntry, 'createdAt'> {
  const auth = requireAuth(request);
  return {
    userId: auth.userId,
    userEmail: auth.email,
    resource: resource.slice(0, 200),
    location: clientAddress(request),
    statusCode: null,
    durationMs: null,
    machineNumber: null,
    recordKind: null,
    recordId: null,
    // A clinic user's export is their clinic's (decision 088), as their requests' rows are.
    customerId: auth.customerId,
  };
}

/**
 * Answers a list's export: a CSV attachment streamed from `csv`, audited by two rows with the list,
 * the filters asked for and whether health data goes out unmasked (decisions 056, 058, 064):
 *
 * - `EXPORTING <list>[ unmasked]: <filters>`, committed before the first byte (the headers) leaves.
 *   If it cannot be written the export is refused (503) and nothing is sent. Exports are GETs, whose
 *   rows otherwise wait up to 250 ms in memory: a crash right after a download lost the only row of
 *   a file of 741 patients' contact data (issue 32).
 * - `EXPORT <list> <n> rows[ (cut short)][ unmasked]: <filters>`, the count, once the file ends or the
 *   client leaves. A second row, not the first one completed: the trail is append-only (decision
 *   013; migration 0014 refuses every UPDATE), and so the first row is final the moment it lands. It
 *   is committed before the file's last chunk (the end of the chunked answer) is sent, so a client
 *   that holds the whole file finds both rows even if the server dies at once. Should the database
 *   fail just then, the count row waits in the batch like any other: the first row already says
 *   who took which list.
 */
export async function sendCsvExport(
  request: FastifyRequest,
  reply: FastifyReply,
  {
    list,
    csv,
    unmasked = false,
  }: { list: string; csv: (counted: (rows: number) => void) => AsyncIterable<string>; unmasked?: boolean },
) {
  const audit = request.server.audit;
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  query.delete('columns');
  // The audit rows say "unmasked" in words; the flag itself is not a filter.
  query.delete('reveal');
  const filters = query.toString() || 'all';
  const how = unmasked ? ' unmasked' : '';
  await audit.accessNow(exportRow(request, `EXPORTING ${list}${how}: ${filters}`));
  let rows = 0;
  let complete = false;
  async function* audited() {
    try {
      yield* csv((n) => (rows = n));
      complete = true;
    } finally {
      const cut = complete ? '' : ' (cut short)';
      const counted = exportRow(request, `EXPORT ${list} ${rows} rows${cut}${how}: ${filters}`);
      await audit.accessNow(counted).catch(() => audit.access(counted));
    }
  }
  const day = new Date().toISOString().slice(0, 10);
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${list}-${day}.csv"`)
    .header('cache-control', 'no-store');
  return reply.send(Readable.from(audited()));
}

/**
 * A list's export route: GET `path` with the list's filters as its query, the list's permission,
 * answered by `sendCsvExport` (no response schema: the answer is a file). A list of health data
 * says which queries ask for it unmasked (`unmasked`): those also need patients.reveal, checked
 * before a byte is sent (decision 058).
 */
export function csvExportRoute<Q extends z.ZodType>(
  app: FastifyInstance,
  route: {
    path: string;
    permission: RoutePermission;
    tag: string;
    summary: string;
    query: Q;
    list: string;
    csv: (query: z.output<Q>, counted: (rows: number) => void) => AsyncIterable<string>;
    unmasked?: (query: z.output<Q>) => boolean;
  },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    route.path,
    {
      config: { access: 'admin', permission: route.permission },
      schema: { tags: [route.tag], summary: route.summary, querystring: route.query },
    },
    async (request, reply) => {
      const query = request.query as z.output<Q>;
      const unmasked = route.unmasked?.(query) ?? false;
      if (unmasked) requirePermission(requireAuth(request), 'patients.reveal');
      return sendCsvExport(request, reply, {
        list: route.list,
        csv: (counted) => route.csv(query, counted),
        unmasked,
      });
    },
  );
}
