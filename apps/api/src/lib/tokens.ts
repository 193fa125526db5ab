import { SignJWT, jwtVerify } from 'jose';

const issuer = 'device-admin-api';
const audience = 'device-admin-console';

export type AccessClaims = { userId: string; sessionId: string };

export function createTokenSigner(secret: string, now: () => Date = () => new Date()) {
  const key = new TextEncoder().encode(secret);
  return {
    async signAccess(claims: AccessClaims, expiresAt: Date): Promise<string> {
      return new SignJWT({ sid: claims.sessionId, typ: 'access' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt(Math.floor(now().getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
    },
    /** Returns the claims, or null for anything not a valid, unexpired access token of ours. */
    async verifyAccess(token: string): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer, audience, currentDate: now() });
        if (payload.typ !== 'access' || typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
        return { userId: payload.sub, sessionId: payload.sid };
      } catch {
        return null;
      }
    },
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;
