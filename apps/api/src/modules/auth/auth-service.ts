import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { apiMessages } from '@app/contract/envelope';
import { signInMessages, type AdminProfile } from '@app/contract/auth';
import { knownPermissions, type Permission } from '@app/contract/permissions';
import type { Db } from '#api/db/client.ts';
import { roles, sessions, users } from '#api/db/schema/users.ts';
import { UnauthorizedError } from '#api/lib/errors.ts';
import { burnPasswordCheck, verifyPassword } from '#api/lib/passwords.ts';
import type { AuthContext } from '#api/lib/request-context.ts';
import type { AccessClaims, TokenSigner } from '#api/lib/tokens.ts';
import type { ProfileService } from '../profile/profile-service.ts';
import type { MfaService } from './mfa-service.ts';
import type { SessionActivity } from './session-activity.ts';
import { createSessionCache } from './session-cache.ts';
import type { SignInAttempt, SignInThrottle } from './sign-in-throttle.ts';

type Deps = {
  db: Db;
  signer: TokenSigner;
  profiles: ProfileService;
  /** Per address, per account and address, and a capped per-account back-off (sign-in-throttle.ts). */
  signInThrottle: SignInThrottle;
  sessionHours: number;
  /** A sign-in counts as a step-up for `stepUpMinutes` (SIGN_IN_STEP_UP, on by default). */
  signInStepUp?: boolean;
  activity: SessionActivity;
  now: () => Date;
  /** Two-step sign-in: after a correct password, a second step may be due instead of a session. */
  mfa: Pick<MfaService, 'challengeFor'>;
  /** Only where the database announces every change before the change returns (decision 042). */
  /** Hold sessions in memory until told of a change (decisions 042 and 074); off in some tests. */
  cacheSessions?: boolean;
};

