import { randomBytes } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, type JSONWebKeySet } from 'jose';
import { isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licencePaths } from '@app/contract/licences';
import { verifyLicence } from '@app/fleet-simulator/licence';
import { licenceSigningKeys } from '#api/db/schema/licences.ts';
import { createSecretBox } from '#api/lib/secret-box.ts';
import { deviceInject, enrolDevice, type EnrolledDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';
import { createLicenceKeys, licenceKeysChannel } from './licence-keys.ts';

/*
 * The licences' signing keys (decision 068, "The token"): made once however many instances start,
 * stored encrypted, rotated without breaking a machine, and noticed by every instance.
 */

const day = 86_400_000;
let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t.close());

const jwks = async (): Promise<JSONWebKeySet> =>
  (await t.app.inject({ method: 'GET', url: licencePaths.jwks })).json();
const kids = async () => (await jwks()).keys.map((k) => k.kid);
const tokenOf = async (d: EnrolledDevice) =>
  (await deviceInject(t, d.credential, { method: 'GET', url: licencePaths.appLicence })).json().data
    .token as string;
/** Another instance's keys on the same database (its own memory), as a second API server holds them. */
const otherInstance = (over: { serverSecret?: string } = {}) =>
  createLicenceKeys({
    db: t.database.db,
    serverSecret: over.serverSecret ?? t.config.jwtSecret,
    now: () => t.clock.now,
    offlineDays: t.config.licences.offlineDays,
  });
const unretired = () =>
  t.database.db.select().from(licenceSigningKeys).where(isNull(licenceSigningKeys.retiredAt));

describe('the signing keys', () => {
  it('are made once, however many instances need one at the same moment', async () => {
    await t.database.db.delete(licenceSigningKeys);
    const instances = Array.from({ length: 6 }, () => otherInstance());
    const published = await Promise.all(instances.map((k) => k.jwks()));
    expect(await unretired()).toHaveLength(1);
    const [only] = await unretired();
    for (const set of published) expect(set.keys.map((k) => k.kid)).toEqual([only!.kid]);
  });

  it('keep the private key encrypted with a key derived from JWT_SECRET, bound to its kid', async () => {
    await kids();
    const [row] = await unretired();
    expect(row!.publicJwk).not.toHaveProperty('d');
    const box = createSecretBox(t.config.jwtSecret, 'licence-signing-key-aes-256-gcm');
    const privateJwk = JSON.parse(box.open(row!.privateKeyEncrypted, row!.kid)!.toString());
    expect(privateJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: row!.publicJwk.x });
    expect(row!.privateKeyEncrypted).not.toContain(privateJwk.d);
    expect(box.open(row!.privateKeyEncrypted, 'another-kid')).toBeNull();
    expect(
      createSecretBox(randomBytes(32).toString('hex'), 'licence-signing-key-aes-256-gcm').open(
        row!.privateKeyEncrypted,
        row!.kid,
      ),
    ).toBeNull();
  });

  it('refuse to sign with a key this JWT_SECRET cannot read, until a rotation makes a new one', async () => {
    const d = await enrolDevice(t);
    const before = await kids();
    const changedSecret = otherInstance({ serverSecret: randomBytes(32).toString('hex') });
    await expect(changedSecret.sign({ sub: d.serialNumber })).rejects.toThrow(/licence:rotate-key/);
    const { kid } = await changedSecret.rotate();
    const token = await changedSecret.sign({ sub: d.serialNumber });
    expect(decodeProtectedHeader(token).kid).toBe(kid);
    expect((await changedSecret.jwks()).keys.map((k) => k.kid)).toEqual([kid, ...before]);
    // The app (the right JWT_SECRET) still signs with the key it holds, published as retired...
    const held = decodeProtectedHeader(await tokenOf(d)).kid;
    expect(before).toContain(held);
    expect(await kids()).toContain(held);
    // ...until the operator rotates with the right secret.
    const { kid: readable } = await t.app.licenceKeys.rotate();
    expect(decodeProtectedHeader(await tokenOf(d)).kid).toBe(readable);
  });

  it('are noticed by every instance when another rotates them', async () => {
    const d = await enrolDevice(t);
    const first = decodeProtectedHeader(await tokenOf(d)).kid;
    const elsewhere = otherInstance();
    const { kid, retired } = await elsewhere.rotate();
    expect(retired).toContain(first);
    expect(kid).not.toBe(first);
    // This app has not re-read its keys for a minute: only the database's notice tells it.
    await expect.poll(async () => decodeProtectedHeader(await tokenOf(d)).kid, { timeout: 5000 }).toBe(kid);
    expect(await kids()).toEqual(expect.arrayContaining([kid, first]));
  });

  it('are noticed through the feed by an instance listening to it', async () => {
    const listening = otherInstance();
    const feed = await t.database.listen(licenceKeysChannel, listening.feed);
    try {
      const before = (await listening.jwks()).keys[0]!.kid;
      const { kid } = await otherInstance().rotate();
      expect(kid).not.toBe(before);
      await expect.poll(async () => (await listening.jwks()).keys[0]!.kid, { timeout: 5000 }).toBe(kid);
    } finally {
      await feed.close();
    }
  });
});

describe('a rotation', () => {
  it('keeps licences signed before it valid, signs new ones with the new key, and drops the old key once they have expired', async () => {
    // Past the publication of every key the tests above retired: only the signing key is left.
    t.clock.advance(9 * day);
    expect(await kids()).toHaveLength(1);
    const d = await enrolDevice(t);
    const old = await tokenOf(d);
    const oldKid = decodeProtectedHeader(old).kid!;
    const oldExp = (JSON.parse(Buffer.from(old.split('.')[1]!, 'base64url').toString()) as { exp: number })
      .exp;

    const { kid: newKid, retired } = await t.app.licenceKeys.rotate();
    expect(retired).toEqual([oldKid]);
    expect(await kids()).toEqual([newKid, oldKid]);
    const expected = { issuer: t.config.publicUrl, serial: d.serialNumber, now: t.clock.now };
    // The machine that holds the old licence still verifies it with what the server publishes now.
    await expect(verifyLicence(old, await jwks(), expected)).resolves.toMatchObject({ sub: d.serialNumber });
    const fresh = await tokenOf(d);
    expect(decodeProtectedHeader(fresh).kid).toBe(newKid);
    await expect(verifyLicence(fresh, await jwks(), expected)).resolves.toMatchObject({
      sub: d.serialNumber,
    });

    // Published while any licence it signed may be valid (the offline validity, plus a day's margin)...
    t.clock.advance(7 * day + 23 * 3_600_000);
    expect(await kids()).toEqual([newKid, oldKid]);
    // ...then no longer: even read before its expiry, the old licence finds no key.
    t.clock.advance(2 * 3_600_000);
    expect(await kids()).toEqual([newKid]);
    await expect(
      jwtVerify(old, createLocalJWKSet(await jwks()), { currentDate: new Date((oldExp - 60) * 1000) }),
    ).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
    // The next rotation deletes what is no longer published.
    const next = await t.app.licenceKeys.rotate();
    expect(next.deleted).toContain(oldKid);
    expect(next.retired).toEqual([newKid]);
  });
});
