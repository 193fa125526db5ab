import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { mfaMessages } from '@app/contract/mfa';
import type { Db } from '#api/db/client.ts';
import { mfaAuthenticators, mfaRecoveryCodes } from '#api/db/schema/mfa.ts';
import { users } from '#api/db/schema/users.ts';
import { reserveAll, type AttemptLimiter } from '#api/lib/attempt-limiter.ts';
import { BadRequestError, type AppError } from '#api/lib/errors.ts';
import { verifyPassword } from '#api/lib/passwords.ts';
import { matchTotp } from '#api/lib/totp.ts';
import type { MfaCrypto } from './mfa-crypto.ts';

/** A 400 naming the field it is about, in the shape of a validation error (the form puts it under the field). */
export const fieldError = (path: 'password' | 'code', message: string) =>
  new BadRequestError(message, { errors: [{ path, message }] });

/**
 * The checks behind every two-step answer: a code (TOTP or recovery) or the password, each counted
 * against the user and the client address before it is looked at.
 */
export function createMfaChecks({
  db,
  crypto,
  limiters,
  now,
}: {
  db: Db;
  crypto: MfaCrypto;
  limiters: { byUser: AttemptLimiter; byIp: AttemptLimiter };
  now: () => Date;
}) {
  const authenticator = async (userId: string) =>
    (await db.select().from(mfaAuthenticators).where(eq(mfaAuthenticators.userId, userId)).limit(1))[0];

  /**
   * Counts a code or password attempt against the user and the address before it is checked, in
   * one atomic step each (attempt-limiter.ts): 429 with Retry-After when either is used up. A
   * success gives the address's count back and clears the user's; a failure leaves both counted.
   */
  async function counted<T>(userId: string, ip: string, check: () => Promise<T | false>): Promise<T | false> {
    const held = await reserveAll([
      [limiters.byUser, userId],
      [limiters.byIp, ip],
    ]);
    let result: T | false = false;
    try {
      result = await check();
    } catch (err) {
      // Not an answer about the code (the database failed): not held against the user.
      await held.refund();
      throw err;
    }
    if (result !== false) await Promise.all([held.refund(), limiters.byUser.reset(userId)]);
    return result;
  }

  /** Accepts a TOTP code of a step later than the last one accepted; the update is the replay guard. */
  async function consumeTotp(userId: string, code: string): Promise<boolean> {
    const row = await authenticator(userId);
    if (!row?.enabledAt) return false;
    const secret = crypto.decryptSecret(row.secretEnc, userId);
    const step = secret && matchTotp(secret, code, now().getTime());
    if (step == null) return false;
    const accepted = await db
      .update(mfaAuthenticators)
      .set({ lastStep: step })
      .where(
        and(
          eq(mfaAuthenticators.userId, userId),
          isNotNull(mfaAuthenticators.enabledAt),
          or(isNull(mfaAuthenticators.lastStep), lt(mfaAuthenticators.lastStep, step)),
        ),
      )
      .returning({ userId: mfaAuthenticators.userId });
    return accepted.length > 0;
  }

  /** Marks an unused recovery code used, atomically: two requests with one code cannot both pass. */
  async function consumeRecoveryCode(userId: string, code: string): Promise<boolean> {
    const used = await db
      .update(mfaRecoveryCodes)
      .set({ usedAt: now() })
      .where(
        and(
          eq(mfaRecoveryCodes.userId, userId),
          eq(mfaRecoveryCodes.codeHash, crypto.hashRecoveryCode(userId, code)),
          isNull(mfaRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: mfaRecoveryCodes.id });
    return used.length > 0;
  }

  /**
   * Checks a code (six digits: TOTP; anything else: a recovery code) under the per-user and per-IP
   * limits; a wrong one counts against both and throws `wrong`.
   */
  async function checkCode(userId: string, ip: string, code: string, wrong: AppError) {
    const compact = code.replace(/\s/g, '');
    const ok = await counted(userId, ip, () =>
      /^\d{6}$/.test(compact) ? consumeTotp(userId, compact) : consumeRecoveryCode(userId, code),
    );
    if (!ok) throw wrong;
  }

  /** The user's own password, under the same per-user and per-IP limits as codes (a wrong one counts). */
  async function checkPassword(userId: string, ip: string, password: string) {
    const ok = await counted(userId, ip, async () => {
      const [user] = await db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return Boolean(user && (await verifyPassword(user.passwordHash, password)));
    });
    if (!ok) throw fieldError('password', mfaMessages.passwordWrong);
  }

  /**
   * The signed-in user proves it is them (a step-up, decision 046; an electronic signature, decision
   * 083): the password, then a current or recovery code when their two-step sign-in is on. Each
   * counts against the user's and the address's limits before it is checked; a wrong or missing one
   * is a 400 naming its field.
   */
  async function confirmPresence(userId: string, input: { password: string; code?: string }, ip: string) {
    await checkPassword(userId, ip, input.password);
    if (!(await authenticator(userId))?.enabledAt) return;
    if (!input.code) throw fieldError('code', mfaMessages.codeRequired);
    await checkCode(userId, ip, input.code, fieldError('code', mfaMessages.codeInvalid));
  }

  return { authenticator, counted, checkCode, checkPassword, confirmPresence };
}