export function createAuthService({
  db,
  signer,
  profiles,
  signInThrottle,
  sessionHours,
  signInStepUp = true,
  activity,
  now,
  mfa,
  cacheSessions = true,
}: Deps) {
  // Every console request runs it: built once, a named prepared statement on PostgreSQL (decision 040).
  const sessionOfToken = db
    .select({
      email: users.email,
      roleId: users.roleId,
      roleType: roles.type,
      permissions: roles.permissions,
      customerId: users.customerId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      // A step-up announces itself (migration 0023), so what the cache holds is never older than it.
      steppedUpAt: sessions.steppedUpAt,
    })
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .innerJoin(roles, eq(users.roleId, roles.id))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('auth_session_of_token');

  // Permissions filtered to the catalogue once, when the row is read, not on every request.
  type SessionRow = Omit<Awaited<ReturnType<typeof sessionOfToken.execute>>[number], 'permissions'> & {
    userId: string;
    permissions: Permission[];
  };
  const sessionCache = cacheSessions ? createSessionCache<SessionRow>() : null;

  /** The session behind a verified token: from the cache when it holds it, else one prepared read. */
  const sessionOf = async (claims: AccessClaims, at: Date): Promise<SessionRow | undefined> => {
    const cached = sessionCache?.get(claims.sessionId);
    // Idle by what is held here: read again, the database may know a newer last-seen time.
    if (
      cached &&
      cached.userId === claims.userId &&
      cached.expiresAt > at &&
      !activity.isIdle(cached.lastSeenAt, at)
    )
      return cached;
    const readAt = sessionCache?.generation() ?? 0;
    const [row] = await sessionOfToken.execute({
      sessionId: claims.sessionId,
      userId: claims.userId,
      now: at.toISOString(),
    });
    if (!row) return undefined;
    const session = { ...row, permissions: knownPermissions(row.permissions), userId: claims.userId };
    sessionCache?.set(claims.sessionId, { ...session }, readAt);
    return session;
  };

  const fail = async (attempt: SignInAttempt): Promise<never> => {
    await attempt.failed();
    throw new UnauthorizedError(signInMessages.wrongCredentials);
  };

  /**
   * A session row and its access token: the end of every sign-in (password, or password and code).
   * The sign-in proved what a step-up proves, just now: it counts as one for the next `stepUpMinutes`
   * (decision 070), so an admin is not asked for the password again seconds after giving it; unless
   * SIGN_IN_STEP_UP is off.
   */
  async function openSession(input: { userId: string; ip: string; userAgent?: string }) {
    const at = now();
    const expiresAt = new Date(at.getTime() + sessionHours * 3600_000);
    const [session] = await db
      .insert(sessions)
      // The service clock, not the database's: idle time is measured against it.
      .values({
        userId: input.userId,
        expiresAt,
        createdAt: at,
        lastSeenAt: at,
        steppedUpAt: signInStepUp ? at : null,
        ip: input.ip,
        userAgent: input.userAgent?.slice(0, 300),
      })
      .returning({ id: sessions.id });
    const accessToken = await signer.signAccess({ userId: input.userId, sessionId: session!.id }, expiresAt);
    const admin = (await profiles.findById(input.userId)) as AdminProfile;
    return { accessToken, admin };
  }

  return {
    async login(input: { email: string; password: string; ip: string; userAgent?: string }) {
      const email = input.email.toLowerCase();
      // Counted before the lookup and the password check (sign-in-throttle.ts), settled by the outcome.
      const attempt = await signInThrottle.begin(email, input.ip);
      try {
        const [account] = await db
          .select({ id: users.id, passwordHash: users.passwordHash, roleType: roles.type })
          .from(users)
          .innerJoin(roles, eq(users.roleId, roles.id))
          .where(sql`lower(${users.email}) = ${email}`)
          .limit(1);
        if (!account) {
          await burnPasswordCheck(input.password);
          return await fail(attempt);
        }
        const matches = await verifyPassword(account.passwordHash, input.password);
        // The console's admins and the clinics' own users (the portal, decision 088) sign in here;
        // app users get the same answer as a wrong password.
        if (!matches || account.roleType === 'app') return await fail(attempt);

        await attempt.succeeded();
        // A user with an authenticator (or, under REQUIRE_MFA, without one) gets a step token, not a session.
        const challenge = await mfa.challengeFor(account.id);
        if (challenge) return challenge;
        return await openSession({ userId: account.id, ip: input.ip, userAgent: input.userAgent });
      } finally {
        await attempt.end();
      }
    },

    openSession,

    /** The token must verify and its session must be live (not revoked, expired or idle); anything else is a 401. */
    async authenticate(token: string): Promise<AuthContext> {
      const claims = await signer.verifyAccess(token);
      if (!claims) throw new UnauthorizedError(apiMessages.invalidToken);
      const row = await sessionOf(claims, now());
      if (!row) throw new UnauthorizedError(apiMessages.invalidToken);
      const seen = await activity.record({
        id: claims.sessionId,
        lastSeenAt: row.lastSeenAt,
        expiresAt: row.expiresAt,
      });
      if (!seen) {
        // Idle: the session was revoked just now, in a read; what is held goes before the answer,
        // as after a write (decision 074), not when the notice comes back.
        sessionCache?.clear();
        throw new UnauthorizedError(apiMessages.invalidToken);
      }
      sessionCache?.seen(claims.sessionId, seen.lastSeenAt);
      const { endsAt } = seen;
      return {
        userId: claims.userId,
        sessionId: claims.sessionId,
        email: row.email,
        roleId: row.roleId,
        roleType: row.roleType,
        permissions: row.permissions,
        customerId: row.customerId,
        endsAt,
        expiresAt: row.expiresAt,
        steppedUpAt: row.steppedUpAt,
      };
    },

    /**
     * This instance changed something that may end a session or change what it may do: what is held
     * is dropped now, before the answer goes, since on PostgreSQL the notice of the commit reaches
     * this instance's own listener only a moment later (decision 074).
     */
    forgetSessions: () => sessionCache?.clear(),

    /** Notices of the database's session_auth_changed channel (decision 042). */
    sessionCacheFeed: {
      onPayload: () => sessionCache?.clear(),
      onLive: (live: boolean) => sessionCache?.setLive(live),
    },

    async logout(sessionId: string) {
      await db.update(sessions).set({ revokedAt: now() }).where(eq(sessions.id, sessionId));
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
