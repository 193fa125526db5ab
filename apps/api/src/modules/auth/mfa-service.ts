import { and, count, eq, isNull } from 'drizzle-orm';
import QRCode from 'qrcode';
import { userMessages } from '@app/contract/users';
import {
  mfaMessages,
  type MfaChallenge,
  type MfaSetup,
  type MfaStatus,
  type UserMfaStatus,
} from '@app/contract/mfa';
import type { Db } from '#api/db/client.ts';
import { customers } from '#api/db/schema/customers.ts';
import { mfaAuthenticators, mfaRecoveryCodes } from '#api/db/schema/mfa.ts';
import { roles, sessions, users } from '#api/db/schema/users.ts';
import type { AttemptLimiter } from '#api/lib/attempt-limiter.ts';
import { heldPermissions, outrankRefusal, type Actor } from '#api/lib/grant-rules.ts';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
} from '#api/lib/errors.ts';
import type { TokenSigner } from '#api/lib/tokens.ts';
import { base32Encode, matchTotp, newTotpSecret, otpauthUri } from '#api/lib/totp.ts';
import { newRecoveryCodes, type MfaCrypto } from './mfa-crypto.ts';
import { createMfaChecks } from './mfa-checks.ts';
import { createStepTokens } from './step-tokens.ts';

/** Long enough to open the app and type a code, short enough that a leaked step token is soon dead. */
export const challengeMinutes = 5;
const issuer = 'Device Admin';

type Deps = {
  db: Db;
  crypto: MfaCrypto;
  signer: TokenSigner;
  /** Wrong codes, per user and per client address. */
  limiters: { byUser: AttemptLimiter; byIp: AttemptLimiter };
  /** REQUIRE_MFA: console users without an authenticator must enrol before they get a session. */
  requireMfa: boolean;
  now: () => Date;
};

type Purpose = MfaChallenge['mfa'];

/**
 * Takes a user's two-step sign-in away (authenticator, pending or on, and recovery codes) in one
 * transaction; with `endSessionsAt`, also signs them out everywhere (an admin's or the operator's
 * reset: they sign in with the password and set it up again). Returns how many sessions it ended.
 * Shared by turning it off, the admin's reset and the operator's command (npm run admin:reset-mfa).
 */
export async function removeTwoStep(
  db: Db,
  userId: string,
  { endSessionsAt }: { endSessionsAt?: Date } = {},
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    await tx.delete(mfaAuthenticators).where(eq(mfaAuthenticators.userId, userId));
    if (!endSessionsAt) return 0;
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: endSessionsAt })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return ended.length;
  });
}

