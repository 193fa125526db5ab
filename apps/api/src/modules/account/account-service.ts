import { createHash, createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { accountMessages, otpMaxWrongTries, otpValidMinutes } from '@app/contract/account';
import type { Db } from '#api/db/client.ts';
import { passwordResets } from '#api/db/schema/account.ts';
import { sessions, users } from '#api/db/schema/users.ts';
import { reserveAll } from '#api/lib/attempt-limiter.ts';
import { BadRequestError, TooManyRequestsError } from '#api/lib/errors.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import type { ThrottleStore } from '#api/lib/throttle-store.ts';
import { hashPassword, verifyPassword } from '#api/lib/passwords.ts';
import { assertNotCommonPassword } from '#api/lib/common-passwords.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';
import { defaultAccountLimiters, type AccountLimiters } from './account-limiters.ts';
import { otpMail } from './account-mail.ts';

const resetTokenMinutes = 15;
const minutes = (n: number) => n * 60_000;

type Log = { error: (obj: object, msg?: string) => void };

type Deps = {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  /** Keys the OTP hash, so a leaked table cannot be brute-forced offline (a 6-digit code is small). */
  secret: string;
  log: Log;
  now: () => Date;
  /** Where the default limiters count (memory or Redis); ignored when `limiters` is given. */
  throttleStore?: ThrottleStore;
  limiters?: AccountLimiters;
};

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

export function createAccountService({
  db,
  mailer,
  secret,
  log,
  now,
  throttleStore,
  limiters = defaultAccountLimiters(now, throttleStore),
}: Deps) {
  const otpHash = (resetId: string, otp: string) =>
    createHmac('sha256', secret).update(`${resetId}:${otp}`).digest('hex');
  const pending = new Set<Promise<void>>();

  /** Makes and mails a new OTP for the account with that email, voiding earlier ones; nothing for an unknown email. */
  async function issueOtp(email: string): Promise<void> {
    const [user] = await db
      .select({ id: users.id, email: users.email, userName: users.userName })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    if (!user) return;
    const id = randomUUID();
    const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const at = now();
    await db.transaction(async (tx) => {
      await tx
        .update(passwordResets)
        .set({ voidedAt: at })
        .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.voidedAt)));
      await tx.insert(passwordResets).values({
        id,
        userId: user.id,
        otpHash: otpHash(id, otp),
        otpExpiresAt: new Date(at.getTime() + minutes(otpValidMinutes)),
        createdAt: at,
      });
    });
    await mailer.send({
      to: user.email,
      ...otpMail({ otp, userName: user.userName, validMinutes: otpValidMinutes }),
    });
  }

  /**
   * The answer must not depend on whether the email has an account, neither in content nor in time:
   * throttles are checked per email string and IP alike, then the lookup, the OTP and the mail run
   * after the answer has gone.
   */
  async function requestOtp(input: { email: string; ip: string }, kind: 'forgot' | 'resend') {
    const email = input.email.toLowerCase();
    // Each limit is counted in the same atomic step that checks it (attempt-limiter.ts), so a burst
    // in parallel cannot send more codes than the limits allow.
    await reserveAll([[limiters.otpByIp, input.ip]]);
    const gap = await limiters.resendGap.reserve(email);
    if (gap.wait > 0) {
      // Asking again from the forgot form within 30 s keeps the OTP already sent; resend says wait.
      if (kind === 'resend') throw new TooManyRequestsError(accountMessages.otpResendTooSoon, gap.wait);
      return;
    }
    try {
      await reserveAll([[limiters.otpByEmail, email]]);
    } catch (err) {
      await gap.refund();
      throw err;
    }
    // Started just after the answer has gone: with the embedded database the queries share this thread.
    const task = new Promise<void>((resolve) => setTimeout(resolve, 25))
      .then(() => issueOtp(email))
      .catch((error: unknown) => log.error({ err: error }, 'issuing an OTP failed'));
    pending.add(task);
    void task.finally(() => pending.delete(task));
  }

  return {
    forgotPassword: (input: { email: string; ip: string }) => requestOtp(input, 'forgot'),
    resendOtp: (input: { email: string; ip: string }) => requestOtp(input, 'resend'),

    /** A right OTP (once, within 10 minutes, before 5 wrong tries) buys a short-lived reset token. */
    async verifyOtp(input: { email: string; otp: string; ip: string }) {
      const email = input.email.toLowerCase();
      // Counted as wrong before the code is looked at; a right code gives both back (attempt-limiter.ts).
      const held = await reserveAll([
        [limiters.verifyByIp, input.ip],
        [limiters.verifyByEmail, email],
      ]);
      const invalid = () => new BadRequestError(accountMessages.otpInvalid);
      const at = now();
      const [row] = await db
        .select({ id: passwordResets.id, otpHash: passwordResets.otpHash, email: users.email })
        .from(passwordResets)
        .innerJoin(users, eq(passwordResets.userId, users.id))
        .where(
          and(
            sql`lower(${users.email}) = ${email}`,
            isNull(passwordResets.voidedAt),
            isNull(passwordResets.otpUsedAt),
            lt(passwordResets.otpAttempts, otpMaxWrongTries),
            gt(passwordResets.otpExpiresAt, at),
          ),
        )
        .orderBy(desc(passwordResets.createdAt))
        .limit(1);
      if (!row) throw invalid();

      if (!sameHex(row.otpHash, otpHash(row.id, input.otp))) {
        // Counted in the database, so parallel guesses cannot exceed the limit; the 5th voids the OTP.
        await db
          .update(passwordResets)
          .set({
            otpAttempts: sql`${passwordResets.otpAttempts} + 1`,
            voidedAt: sql`case when ${passwordResets.otpAttempts} + 1 >= ${otpMaxWrongTries} then ${at.toISOString()}::timestamptz else null end`,
          })
          .where(
            and(
              eq(passwordResets.id, row.id),
              isNull(passwordResets.voidedAt),
              lt(passwordResets.otpAttempts, otpMaxWrongTries),
            ),
          );
        throw invalid();
      }

      const rememberToken = randomBytes(32).toString('base64url');
      const used = await db
        .update(passwordResets)
        .set({
          otpUsedAt: at,
          tokenHash: sha256(rememberToken),
          tokenExpiresAt: new Date(at.getTime() + minutes(resetTokenMinutes)),
        })
        .where(
          and(
            eq(passwordResets.id, row.id),
            isNull(passwordResets.otpUsedAt),
            isNull(passwordResets.voidedAt),
            lt(passwordResets.otpAttempts, otpMaxWrongTries),
          ),
        )
        .returning({ id: passwordResets.id });
      if (used.length === 0) throw invalid();
      await Promise.all([held.refund(), limiters.verifyByEmail.reset(email)]);
      return { rememberToken, email: row.email };
    },

    /** Sets the new password with a reset token (once, bound to its email) and signs the user out everywhere. */
    async resetPassword(input: { rememberToken: string; email: string; password: string }) {
      const email = input.email.toLowerCase();
      const at = now();
      const [row] = await db
        .select({ id: passwordResets.id, userId: passwordResets.userId, email: users.email })
        .from(passwordResets)
        .innerJoin(users, eq(passwordResets.userId, users.id))
        .where(
          and(
            eq(passwordResets.tokenHash, sha256(input.rememberToken)),
            isNull(passwordResets.tokenUsedAt),
            isNull(passwordResets.voidedAt),
            gt(passwordResets.tokenExpiresAt, at),
          ),
        )
        .limit(1);
      if (!row || row.email.toLowerCase() !== email)
        throw new BadRequestError(accountMessages.resetTokenInvalid);
      assertNotCommonPassword(input.password, 'password');
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const claimed = await tx
          .update(passwordResets)
          .set({ tokenUsedAt: at, voidedAt: at })
          .where(
            and(
              eq(passwordResets.id, row.id),
              isNull(passwordResets.tokenUsedAt),
              isNull(passwordResets.voidedAt),
            ),
          )
          .returning({ id: passwordResets.id });
        if (claimed.length === 0) throw new BadRequestError(accountMessages.resetTokenInvalid);
        await tx.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, row.userId));
        await tx
          .update(sessions)
          .set({ revokedAt: at })
          .where(and(eq(sessions.userId, row.userId), isNull(sessions.revokedAt)));
        await tx
          .update(passwordResets)
          .set({ voidedAt: at })
          .where(and(eq(passwordResets.userId, row.userId), isNull(passwordResets.voidedAt)));
      });
    },

    /** Checks the current password, sets the new one, and ends every other session of the user. */
    async changePassword(input: {
      userId: string;
      sessionId: string;
      oldPassword: string;
      newPassword: string;
      /** The user themselves: their history says the password changed, never its value (decision 081). */
      actor: HistoryActor;
    }) {
      const held = await reserveAll([[limiters.changeByUser, input.userId]]);
      const [user] = await db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, input.userId))
        .limit(1);
      if (!user || !(await verifyPassword(user.passwordHash, input.oldPassword)))
        throw new BadRequestError(accountMessages.currentPasswordWrong);
      await Promise.all([held.refund(), limiters.changeByUser.reset(input.userId)]);
      if (input.oldPassword === input.newPassword) throw new BadRequestError(accountMessages.samePassword);
      assertNotCommonPassword(input.newPassword, 'new_password');
      const passwordHash = await hashPassword(input.newPassword);
      const at = now();
      await db.transaction(async (tx) => {
        await recordActor(tx as unknown as Db, input.actor);
        await tx.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, input.userId));
        await tx
          .update(sessions)
          .set({ revokedAt: at })
          .where(
            and(
              eq(sessions.userId, input.userId),
              ne(sessions.id, input.sessionId),
              isNull(sessions.revokedAt),
            ),
          );
        await tx
          .update(passwordResets)
          .set({ voidedAt: at })
          .where(and(eq(passwordResets.userId, input.userId), isNull(passwordResets.voidedAt)));
      });
    },

    /** Resolves once every OTP started so far has been stored and handed to the mailer (tests). */
    async idle(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
