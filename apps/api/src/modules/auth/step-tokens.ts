import { createHash, randomUUID } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import { mfaMessages, type MfaChallenge } from '@app/contract/mfa';
import type { Db } from '#api/db/client.ts';
import { mfaUsedStepTokens } from '#api/db/schema/mfa.ts';
import { users } from '#api/db/schema/users.ts';
import { UnauthorizedError } from '#api/lib/errors.ts';
import type { TokenSigner } from '#api/lib/tokens.ts';

/*
 * The step token of two-step sign-in (docs/decisions/014, 030): handed out after a correct password,
 * it lets its holder finish that one sign-in. It opens one session only (its id is recorded when
 * used), and it dies with the password it was earned with: it carries a fingerprint of the
 * password hash, so a reset or change of the password in the meantime voids it.
 */

export type StepPurpose = MfaChallenge['mfa'];
export type Step = { userId: string; jti: string; expiresAt: Date };

/** 16 characters of a SHA-256 of the stored hash: changes with every new password, reveals nothing. */
const passwordVersion = (passwordHash: string) =>
  createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);

export function createStepTokens({ db, signer, now }: { db: Db; signer: TokenSigner; now: () => Date }) {
  const passwordHashOf = async (userId: string) =>
    (
      await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1)
    )[0]?.passwordHash;

  const invalid = () => new UnauthorizedError(mfaMessages.challengeInvalid);

  return {
    async issue(userId: string, purpose: StepPurpose, expiresAt: Date): Promise<string> {
      const hash = await passwordHashOf(userId);
      if (!hash) throw invalid();
      return signer.signPurpose('mfa', userId, expiresAt, {
        pur: purpose,
        pwv: passwordVersion(hash),
        jti: randomUUID(),
      });
    },

    /** A valid, unused step token of that purpose, earned with the user's current password; 401 otherwise. */
    async check(token: string, purpose: StepPurpose): Promise<Step> {
      const claims = await signer.verifyPurpose('mfa', token);
      if (
        !claims ||
        claims.pur !== purpose ||
        typeof claims.jti !== 'string' ||
        typeof claims.pwv !== 'string'
      )
        throw invalid();
      const hash = await passwordHashOf(claims.sub!);
      if (!hash || passwordVersion(hash) !== claims.pwv) throw invalid();
      const [used] = await db
        .select({ jti: mfaUsedStepTokens.jti })
        .from(mfaUsedStepTokens)
        .where(eq(mfaUsedStepTokens.jti, claims.jti))
        .limit(1);
      if (used) throw invalid();
      return { userId: claims.sub!, jti: claims.jti, expiresAt: new Date(claims.exp! * 1000) };
    },

    /** Records the token as used; of two requests racing with one token, only one gets through. */
    async consume(step: Step): Promise<void> {
      // Rows of tokens that have expired anyway are of no more use.
      await db.delete(mfaUsedStepTokens).where(lt(mfaUsedStepTokens.expiresAt, now()));
      const recorded = await db
        .insert(mfaUsedStepTokens)
        .values({ jti: step.jti, userId: step.userId, expiresAt: step.expiresAt })
        .onConflictDoNothing()
        .returning({ jti: mfaUsedStepTokens.jti });
      if (recorded.length === 0) throw invalid();
    },
  };
}
