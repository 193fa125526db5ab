import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

const issuer = 'device-admin-api';
const audience = 'device-admin-console';
/** The only algorithm we sign with is the only one we accept: no `none`, no RS256 key confusion, no HS512. */
const algorithms = ['HS256'];
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a token is for, carried in its `typ` claim. A token of one purpose never passes as another:
 * an access token cannot finish a sign-in step and a step token cannot call the API.
 */
export type TokenPurpose = 'access' | 'mfa';

export type AccessClaims = { userId: string; sessionId: string };

/** How many verified access tokens are remembered (oldest out): a few hundred bytes each. */
const verifiedAccessLimit = 10_000;

export function createTokenSigner(secret: string, now: () => Date = () => new Date()) {
  const key = new TextEncoder().encode(secret);
  /*
   * A signature that checked once checks again: the same string under the same key always gives the
   * same answer, so an access token seen before needs only its expiry compared (as jose does: valid
   * while exp > now in whole seconds). The console sends one token for 15 minutes, on every request;
   * the HMAC through WebCrypto was 6 % of the API's time under load (decision 040).
   */
  const verifiedAccess = new Map<string, { claims: AccessClaims; exp: number }>();
  const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

  const sign = (purpose: TokenPurpose, subject: string, claims: Record<string, string>, expiresAt: Date) =>
    new SignJWT({ ...claims, typ: purpose })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subject)
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(seconds(now()))
      .setExpirationTime(seconds(expiresAt))
      .sign(key);

  /** The payload of a valid, unexpired token of that purpose from us; null for anything else. */
  const verify = async (purpose: TokenPurpose, token: string): Promise<JWTPayload | null> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms,
        issuer,
        audience,
        typ: 'JWT',
        // A token without an expiry would live for ever; one without a subject names nobody.
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: now(),
      });
      if (payload.typ !== purpose || typeof payload.sub !== 'string' || !uuid.test(payload.sub)) return null;
      return payload;
    } catch {
      return null;
    }
  };

  return {
    signAccess: (claims: AccessClaims, expiresAt: Date) =>
      sign('access', claims.userId, { sid: claims.sessionId }, expiresAt),

    /** Returns the claims, or null for anything not a valid, unexpired access token of ours. */
    async verifyAccess(token: string): Promise<AccessClaims | null> {
      const known = verifiedAccess.get(token);
      if (known) {
        if (known.exp > seconds(now())) return known.claims;
        verifiedAccess.delete(token);
        return null;
      }
      const payload = await verify('access', token);
      // The session id goes into a uuid column: a malformed one must be a 401, not a database error.
      if (!payload || typeof payload.sid !== 'string' || !uuid.test(payload.sid)) return null;
      const claims = { userId: payload.sub!, sessionId: payload.sid };
      if (verifiedAccess.size >= verifiedAccessLimit)
        verifiedAccess.delete(verifiedAccess.keys().next().value!);
      verifiedAccess.set(token, { claims, exp: payload.exp! });
      return claims;
    },

    /** A short-lived token for one step of a flow (e.g. the sign-in code step); never an access token. */
    signPurpose: (
      purpose: Exclude<TokenPurpose, 'access'>,
      subject: string,
      expiresAt: Date,
      claims: Record<string, string> = {},
    ) => sign(purpose, subject, claims, expiresAt),
    verifyPurpose: (purpose: Exclude<TokenPurpose, 'access'>, token: string) => verify(purpose, token),
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;
