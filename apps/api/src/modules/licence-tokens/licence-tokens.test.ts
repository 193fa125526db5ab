import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
  type JSONWebKeySet,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceClaimsSchema, licencePaths, type LicenceClaims } from '@app/contract/licences';
import { verifyLicence } from '@app/fleet-simulator/licence';
import { adminToken, deviceInject, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * The licence a machine holds (decision 068, "The token"; docs/device-api.md): signed for that
 * machine only, verified with nothing but the public keys the server publishes. The app here is a
 * stranger: it reads the JWKS over HTTP and never touches the server's keys.
 */

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  // The console is served too, so its fallback to index.html is there to get in the way.
  webDist = mkdtempSync(path.join(os.tmpdir(), 'licence-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>console</title>');
  t = await createTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const jwks = async (): Promise<JSONWebKeySet> => {
  const res = await t.app.inject({ method: 'GET', url: licencePaths.jwks });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const fetchLicence = async (d: EnrolledDevice, url: string = licencePaths.appLicence) => {
  const res = await deviceInject(t, d.credential, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { token: string; version: number; expiresAt: string };
};
const expectedFor = (d: EnrolledDevice) => ({
  issuer: t.config.publicUrl,
  serial: d.serialNumber,
  now: t.clock.now,
});
/** The payload as anyone can read it (no verification). */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as LicenceClaims;

describe('GET /.well-known/jwks.json', () => {
  it('publishes the public key, and nothing private, for anyone to cache a few minutes', async () => {
    const res = await t.app.inject({ method: 'GET', url: licencePaths.jwks });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const { keys } = res.json();
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0]).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
  });

  it("is not the console's page although the console is served, and an unknown /.well-known path is a JSON 404", async () => {
    expect((await t.app.inject({ method: 'GET', url: '/devices' })).body).toContain('<title>console</title>');
    const unknown = await t.app.inject({ method: 'GET', url: '/.well-known/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 404 });
  });
});

describe('GET /api/v1/app/licence', () => {
  it("verifies with the published keys alone, and its claims are the calling machine's licence", async () => {
    const d = await enrolDevice(t);
    const answer = await fetchLicence(d);
    const { payload, protectedHeader } = await jwtVerify(answer.token, createLocalJWKSet(await jwks()), {
      algorithms: ['EdDSA'],
      issuer: t.config.publicUrl,
      subject: d.serialNumber,
      currentDate: t.clock.now,
    });
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: (await jwks()).keys[0]!.kid });
    const iat = Math.floor(t.clock.now.getTime() / 1000);
    expect(licenceClaimsSchema.parse(payload)).toEqual({
      iss: t.config.publicUrl,
      sub: d.serialNumber,
      deviceId: d.deviceId,
      state: 'unlicensed',
      locked: false,
      enforcement: 'lapsed',
      paidThrough: null,
      graceUntil: null,
      ver: 1,
      iat,
      // LICENCE_OFFLINE_DAYS, 7 by default.
      exp: iat + 7 * 86_400,
    });
    expect(answer).toMatchObject({
      version: 1,
      expiresAt: new Date((iat + 7 * 86_400) * 1000).toISOString(),
    });
    // The simulated app's verifier agrees.
    expect(await verifyLicence(answer.token, await jwks(), expectedFor(d))).toMatchObject({
      sub: d.serialNumber,
    });
  });

  it('follows the licence: an exemption is in the next licence, with a higher version', async () => {
    const d = await enrolDevice(t);
    const before = await fetchLicence(d);
    const until = new Date(t.clock.now.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    const res = await t.injectAs(await t.stepUp(await adminToken(t)), {
      method: 'PUT',
      url: licencePaths.deviceExemption(d.deviceId),
      payload: { kind: 'trial', reason: 'Trial month', until },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await fetchLicence(d);
    expect(after.version).toBeGreaterThan(before.version);
    expect(await verifyLicence(after.token, await jwks(), expectedFor(d))).toMatchObject({
      state: 'exempt',
      locked: false,
      ver: after.version,
    });
  });

  it("is only ever the calling machine's own: the credential decides, and no parameter names another", async () => {
    const a = await enrolDevice(t);
    const b = await enrolDevice(t);
    const ofA = await fetchLicence(
      a,
      `${licencePaths.appLicence}?deviceId=${b.deviceId}&serial=${b.serialNumber}`,
    );
    expect(claimsOf(ofA.token)).toMatchObject({ sub: a.serialNumber, deviceId: a.deviceId });
    expect(claimsOf((await fetchLicence(b)).token)).toMatchObject({
      sub: b.serialNumber,
      deviceId: b.deviceId,
    });
    // A's genuine licence does not verify as B's.
    await expect(verifyLicence(ofA.token, await jwks(), expectedFor(b))).rejects.toThrow(/"sub"/);
  });

  it('refuses a call without a valid device credential, and a console token', async () => {
    expect((await t.app.inject({ method: 'GET', url: licencePaths.appLicence })).statusCode).toBe(401);
    const made_up = `dvc_${'A'.repeat(43)}`;
    expect((await deviceInject(t, made_up, { method: 'GET', url: licencePaths.appLicence })).statusCode).toBe(
      401,
    );
    const console = await t.injectAs(await adminToken(t), { method: 'GET', url: licencePaths.appLicence });
    expect(console.statusCode).toBe(401);
  });
});

describe('a licence that is not genuine', () => {
  let d: EnrolledDevice;
  let genuine: string;
  let keys: JSONWebKeySet;
  beforeAll(async () => {
    d = await enrolDevice(t);
    genuine = (await fetchLicence(d)).token;
    keys = await jwks();
  });
  const verify = (token: string) => verifyLicence(token, keys, expectedFor(d));

  it('fails verification when its payload was altered', async () => {
    const [header, , signature] = genuine.split('.');
    const altered = Buffer.from(
      JSON.stringify({ ...claimsOf(genuine), state: 'active', exp: claimsOf(genuine).exp + 365 * 86_400 }),
    ).toString('base64url');
    await expect(verify([header, altered, signature].join('.'))).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );
    await expect(verify(genuine)).resolves.toMatchObject({ sub: d.serialNumber });
  });

  it('fails verification when signed by a key the server does not hold, even under its kid', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const forged = await new SignJWT({ ...claimsOf(genuine) })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid: decodeProtectedHeader(genuine).kid! })
      .sign(privateKey);
    await expect(verify(forged)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    const unknownKid = await new SignJWT({ ...claimsOf(genuine) })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid: 'not-a-published-key' })
      .sign(privateKey);
    await expect(verify(unknownKid)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
  });

  it('fails verification when unsigned (alg none) or of another algorithm', async () => {
    const unsigned = new UnsecuredJWT({ ...claimsOf(genuine) }).encode();
    await expect(verify(unsigned)).rejects.toThrow();
    const hmac = await new SignJWT({ ...claimsOf(genuine) })
      .setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(genuine).kid! })
      .sign(new TextEncoder().encode('x'.repeat(32)));
    await expect(verify(hmac)).rejects.toBeInstanceOf(errors.JOSEAlgNotAllowed);
  });

  it('fails verification when issued by another server, or once expired', async () => {
    await expect(
      verifyLicence(genuine, keys, { ...expectedFor(d), issuer: 'https://other.example.com' }),
    ).rejects.toThrow(/"iss"/);
    const later = new Date((claimsOf(genuine).exp + 1) * 1000);
    await expect(verifyLicence(genuine, keys, { ...expectedFor(d), now: later })).rejects.toBeInstanceOf(
      errors.JWTExpired,
    );
  });
});
