import { and, asc, eq, inArray, lte, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema/mail.ts';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The body holds a one-time code or a payment link: the outbox keeps it only until it is sent. */
  secret?: boolean;
};

/** What a sent secret-holding message keeps of its body in the outbox. */
const clearedBody = '[cleared after sending]';

/**
 * A message one try holds: `lease` is the next_attempt_at the try's claim set. While the row still
 * has it, no other try has taken the message over.
 */
export type Claimed = { id: string; attempts: number; lease: Date; message: MailMessage };

const claimedOf = (row: typeof mailOutbox.$inferSelect): Claimed => ({
  id: row.id,
  attempts: row.attempts,
  lease: row.nextAttemptAt!,
  message: {
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html ?? undefined,
    secret: row.holdsSecret,
  },
});

/**
 * The outbox rows and their leases. A try claims a message by moving its next_attempt_at `leaseMs`
 * ahead in one UPDATE; nothing else takes the message until that moment has passed.
 */
export function createMailOutbox({
  db,
  now,
  leaseMs,
  maxAttempts,
}: {
  db: Db;
  now: () => Date;
  leaseMs: number;
  maxAttempts: number;
}) {
  const later = (ms: number) => new Date(now().getTime() + ms);

  return {
    later,

    /**
     * Stored before any delivery try (in the caller's transaction when there is one), leased to the
     * first try if it will be sent (`leased`): if SMTP or this process fails from here on, the retry
     * loop still finds the message. Without SMTP the row is 'logged': it is the delivery.
     */
    async store(
      executor: Db,
      message: MailMessage,
      leased: boolean,
    ): Promise<{ id: string; lease: Date | null }> {
      const [row] = await executor
        .insert(mailOutbox)
        .values({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html ?? null,
          holdsSecret: message.secret ?? false,
          status: leased ? 'pending' : 'logged',
          createdAt: now(),
          nextAttemptAt: leased ? later(leaseMs) : null,
        })
        .returning({ id: mailOutbox.id, lease: mailOutbox.nextAttemptAt });
      return row!;
    },

    /**
     * Renews the lease `store` gave a just-committed message, for its first try (a long transaction
     * of the caller may have used some of it up). Null when the lease is no longer the one stored:
     * another try has the message.
     */
    async claimStored(id: string, stored: Date): Promise<Claimed | null> {
      const [row] = await db
        .update(mailOutbox)
        .set({ nextAttemptAt: later(leaseMs) })
        .where(
          and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending'), eq(mailOutbox.nextAttemptAt, stored)),
        )
        .returning();
      return row ? claimedOf(row) : null;
    },

    /**
     * Claims the most overdue message: a failed one after its back-off, or a pending one whose try
     * never finished (the process died). One row per statement, with SKIP LOCKED, so two loops, here
     * or in another API instance, never take the same message, and each try starts with its whole
     * lease (of a batch claimed at once, the last leases would lapse while the first were sent).
     */
    async claimDue(): Promise<Claimed | null> {
      const dueId = db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          and(
            inArray(mailOutbox.status, ['pending', 'failed']),
            lte(mailOutbox.nextAttemptAt, now()),
            lt(mailOutbox.attempts, maxAttempts),
          ),
        )
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(1)
        .for('update', { skipLocked: true });
      const [row] = await db
        .update(mailOutbox)
        .set({ nextAttemptAt: later(leaseMs) })
        .where(inArray(mailOutbox.id, dueId))
        .returning();
      return row ? claimedOf(row) : null;
    },

    /**
     * The SMTP server took it: recorded whoever holds the lease now, so that no later try sends it
     * again. A secret-holding body is cleared (decision 031): the recipient has the code or link.
     */
    async recordSent({ id, message }: Claimed, attempts: number): Promise<void> {
      await db
        .update(mailOutbox)
        .set({
          status: 'sent',
          attempts,
          sentAt: now(),
          lastError: null,
          nextAttemptAt: null,
          ...(message.secret
            ? { text: clearedBody, html: message.html === undefined ? null : clearedBody }
            : {}),
        })
        .where(eq(mailOutbox.id, id));
    },

    /**
     * A failed try, written only while the row still holds this try's lease: a try that ended late
     * never turns a message another try has claimed, or sent, back into one to retry. Answers
     * whether it was written.
     */
    async recordFailure(
      { id, lease }: Claimed,
      failure: { attempts: number; lastError: string; nextAttemptAt: Date | null },
    ): Promise<boolean> {
      const written = await db
        .update(mailOutbox)
        .set({ status: 'failed', ...failure })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.nextAttemptAt, lease)))
        .returning({ id: mailOutbox.id });
      return written.length > 0;
    },
  };
}
