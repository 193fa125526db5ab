import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { outboxMessages, type OutboxListQuery, type OutboxMessage } from '@app/contract/outbox';
import type { Db } from '#api/db/client.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { containsPattern, offsetOf, pageCount } from '#api/lib/pagination.ts';

type Row = typeof mailOutbox.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A row as the Outbox lists it: never its text or html (decision 031). */
const toMessage = (r: Row): OutboxMessage => ({
  _id: r.id,
  to: r.to,
  subject: r.subject,
  status: r.status,
  attempts: r.attempts,
  lastError: r.lastError,
  createdAt: r.createdAt.toISOString(),
  sentAt: iso(r.sentAt),
  nextAttemptAt: r.status === 'pending' || r.status === 'failed' ? iso(r.nextAttemptAt) : null,
  holdsSecret: r.holdsSecret,
});

/**
 * The mail outbox as admins read it (issue 35 item 3). Sending stays the mailer's: "Send again" only
 * makes a failed message due now with a fresh set of tries, and the mailer's retry job sends it.
 */
export function createOutboxService({ db, now }: { db: Db; now: () => Date }) {
  const where = ({ status, search }: Pick<OutboxListQuery, 'status' | 'search'>): SQL | undefined =>
    and(
      status ? eq(mailOutbox.status, status) : undefined,
      search
        ? or(
            ilike(mailOutbox.to, containsPattern(search)),
            ilike(mailOutbox.subject, containsPattern(search)),
          )
        : undefined,
    );

  async function find(id: string): Promise<Row> {
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
    if (!row) throw new NotFoundError(outboxMessages.notFound);
    return row;
  }

  return {
    /** Newest first (the index on created_at); the count is of this page's filter. */
    async list({ page, limit, ...filters }: OutboxListQuery) {
      const filter = where(filters);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(mailOutbox)
          .where(filter)
          .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
          .limit(limit)
          .offset(offsetOf(page, limit)),
        db.select({ n: count() }).from(mailOutbox).where(filter),
      ]);
      const n = total?.n ?? 0;
      return { messages: rows.map(toMessage), total: n, totalPages: pageCount(n, limit), page, limit };
    },

    /** One message; its text only when it holds no code or link. */
    async get(id: string) {
      const row = await find(id);
      return { ...toMessage(row), text: row.holdsSecret ? null : row.text };
    },

    /**
     * A failed message, due now with its tries counted afresh; the retry job takes it within
     * MAIL_RETRY_SECONDS. The status condition is in the UPDATE, so a message another instance is
     * sending right now, or has sent, is refused rather than sent twice.
     */
    async resend(id: string) {
      await find(id);
      const [row] = await db
        .update(mailOutbox)
        .set({ attempts: 0, nextAttemptAt: now() })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed')))
        .returning();
      if (!row) throw new ConflictError(outboxMessages.resendOnlyFailed);
      return { ...toMessage(row), text: row.holdsSecret ? null : row.text };
    },
  };
}
export type OutboxService = ReturnType<typeof createOutboxService>;
