import { randomUUID } from 'node:crypto';
import { SignJWT, generateKeyPair, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenSigner } from './tokens.ts';

const secret = 'a-test-secret-that-is-long-enough-1234567890';
const key = new TextEncoder().encode(secret);
const clock = { now: new Date('2030-01-01T00:00:00Z') };
const signer = createTokenSigner(secret, () => clock.now);
const ids = { userId: randomUUID(), sessionId: randomUUID() };
const inAnHour = () => new Date(clock.now.getTime() + 3600_000);
const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

/** A token like ours with one thing changed; signed with our secret unless told otherwise. */
function craft(
  change: {
    payload?: Partial<JWTPayload> & Record<string, unknown>;
    header?: Record<string, unknown>;
    omit?: string[];
  } = {},
) {
  const payload: Record<string, unknown> = {
    sub: ids.userId,
    sid: ids.sessionId,
    typ: 'access',
    iss: 'device-admin-api',
    aud: 'device-admin-console',
    iat: epoch(clock.now),
    exp: epoch(inAnHour()),
    ...change.payload,
  };
  for (const name of change.omit ?? []) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...change.header } as { alg: string })
    .sign(key);
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access token verification', () => {
  it('accepts our own access token and returns its user and session', async () => {
    const token = await signer.signAccess(ids, inAnHour());
    expect(await signer.verifyAccess(token)).toEqual(ids);
    expect(await signer.verifyAccess(await craft())).toEqual(ids);
  });

  it('refuses alg none, even with a well-formed payload', async () => {
    const payload = {
      sub: ids.userId,
      sid: ids.sessionId,
      typ: 'access',
      iss: 'device-admin-api',
      aud: 'device-admin-console',
      iat: epoch(clock.now),
      exp: epoch(inAnHour()),
    };
    for (const alg of ['none', 'None', 'NONE']) {
      expect(await signer.verifyAccess(`${b64({ alg, typ: 'JWT' })}.${b64(payload)}.`)).toBeNull();
    }
  });

  it('refuses HS384 and HS512 tokens signed with our own secret (allow-list, not just a valid signature)', async () => {
    for (const alg of ['HS384', 'HS512']) {
      expect(await signer.verifyAccess(await craft({ header: { alg } }))).toBeNull();
    }
  });

  it('refuses an RS256 token, signed with a real key pair', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT({ sid: ids.sessionId, typ: 'access' })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setSubject(ids.userId)
      .setIssuer('device-admin-api')
      .setAudience('device-admin-console')
      .setIssuedAt(epoch(clock.now))
      .setExpirationTime(epoch(inAnHour()))
      .sign(privateKey);
    expect(await signer.verifyAccess(token)).toBeNull();
  });

  it('refuses a token signed with another secret', async () => {
    const other = await new SignJWT({ sid: ids.sessionId, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(ids.userId)
      .setIssuer('device-admin-api')
      .setAudience('device-admin-console')
      .setIssuedAt(epoch(clock.now))
      .setExpirationTime(epoch(inAnHour()))
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    expect(await signer.verifyAccess(other)).toBeNull();
  });

  it('refuses a wrong audience, a wrong issuer, and either one missing', async () => {
    expect(await signer.verifyAccess(await craft({ payload: { aud: 'mobile-app' } }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ payload: { iss: 'someone-else' } }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ omit: ['aud'] }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ omit: ['iss'] }))).toBeNull();
  });

  it('refuses an expired token and one without an expiry', async () => {
    const token = await signer.signAccess(ids, inAnHour());
    clock.now = new Date(clock.now.getTime() + 3601_000);
    try {
      expect(await signer.verifyAccess(token)).toBeNull();
    } finally {
      clock.now = new Date('2030-01-01T00:00:00Z');
    }
    expect(await signer.verifyAccess(await craft({ omit: ['exp'] }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ omit: ['iat'] }))).toBeNull();
  });

  it('a token verified before is still refused from the moment it expires, and a tampered copy never passes', async () => {
    const start = clock.now;
    const token = await signer.signAccess(ids, new Date(start.getTime() + 60_000));
    try {
      expect(await signer.verifyAccess(token)).toEqual(ids);
      clock.now = new Date(start.getTime() + 59_999);
      expect(await signer.verifyAccess(token)).toEqual(ids);
      const [head, body, signature] = token.split('.');
      const flipped = signature!.startsWith('A') ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
      expect(await signer.verifyAccess(`${head}.${body}.${flipped}`)).toBeNull();
      clock.now = new Date(start.getTime() + 60_000);
      expect(await signer.verifyAccess(token)).toBeNull();
    } finally {
      clock.now = start;
    }
  });

  it('refuses a token of another type: typ claim reset or mfa, missing, or a non-JWT header typ', async () => {
    expect(await signer.verifyAccess(await craft({ payload: { typ: 'reset' } }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ payload: { typ: 'mfa' } }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ omit: ['typ'] }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ header: { typ: 'at+jwt' } }))).toBeNull();
    const step = await signer.signPurpose('mfa', ids.userId, inAnHour());
    expect(await signer.verifyAccess(step)).toBeNull();
  });

  it('never lets an access token pass as a step token', async () => {
    const access = await signer.signAccess(ids, inAnHour());
    expect(await signer.verifyPurpose('mfa', access)).toBeNull();
    const step = await signer.signPurpose('mfa', ids.userId, inAnHour(), { n: '1' });
    expect(await signer.verifyPurpose('mfa', step)).toMatchObject({ sub: ids.userId, n: '1', typ: 'mfa' });
  });

  it('refuses a subject or session id that is not a uuid (they reach uuid columns)', async () => {
    expect(await signer.verifyAccess(await craft({ payload: { sid: "x' or 1=1" } }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ payload: { sub: 'admin' } }))).toBeNull();
    expect(await signer.verifyAccess(await craft({ omit: ['sid'] }))).toBeNull();
  });
});
