import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignatureInput } from '@app/contract/signatures';
import type { Db } from '#api/db/client.ts';
import { signatures } from '#api/db/schema/signatures.ts';
import { users } from '#api/db/schema/users.ts';
import { createAttemptLimiter } from '#api/lib/attempt-limiter.ts';
import { AppError } from '#api/lib/errors.ts';
import { createMemoryThrottleStore } from '#api/lib/throttle-store.ts';
import { createTokenSigner } from '#api/lib/tokens.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { createMfaCrypto } from '../auth/mfa-crypto.ts';
import { createMfaService } from '../auth/mfa-service.ts';
import { codeAt, enrol, nextStep, password as enrolledPassword } from '../auth/mfa-test-helpers.ts';
import { canonicalJson, contentHashOf } from './canonical-json.ts';
import { createSignatureService, type Signer } from './signature-service.ts';

/*
 * The signing primitive (decision 083) on a real database, with the real two-step checks the app
 * builds (the same code, on the test app's database and secret).
 */
let t: TestApp;
let service: ReturnType<typeof createSignatureService>;
let admin: Signer;

beforeAll(async () => {
  t = await createTestApp();
  const now = () => t.clock.now;
  const limiter = (name: string, max: number) =>
    createAttemptLimiter({
      name,
      max,
      windowMs: 15 * 60_000,
      now: () => now().getTime(),
      store: createMemoryThrottleStore(),
    });
  const mfa = createMfaService({
    db: t.database.db,
    crypto: createMfaCrypto(t.config.jwtSecret),
    signer: createTokenSigner(t.config.jwtSecret, now),
    limiters: { byUser: limiter('mfa-user', 5), byIp: limiter('mfa-ip', 30) },
    requireMfa: false,
    now,
  });
  service = createSignatureService({ db: t.database.db, mfa, now });
  const [row] = await t.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, testAdmin.email));
  await t.database.db
    .update(users)
    .set({ firstName: 'Ada', lastName: 'Signer' })
    .where(eq(users.id, row!.id));
  admin = { userId: row!.id, email: testAdmin.email, sessionId: randomUUID(), ip: '10.9.0.1' };
});
afterAll(() => t.close());

const db = () => t.database.db;
const signIn = (signer: Signer, recordId: string, content: unknown, input: SignatureInput) =>
  db().transaction((tx) =>
    service.sign(tx as unknown as Db, signer, { recordType: 'app-update-rollout', recordId, content, input }),
  );
const fieldsOf = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const { statusCode, data } = err as AppError;
  return { statusCode, errors: (data as { errors: { path: string; message: string }[] }).errors };
};

