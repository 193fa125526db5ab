import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { highlightDays } from '@app/contract/dashboard';
import type { HousekeepingConfig } from '#api/config-housekeeping.ts';
import type { Db } from '#api/db/client.ts';
import { passwordResets } from '#api/db/schema/account.ts';
import { appSessions, enrolmentCodes } from '#api/db/schema/device-api.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { processedPaymentEvents } from '#api/db/schema/subscriptions.ts';
import { sessions } from '#api/db/schema/users.ts';
import { signInThrottlePolicy } from '#api/modules/auth/sign-in-throttle.ts';

const dayMs = 86_400_000;

/** The fixed parts of the rules (decision 072); the mail's and payment events' periods are settings. */
export const housekeepingPolicy = {
  /** A session, reset or code is kept this long after it ended, for whoever looks into a sign-in problem. */
  endedGraceMs: 7 * dayMs,
  /**
   * A console session is also kept this long after it opened: the sign-in throttle's known-address
   * check and the dashboard's unique-visitors tile read the sessions opened within it.
   */
  consoleSessionKeepMs: Math.max(signInThrottlePolicy.knownAddressMs, highlightDays * dayMs),
  /** Rows removed per statement: each batch locks few rows, briefly, however large the backlog. */
  batchSize: 5_000,
} as const;

type HousekeepingKind =
  'sessions' | 'appSessions' | 'passwordResets' | 'enrolmentCodes' | 'mail' | 'paymentEvents';
export type Removed = Record<HousekeepingKind, number>;

type Rule = { table: PgTable; id: PgColumn; due: SQL | undefined };
type Log = { info: (fields: object, message: string) => void };

/**
 * Removes the rows nothing reads any more (decision 072): ended console and app sessions, spent
 * password resets and enrolment codes, old mail and old payment events. Audit rows are never
 * touched (they are append-only, and nothing removed here is referenced by them or by any table).
 */
export function createHousekeeping({
  db,
  now,
  log,
  config,
  mailMaxAttempts,
  batchSize = housekeepingPolicy.batchSize,
}: {
  db: Db;
  now: () => Date;
  log: Log;
  config: Pick<HousekeepingConfig, 'mailRetentionDays' | 'paymentEventRetentionDays'>;
  /** A failed mail with this many tries is given up (MAIL_MAX_ATTEMPTS): it goes nowhere any more. */
  mailMaxAttempts: number;
  batchSize?: number;
}) {
  const before = (at: Date, ms: number) => new Date(at.getTime() - ms);

  /** Each kind's rows due for removal at `at`; `undefined` where a setting keeps them forever. */
  function rules(at: Date): Record<HousekeepingKind, Rule> {
    const endedBefore = before(at, housekeepingPolicy.endedGraceMs);
    const mailBefore = before(at, config.mailRetentionDays * dayMs);
    return {
      // Ended (signed out, idle-revoked or past its lifetime) a week ago, and opened over 30 days ago.
      sessions: {
        table: sessions,
        id: sessions.id,
        due: and(
          lt(sessions.createdAt, before(at, housekeepingPolicy.consoleSessionKeepMs)),
          sql`least(${sessions.revokedAt}, ${sessions.expiresAt}) < ${endedBefore}`,
        ),
      },
      // Signed out, revoked with the machine, or its refresh token lapsed, a week ago (index 0041).
      appSessions: {
        table: appSessions,
        id: appSessions.id,
        due: sql`least(${appSessions.revokedAt}, ${appSessions.refreshExpiresAt}) < ${endedBefore}`,
      },
      // Neither its code nor its reset token can be used any more (used or voided ones included).
      passwordResets: {
        table: passwordResets,
        id: passwordResets.id,
        due: sql`greatest(${passwordResets.otpExpiresAt}, ${passwordResets.tokenExpiresAt}) < ${endedBefore}`,
      },
      // A code is good for 24 hours at most; used and voided ones expire like the rest.
      enrolmentCodes: {
        table: enrolmentCodes,
        id: enrolmentCodes.id,
        due: lt(enrolmentCodes.expiresAt, endedBefore),
      },
      // Delivered, printed or given up, MAIL_RETENTION_DAYS ago; a message still being tried stays.
      mail: {
        table: mailOutbox,
        id: mailOutbox.id,
        due:
          config.mailRetentionDays > 0
            ? and(
                lt(mailOutbox.createdAt, mailBefore),
                sql`coalesce(${mailOutbox.sentAt}, ${mailOutbox.createdAt}) < ${mailBefore}`,
                or(
                  inArray(mailOutbox.status, ['sent', 'logged']),
                  and(
                    eq(mailOutbox.status, 'failed'),
                    or(isNull(mailOutbox.nextAttemptAt), gte(mailOutbox.attempts, mailMaxAttempts)),
                  ),
                ),
              )
            : undefined,
      },
      // Well past the provider's retries (3 days); a later replay still records its payment only once
      // (payment-state-machine.ts).
      paymentEvents: {
        table: processedPaymentEvents,
        id: processedPaymentEvents.id,
        due:
          config.paymentEventRetentionDays > 0
            ? lt(processedPaymentEvents.processedAt, before(at, config.paymentEventRetentionDays * dayMs))
            : undefined,
      },
    };
  }

  /**
   * Removes `rule`'s due rows a batch at a time, each batch its own short transaction. The batch is
   * locked with SKIP LOCKED, so another instance running the same job at once takes other rows and
   * never waits; and a statement runs only when rows were found, so an empty run fires no trigger
   * (sessions' deletion notice empties every instance's session cache, migration 0021).
   */
  async function removeDue({ table, id, due }: Rule): Promise<number> {
    if (!due) return 0;
    let removed = 0;
    for (;;) {
      const count = await db.transaction(async (tx) => {
        const rows = await tx
          .select({ id })
          .from(table)
          .where(due)
          .limit(batchSize)
          .for('update', { skipLocked: true });
        if (rows.length === 0) return 0;
        await tx.delete(table).where(
          inArray(
            id,
            rows.map((row) => row.id),
          ),
        );
        return rows.length;
      });
      removed += count;
      if (count < batchSize) return removed;
      // Requests waiting for the connection (PGlite has one) go before the next batch.
      await nextTurn();
    }
  }

  return {
    /** One pass over every kind; logs one line when anything was removed. Returns the counts. */
    async run(): Promise<Removed> {
      const due = rules(now());
      const removed = {} as Removed;
      for (const kind of Object.keys(due) as HousekeepingKind[]) removed[kind] = await removeDue(due[kind]);
      if (Object.values(removed).some((n) => n > 0)) log.info({ removed }, 'housekeeping removed old rows');
      return removed;
    },
  };
}
