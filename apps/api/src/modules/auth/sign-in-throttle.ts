import { and, eq, gt, sql } from 'drizzle-orm';
import { apiMessages } from '@app/contract/envelope';
import type { Db } from '#api/db/client.ts';
import { sessions, users } from '#api/db/schema/users.ts';
import {
  createAttemptLimiter,
  createBackoffLimiter,
  createInFlightCap,
  reserveAll,
} from '#api/lib/attempt-limiter.ts';
import { TooManyRequestsError } from '#api/lib/errors.ts';
import type { ThrottleStore } from '#api/lib/throttle-store.ts';

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
  /** Password checks running at once for one account in one API instance; more wait a second. */
  inFlightPerAccount: 4,
} as const;

/** One sign-in attempt, counted as a failure from the start; the outcome settles it. */
export type SignInAttempt = {
  /** Wrong password or no such admin: the counts stand. */
  failed(): Promise<void>;
  /** Right password: the counts are taken back and the account's run of failures forgotten. */
  succeeded(): Promise<void>;
  /** Always, last: frees the account's in-flight slot; an attempt that never reached an outcome (a server error) is given back. */
  end(): Promise<void>;
};

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

  const inFlight = createInFlightCap(policy.inFlightPerAccount);

  return {
    /**
     * Counts the attempt before the password is checked, in one atomic step per limit, so a burst
     * in parallel gets no more checks than the limits allow (docs/decisions/024). Throws 429 (with
     * Retry-After) when this attempt must wait.
     */
    async begin(email: string, ip: string): Promise<SignInAttempt> {
      const release = inFlight.enter(email);
      if (!release) throw new TooManyRequestsError(apiMessages.tooManyRequests, 1);
      try {
        const held = await reserveAll([
          [byAddress, ip],
          [byPair, pair(email, ip)],
        ]);
        const onAccount = await byAccount.reserve(email);
        // A back-off running: only an address this account signed in from lately skips it.
        if (onAccount.wait > 0 && !(await knownAddress(email, ip))) {
          await held.refund();
          throw new TooManyRequestsError(apiMessages.tooManyRequests, onAccount.wait);
        }
        let settled = false;
        return {
          async failed() {
            settled = true;
            // Not counted up front when the known address skipped the back-off: counted now.
            if (onAccount.wait > 0) await byAccount.fail(email);
          },
          async succeeded() {
            settled = true;
            await Promise.all([held.refund(), byPair.reset(pair(email, ip)), byAccount.reset(email)]);
          },
          async end() {
            if (!settled) await Promise.all([held.refund(), onAccount.refund()]);
            release();
          },
        };
      } catch (err) {
        release();
        throw err;
      }
    },
  };
}
export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
