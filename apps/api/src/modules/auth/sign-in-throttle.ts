import { and, eq, gt, sql } from 'drizzle-orm';
import { apiMessages } from '@app/contract/envelope';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/users.ts';
import { createAttemptLimiter, createBackoffLimiter } from '../../lib/attempt-limiter.ts';
import { TooManyRequestsError } from '../../lib/errors.ts';
import type { ThrottleStore } from '../../lib/throttle-store.ts';

const minutes = (n: number) => n * 60_000;

/** The numbers of docs/decisions "sign-in throttling"; README "Security" repeats them. */
export const signInThrottlePolicy = {
  /** Failures from one address, any accounts: that address waits out the window. */
  perAddress: { max: 30, windowMs: minutes(15) },
  /** Failures on one account from one address: that pair waits out the window. */
  perAccountAndAddress: { max: 5, windowMs: minutes(15) },
  /** Failures on one account from anywhere: a short back-off (1 s doubling to 30 s), never a lock. */
  perAccount: { free: 5, baseMs: 1000, capMs: 30_000, forgetMs: minutes(15) },
  /** An address the account signed in from within this time skips the account back-off. */
  knownAddressMs: minutes(60 * 24 * 30),
} as const;

/**
 * Password sign-in throttling per address, per account and address, and per account. Only the
 * per-account part can touch a real admin who is not failing, and it is capped at 30 seconds and
 * skipped from an address they signed in from before, so an attacker cannot lock them out.
 */
export function createSignInThrottle({
  db,
  now,
  store,
  policy = signInThrottlePolicy,
}: {
  db: Db;
  now: () => Date;
  store?: ThrottleStore;
  policy?: typeof signInThrottlePolicy;
}) {
  const clock = () => now().getTime();
  const byAddress = createAttemptLimiter({ name: 'login-ip', ...policy.perAddress, now: clock, store });
  const byPair = createAttemptLimiter({
    name: 'login-email-ip',
    ...policy.perAccountAndAddress,
    now: clock,
    store,
  });
  const byAccount = createBackoffLimiter({ name: 'login-email', ...policy.perAccount, now: clock, store });
  const pair = (email: string, ip: string) => `${email}\n${ip}`;

  /** Has this account signed in from this address lately? Asked only while its back-off runs. */
  async function knownAddress(email: string, ip: string) {
    const [row] = await db
      .select({ id: sessions.id })
      .from(sessions)
      .innerJoin(users, eq(sessions.userId, users.id))
      .where(
        and(
          sql`lower(${users.email}) = ${email}`,
          eq(sessions.ip, ip),
          gt(sessions.createdAt, new Date(clock() - policy.knownAddressMs)),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  return {
    /** Throws 429 (with Retry-After) when this attempt must wait; checked before the password is. */
    async check(email: string, ip: string) {
      const wait = Math.max(await byAddress.blockedFor(ip), await byPair.blockedFor(pair(email, ip)));
      if (wait > 0) throw new TooManyRequestsError(apiMessages.tooManyRequests, wait);
      const backoff = await byAccount.blockedFor(email);
      if (backoff > 0 && !(await knownAddress(email, ip)))
        throw new TooManyRequestsError(apiMessages.tooManyRequests, backoff);
    },
    async fail(email: string, ip: string) {
      await Promise.all([byAddress.fail(ip), byPair.fail(pair(email, ip)), byAccount.fail(email)]);
    },
    async succeed(email: string, ip: string) {
      await Promise.all([byPair.reset(pair(email, ip)), byAccount.reset(email)]);
    },
  };
}
export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
