import type { FastifyBaseLogger } from 'fastify';

/** SQLSTATE class 22 (data exception) or 23 (integrity constraint): the row, not the database, is the problem. */
function isRowRejected(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

type BatchOptions = {
  /** 'access' or 'error': names the rows in the log lines. */
  kind: string;
  maxBatch: number;
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** Called for each row the database refused for its content; that row is lost. */
  onDropped: () => void;
};

/**
 * Writes the rows in batches; returns the rows still to write (from the first batch the database
 * could not take at all). A batch refused because of one of its rows (bad bytes, a broken
 * check) is written row by row, so only that row is lost: one bad row must never hold back the
 * audit trail (it did: a NUL in a query parameter stopped every later row from landing).
 */
export async function writeInBatches<T>(
  rows: T[],
  insert: (batch: T[]) => Promise<unknown>,
  { kind, maxBatch, log, onDropped }: BatchOptions,
): Promise<T[]> {
  for (let i = 0; i < rows.length; i += maxBatch) {
    const batch = rows.slice(i, i + maxBatch);
    try {
      await insert(batch);
      continue;
    } catch (err) {
      if (!isRowRejected(err)) {
        log?.error({ err, rows: batch.length }, `audit: writing ${kind} logs failed`);
        return rows.slice(i);
      }
    }
    for (let j = 0; j < batch.length; j++) {
      try {
        await insert([batch[j]!]);
      } catch (err) {
        if (!isRowRejected(err)) {
          log?.error({ err, rows: batch.length - j }, `audit: writing ${kind} logs failed`);
          return rows.slice(i + j);
        }
        onDropped();
        log?.error({ err }, `audit: the database refused one ${kind} log row; it is dropped`);
      }
    }
  }
  return [];
}