export function createMfaService({ db, crypto, signer, limiters, requireMfa, now }: Deps) {
  // Single use, and void once the password changes (step-tokens.ts).
  const steps = createStepTokens({ db, signer, now });
  const checks = createMfaChecks({ db, crypto, limiters, now });
  const { authenticator, counted, checkCode, checkPassword } = checks;

  /** REQUIRE_MFA for everyone, or the user's clinic requires it of its own users (decision 088). */
  async function requiredFor(userId: string): Promise<boolean> {
    if (requireMfa) return true;
    const [row] = await db
      .select({ required: customers.requireMfa })
      .from(users)
      .innerJoin(customers, eq(users.customerId, customers.id))
      .where(eq(users.id, userId))
      .limit(1);
    return row?.required ?? false;
  }

  async function recoveryCodesLeft(userId: string) {
    const [left] = await db
      .select({ n: count() })
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
    return left?.n ?? 0;
  }

  /** Replaces the user's recovery codes with ten new ones and returns them in clear, once. */
  async function renewCodes(tx: Pick<Db, 'insert' | 'delete'>, userId: string) {
    const codes = newRecoveryCodes();
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    await tx
      .insert(mfaRecoveryCodes)
      .values(codes.map((code) => ({ userId, codeHash: crypto.hashRecoveryCode(userId, code) })));
    return codes;
  }

  const service = {
    /** Whom a step token names (for the audit trail), without judging it: undefined when it names no one. */
    async subjectOf(token: string): Promise<{ userId: string; email: string } | undefined> {
      const claims = await signer.verifyPurpose('mfa', token);
      if (!claims?.sub) return undefined;
      const [user] = await db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, claims.sub))
        .limit(1);
      return user ? { userId: claims.sub, email: user.email } : undefined;
    },

    /** After a correct password: the second step due for this user, or null when none is. */
    async challengeFor(userId: string): Promise<MfaChallenge | null> {
      const row = await authenticator(userId);
      const purpose: Purpose | null = row?.enabledAt
        ? 'verify'
        : (await requiredFor(userId))
          ? 'enrol'
          : null;
      if (!purpose) return null;
      const expiresAt = new Date(now().getTime() + challengeMinutes * 60_000);
      return { mfa: purpose, mfaToken: await steps.issue(userId, purpose, expiresAt) };
    },

    /** The code step of sign-in: returns the user to open a session for. */
    async passChallenge(token: string, code: string, ip: string): Promise<string> {
      const step = await steps.check(token, 'verify');
      await checkCode(step.userId, ip, code, new UnauthorizedError(mfaMessages.codeInvalid));
      await steps.consume(step);
      return step.userId;
    },

    /** REQUIRE_MFA enrolment at sign-in: the user the enrol token names (starting the setup keeps it usable). */
    enrollingUser: async (token: string) => (await steps.check(token, 'enrol')).userId,

    /** REQUIRE_MFA enrolment at sign-in, confirmed with a code: the token is used up with it. */
    async confirmEnrolment(token: string, code: string, ip: string) {
      const step = await steps.check(token, 'enrol');
      const recoveryCodes = await service.confirmSetup(step.userId, code, ip);
      await steps.consume(step);
      return { userId: step.userId, recoveryCodes };
    },

    async status(userId: string): Promise<MfaStatus> {
      const row = await authenticator(userId);
      return {
        enabled: Boolean(row?.enabledAt),
        recoveryCodesLeft: row?.enabledAt ? await recoveryCodesLeft(userId) : 0,
        required: await requiredFor(userId),
      };
    },

    /** A user's two-step sign-in as the admin `viewerId` sees it; 404 when there is no such user. */
    async statusOf(userId: string, viewerId: string): Promise<UserMfaStatus> {
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
      if (!user) throw new NotFoundError(userMessages.notFound);
      const enabledAt = (await authenticator(userId))?.enabledAt ?? null;
      return {
        enabled: enabledAt !== null,
        enabledAt: enabledAt?.toISOString() ?? null,
        recoveryCodesLeft: enabledAt ? await recoveryCodesLeft(userId) : 0,
        isYou: userId === viewerId,
        yourCodeRequired: Boolean((await authenticator(viewerId))?.enabledAt),
      };
    },

    /**
     * An admin removes another user's authenticator and recovery codes (lost phone, lost codes) and
     * ends that user's sessions; the user signs in with the password next and may set it up again
     * (or must, under REQUIRE_MFA). The acting admin has proved presence by a fresh step-up (the
     * route declares it: their own password, and their own code when their two-step sign-in is on).
     */
    async resetFor(actorId: string, userId: string): Promise<UserMfaStatus> {
      if (actorId === userId) throw new BadRequestError(mfaMessages.resetOwn);
      const target = await service.statusOf(userId, actorId);
      if (!target.enabled && !(await authenticator(userId))) throw new ConflictError(mfaMessages.resetNotOn);
      await removeTwoStep(db, userId, { endSessionsAt: now() });
      return { ...target, enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
    },

    /**
     * A user who carries a permission the admin lacks is beyond them (decision 063): taking away
     * their second factor would be a step towards their account. Checked before any step-up.
     */
    async assertMayReset(actor: Actor, userId: string) {
      const [target] = await db
        .select({ permissions: heldPermissions })
        .from(users)
        .leftJoin(roles, eq(users.roleId, roles.id))
        .where(eq(users.id, userId))
        .limit(1);
      const refusal = target && outrankRefusal(actor, target);
      if (refusal) throw new ForbiddenError(refusal);
    },

    /** Whether the user's two-step sign-in is on (a step-up then asks for a code as well). */
    hasTwoStep: async (userId: string) => Boolean((await authenticator(userId))?.enabledAt),

    /** The password, and the code when two-step sign-in is on (mfa-checks.ts): a step-up. */
    confirmPresence: checks.confirmPresence,

    /**
     * The same on the caller's transaction: an electronic signature is checked inside the signed
     * write's transaction (on the embedded database a query on `db` would wait for it to end).
     */
    confirmPresenceIn: (tx: Db, userId: string, input: { password: string; code?: string }, ip: string) =>
      createMfaChecks({ db: tx, crypto, limiters, now }).confirmPresence(userId, input, ip),

    /** A new pending secret (replacing any earlier unconfirmed one); sign-in ignores it until confirmed. */
    async startSetup(userId: string): Promise<MfaSetup> {
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
      if (!user) throw new NotFoundError('User not found');
      if ((await authenticator(userId))?.enabledAt) throw new ConflictError(mfaMessages.alreadyEnabled);
      const secret = newTotpSecret();
      const secretEnc = crypto.encryptSecret(secret, userId);
      await db
        .insert(mfaAuthenticators)
        .values({ userId, secretEnc, createdAt: now() })
        .onConflictDoUpdate({
          target: mfaAuthenticators.userId,
          set: { secretEnc, lastStep: null, createdAt: now() },
          where: isNull(mfaAuthenticators.enabledAt),
        });
      const uri = otpauthUri({ secret, issuer, account: user.email });
      const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return {
        otpauthUri: uri,
        qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
        // Groups of four are easier to type into an app by hand.
        manualKey: base32Encode(secret).replace(/(.{4})(?=.)/g, '$1 '),
      };
    },

    /** A current code from the app proves it holds the secret: only then is two-step sign-in on. */
    async confirmSetup(userId: string, code: string, ip: string): Promise<string[]> {
      const row = await authenticator(userId);
      if (row?.enabledAt) throw new ConflictError(mfaMessages.alreadyEnabled);
      if (!row) throw new ConflictError(mfaMessages.noPendingSetup);
      const step = await counted(userId, ip, async () => {
        const secret = crypto.decryptSecret(row.secretEnc, userId);
        return (secret && matchTotp(secret, code, now().getTime())) ?? false;
      });
      if (step === false) throw new BadRequestError(mfaMessages.codeInvalid);
      return db.transaction(async (tx) => {
        const enabled = await tx
          .update(mfaAuthenticators)
          .set({ enabledAt: now(), lastStep: step })
          .where(and(eq(mfaAuthenticators.userId, userId), isNull(mfaAuthenticators.enabledAt)))
          .returning({ userId: mfaAuthenticators.userId });
        if (enabled.length === 0) throw new ConflictError(mfaMessages.alreadyEnabled);
        return renewCodes(tx, userId);
      });
    },

    /** Needs the password and a current code, so an unattended signed-in browser cannot turn it off. */
    async disable(userId: string, input: { password: string; code: string }, ip: string) {
      if (await requiredFor(userId)) throw new ForbiddenError(mfaMessages.requiredByPolicy);
      if (!(await authenticator(userId))?.enabledAt) throw new ConflictError(mfaMessages.notEnabled);
      await checkPassword(userId, ip, input.password);
      await checkCode(userId, ip, input.code, new BadRequestError(mfaMessages.codeInvalid));
      await removeTwoStep(db, userId);
    },

    async renewRecoveryCodes(userId: string, code: string, ip: string): Promise<string[]> {
      if (!(await authenticator(userId))?.enabledAt) throw new ConflictError(mfaMessages.notEnabled);
      await checkCode(userId, ip, code, new BadRequestError(mfaMessages.codeInvalid));
      return db.transaction((tx) => renewCodes(tx, userId));
    },
  };
  return service;
}
export type MfaService = ReturnType<typeof createMfaService>;