describe('sign', () => {
  it('stores the printed name, email, meaning, time and the hash of the content, with the record', async () => {
    const recordId = randomUUID();
    const content = { id: recordId, percent: 100, version: '2.1.0' };
    const signature = await signIn(admin, recordId, content, {
      meaning: 'approval',
      password: testAdmin.password,
    });
    expect(signature).toEqual({
      id: expect.any(String),
      signerName: 'Ada Signer',
      signerEmail: testAdmin.email,
      meaning: 'approval',
      signedAt: t.clock.now.toISOString(),
      contentHash: contentHashOf(content),
    });
    expect(signature.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const [row] = await db().select().from(signatures).where(eq(signatures.id, signature.id));
    expect(row).toMatchObject({
      recordType: 'app-update-rollout',
      recordId,
      signerId: admin.userId,
      sessionId: admin.sessionId,
    });
  });

  it('refuses a wrong password with a 400 naming signature.password, and keeps nothing', async () => {
    const recordId = randomUUID();
    const refused = await fieldsOf(
      signIn(
        { ...admin, ip: '10.9.0.2' },
        recordId,
        { id: recordId },
        { meaning: 'review', password: 'Wrong-Passw0rd!' },
      ),
    );
    expect(refused).toEqual({
      statusCode: 400,
      errors: [{ path: 'signature.password', message: 'Password is incorrect' }],
    });
    expect((await service.listFor('app-update-rollout', [recordId])).get(recordId)).toEqual([]);
  });

  it('asks for the code when the signer has two-step sign-in, and takes a current one', async () => {
    const email = `signer-mfa-${randomUUID().slice(0, 8)}@example.test`;
    const { secret } = await enrol(t, email);
    const [row] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
    const signer: Signer = { userId: row!.id, email, sessionId: randomUUID(), ip: '10.9.0.3' };
    const recordId = randomUUID();
    const input = { meaning: 'responsibility', password: enrolledPassword } as const;
    expect(await fieldsOf(signIn(signer, recordId, { id: recordId }, input))).toEqual({
      statusCode: 400,
      errors: [{ path: 'signature.code', message: 'Code is required' }],
    });
    expect(await fieldsOf(signIn(signer, recordId, { id: recordId }, { ...input, code: '000000' }))).toEqual({
      statusCode: 400,
      errors: [{ path: 'signature.code', message: 'Invalid or expired code' }],
    });
    nextStep(t);
    const signed = await signIn(signer, recordId, { id: recordId }, { ...input, code: codeAt(t, secret) });
    expect(signed).toMatchObject({
      signerEmail: email,
      meaning: 'responsibility',
      signerName: email.split('@')[0],
    });
  });

  it('refuses the sixth wrong password in a row with 429, even before looking at it', async () => {
    const signer = { ...admin, ip: '10.9.0.4' };
    const recordId = randomUUID();
    // The wrong password above is forgotten once its window has passed.
    t.clock.advance(15 * 60_000 + 1000);
    for (let i = 0; i < 5; i++)
      expect(
        (await fieldsOf(signIn(signer, recordId, {}, { meaning: 'approval', password: `Guess-${i}` })))
          .statusCode,
      ).toBe(400);
    const blocked = await signIn(
      signer,
      recordId,
      {},
      { meaning: 'approval', password: testAdmin.password },
    ).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(blocked?.statusCode).toBe(429);
    t.clock.advance(15 * 60_000 + 1000);
  });
});

describe('the content hash', () => {
  it('is the SHA-256 of the canonical JSON: key order does not matter, every value does', () => {
    const a = { id: 'r1', stage: { percent: 100, from: 50 }, at: new Date('2026-11-29T08:00:00Z') };
    const b = { at: '2026-11-29T08:00:00.000Z', stage: { from: 50, percent: 100 }, id: 'r1' };
    expect(canonicalJson(a)).toBe(
      '{"at":"2026-11-29T08:00:00.000Z","id":"r1","stage":{"from":50,"percent":100}}',
    );
    expect(contentHashOf(a)).toBe(contentHashOf(b));
    expect(contentHashOf({ ...b, id: 'r2' })).not.toBe(contentHashOf(b));
    expect(contentHashOf({ ...b, stage: { from: 50, percent: 99 } })).not.toBe(contentHashOf(b));
  });

  it('binds the signature to its record: hashing the record again gives the stored hash, another record does not', async () => {
    const recordId = randomUUID();
    const record = { id: recordId, customer: 'Clinic A', paidThrough: '2027-01-31' };
    const signed = await signIn(admin, recordId, record, {
      meaning: 'authorship',
      password: testAdmin.password,
    });
    const [stored] = (await service.listFor('app-update-rollout', [recordId])).get(recordId)!;
    expect(stored!.contentHash).toBe(signed.contentHash);
    expect(contentHashOf({ ...record })).toBe(stored!.contentHash);
    expect(contentHashOf({ ...record, paidThrough: '2027-02-28' })).not.toBe(stored!.contentHash);
  });
});

describe('listFor', () => {
  it("answers each record's signatures oldest first, [] for an unsigned one, and nothing of another type", async () => {
    const [first, second, unsigned] = [randomUUID(), randomUUID(), randomUUID()];
    const one = await signIn(
      admin,
      first,
      { id: first },
      { meaning: 'review', password: testAdmin.password },
    );
    t.clock.advance(1000);
    const two = await signIn(
      admin,
      first,
      { id: first },
      { meaning: 'approval', password: testAdmin.password },
    );
    const three = await signIn(
      admin,
      second,
      { id: second },
      { meaning: 'approval', password: testAdmin.password },
    );
    await db().transaction((tx) =>
      service.sign(tx as unknown as Db, admin, {
        recordType: 'command-batch',
        recordId: second,
        content: {},
        input: { meaning: 'approval', password: testAdmin.password },
      }),
    );
    const listed = await service.listFor('app-update-rollout', [first, second, unsigned]);
    expect(Object.fromEntries(listed)).toEqual({ [first]: [one, two], [second]: [three], [unsigned]: [] });
    expect((await service.listFor('app-update-rollout', [])).size).toBe(0);
  });
});

describe('the signatures table', () => {
  it('is append-only: a signature cannot be changed or removed', async () => {
    const recordId = randomUUID();
    await signIn(admin, recordId, { id: recordId }, { meaning: 'review', password: testAdmin.password });
    // Drizzle wraps the database's error; its cause is the trigger's.
    const refusal = (query: ReturnType<typeof sql>) =>
      db()
        .execute(query)
        .then(
          () => 'allowed',
          (e: { cause?: { message?: string } }) => e.cause?.message ?? String(e),
        );
    expect(
      await refusal(sql`update signatures set meaning = 'approval' where record_id = ${recordId}`),
    ).toMatch(/append-only: UPDATE on signatures/);
    expect(await refusal(sql`delete from signatures where record_id = ${recordId}`)).toMatch(
      /append-only: DELETE on signatures/,
    );
  });
});
