import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#api/db/client.ts';
import { createBatchWriter } from '#api/lib/batch-writer.ts';
import { expiredMessages } from './commands-service.ts';

/** How long after a hand-over its mark is at the latest written (when the database answers). */
const flushIntervalMs = 100;

/**
 * How long a cancel waits before it trusts its own answer: by then every hand-over made before it,
 * on any instance, has been written (delivery-marks.ts: a hand-over before the cancel wins).
 */
export const deliverySettleMs = flushIntervalMs * 2 + 300;

/** A list of ids or times as PostgreSQL's array text. */
const arrayText = (items: string[]) => `{${items.join(',')}}`;

/**
 * The first hand-over of each command, noted in memory and written in batches (decision 077, "write
 * behind"), so that handing a command over costs a heartbeat no write. Written at most ~100 ms later:
 * - queued becomes delivered, at the time it was handed over;
 * - a hand-over wins over a cancel made after it (the machine has it: the record says so; the cancel
 *   waits `deliverySettleMs` and answers 409), and over a report or an expiry that came first (the
 *   row keeps its state and gains its delivery time).
 * A mark lost with its instance (kill -9 within those ~100 ms) leaves the command queued: it is handed
 * over again, and the app runs a command once by its id.
 */
export function createDeliveryMarks({ db, log }: { db: Db; log?: Pick<FastifyBaseLogger, 'warn'> }) {
  async function write(batch: Map<string, Date>): Promise<Map<string, Date>> {
    const ids = [...batch.keys()];
    const ats = ids.map((id) => batch.get(id)!.toISOString());
    try {
      await db.execute(sql`
        update machine_commands m set
          state = case when m.state in ('queued', 'cancelled') then 'delivered' else m.state end,
          delivered_at = coalesce(m.delivered_at, v.at),
          deliveries = greatest(m.deliveries, 1),
          finished_at = case when m.state = 'cancelled' then null else m.finished_at end,
          message = case
            when m.state = 'cancelled' then null
            when m.state = 'expired' then ${expiredMessages.delivered}::text
            else m.message end
        from unnest(${arrayText(ids)}::uuid[], ${arrayText(ats)}::timestamptz[]) as v(id, at)
        where m.id = v.id and (
          m.state = 'queued'
          or (m.state = 'cancelled' and m.finished_at >= v.at)
          or (m.delivered_at is null and m.state in ('succeeded', 'failed', 'expired')))`);
      return new Map();
    } catch (error) {
      log?.warn({ err: error, marks: batch.size }, 'delivery marks not written; retrying');
      return batch;
    }
  }

  const writer = createBatchWriter<Map<string, Date>>({
    flushIntervalMs,
    flushAtSize: 2000,
    retryLeftovers: true,
    empty: () => new Map(),
    size: (marks) => marks.size,
    write,
    // What a failed write left was handed over first: its time is the one to keep.
    putBack: (left, since) => {
      for (const [id, at] of left) since.set(id, at);
      return since;
    },
  });

  return {
    /** Notes a first hand-over (memory only). */
    note: (id: string, at: Date) => writer.add((marks) => marks.has(id) || marks.set(id, at)),
    /** Writes what is noted (tests; the close). */
    flush: () => writer.flush(),
    close: () => writer.close(),
  };
}
