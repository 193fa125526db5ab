import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, desc, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, type JWTPayload } from 'jose';
import type { Db } from '#api/db/client.ts';
import { licenceSigningKeys } from '#api/db/schema/licences.ts';
import { createSecretBox } from '#api/lib/secret-box.ts';

/** The database channel that announces a change to the signing keys (migration 0036). */
export const licenceKeysChannel = 'licence_keys_changed';

/**
 * A retired key stays in the JWKS this long after the offline validity: an instance that missed the
 * rotation's notice signs with it for at most `refreshMs` more, and machines' clocks differ.
 */
const publishMarginMs = 86_400_000;

export type PublicJwk = { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string; alg: 'EdDSA'; use: 'sig' };

type Loaded = {
  at: number;
  signer: { kid: string; key: KeyObject };
  jwks: { keys: PublicJwk[] };
};

const publicJwk = (kid: string, stored: Record<string, unknown>): PublicJwk => ({
  kty: 'OKP',
  crv: 'Ed25519',
  x: stored.x as string,
  kid,
  alg: 'EdDSA',
  use: 'sig',
});

/**
 * The keys licences are signed with (Ed25519, decision 068 "The token"). The first is made on first
 * need; `rotate` makes a new one that signs from then on and retires the others, which stay in the
 * JWKS until every licence they signed has expired (offline validity + a day), so a rotation never
 * breaks a machine. Private keys are stored encrypted with a key derived from JWT_SECRET
 * (lib/secret-box.ts; the kid is the additional data).
 *
 * Kept in memory per instance, so signing reads no row: re-read when the database announces a change
 * (a rotation by any instance or the operator's command) and at least every `refreshMs`, which also
 * drops a retired key from the JWKS once its time is up. Making the first key takes an advisory
 * lock, so instances started together end with one key.
 */
export function createLicenceKeys({
  db,
  serverSecret,
  now,
  offlineDays,
  log,
  refreshMs = 60_000,
}: {
  db: Db;
  serverSecret: string;
  now: () => Date;
  offlineDays: number;
  log?: FastifyBaseLogger;
  refreshMs?: number;
}) {
  const box = createSecretBox(serverSecret, 'licence-signing-key-aes-256-gcm');
  const publishedFor = offlineDays * 86_400_000 + publishMarginMs;
  let loaded: Loaded | null = null;
  let stale = false;
  let loading: Promise<Loaded> | null = null;

  /** Serialises key changes across instances, in the caller's transaction. */
  const lock = (tx: Db) => tx.execute(sql`select pg_advisory_xact_lock(hashtext('licence_signing_keys'))`);

  async function newKeyRow() {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const pub = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(pub);
    const secret = Buffer.from(JSON.stringify(await exportJWK(privateKey)));
    return {
      kid,
      publicJwk: { kty: pub.kty, crv: pub.crv, x: pub.x },
      privateKeyEncrypted: box.seal(secret, kid),
      createdAt: now(),
    };
  }

  const signingRow = (tx: Db) =>
    tx
      .select()
      .from(licenceSigningKeys)
      .where(isNull(licenceSigningKeys.retiredAt))
      .orderBy(desc(licenceSigningKeys.createdAt))
      .limit(1);

  /** The key that signs, made when there is none (under the lock: one key, however many instances start). */
  async function ensureSigningKey() {
    const [existing] = await signingRow(db);
    if (existing) return;
    const row = await newKeyRow();
    await db.transaction(async (tx) => {
      await lock(tx);
      const [made] = await signingRow(tx);
      if (!made) await tx.insert(licenceSigningKeys).values(row);
    });
  }

  async function load(): Promise<Loaded> {
    await ensureSigningKey();
    const at = now();
    const rows = await db
      .select()
      .from(licenceSigningKeys)
      .where(
        or(
          isNull(licenceSigningKeys.retiredAt),
          gt(licenceSigningKeys.retiredAt, new Date(at.getTime() - publishedFor)),
        ),
      )
      // The signing key first, then the retired ones, most recently retired first.
      .orderBy(sql`${licenceSigningKeys.retiredAt} desc nulls first`, desc(licenceSigningKeys.createdAt));
    const signing = rows[0];
    // Only when every key was deleted by hand after the check above: the next call makes one.
    if (!signing || signing.retiredAt) throw new Error('No licence signing key: it was deleted meanwhile');
    const secret = box.open(signing.privateKeyEncrypted, signing.kid);
    if (!secret)
      throw new Error(
        `The licence signing key ${signing.kid} cannot be read with this JWT_SECRET (was it changed?): ` +
          'run npm run licence:rotate-key to make a new one; licences signed before stay valid.',
      );
    const key = createPrivateKey({
      key: JSON.parse(secret.toString()) as JWK & { kty: string },
      format: 'jwk',
    });
    return {
      at: at.getTime(),
      signer: { kid: signing.kid, key },
      jwks: { keys: rows.map((r) => publicJwk(r.kid, r.publicJwk)) },
    };
  }

  /**
   * The keys in memory, read again when announced as changed (a rotation) or older than
   * `refreshMs`. A signature does not wait for the minute's re-read (`inBackground`): the held key is
   * still published, so it keeps signing while the read runs beside and no machine's licence is held
   * up by it; the JWKS, asked for rarely, waits and is exact.
   */
  async function current(inBackground = false): Promise<Loaded> {
    if (loaded && !stale) {
      if (Math.abs(now().getTime() - loaded.at) < refreshMs) return loaded;
      if (inBackground) {
        void reload();
        return loaded;
      }
    }
    return reload();
  }

  /** One read of the keys at a time. */
  function reload(): Promise<Loaded> {
    loading ??= (async () => {
      stale = false;
      try {
        loaded = await load();
        return loaded;
      } catch (error) {
        // A failed re-read keeps the keys this instance has (they are still published): the next call tries again.
        stale = true;
        if (!loaded) throw error;
        log?.warn({ err: error }, 'licence keys: re-reading failed, still signing with the key held');
        return loaded;
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  return {
    feed: {
      onPayload: () => {
        stale = true;
      },
      onLive: () => {
        stale = true;
      },
    },

    /** Signs a licence's claims with the current key; the header names it (`kid`). */
    async sign(claims: JWTPayload): Promise<string> {
      const { signer } = await current(true);
      return signCompact(claims, signer);
    },

    /** The public keys machines verify with: the signing one first, then retired ones still valid. */
    jwks: async () => (await current()).jwks,

    /**
     * A new key signs from now on; every other is retired (published until its licences have
     * expired), and keys retired longer ago than that are deleted. Every instance hears of it.
     */
    async rotate(): Promise<{ kid: string; retired: string[]; deleted: string[] }> {
      const row = await newKeyRow();
      const at = row.createdAt;
      const result = await db.transaction(async (tx) => {
        await lock(tx);
        await tx.insert(licenceSigningKeys).values(row);
        const retired = await tx
          .update(licenceSigningKeys)
          .set({ retiredAt: at })
          .where(and(isNull(licenceSigningKeys.retiredAt), ne(licenceSigningKeys.kid, row.kid)))
          .returning({ kid: licenceSigningKeys.kid });
        const deleted = await tx
          .delete(licenceSigningKeys)
          .where(
            and(
              isNotNull(licenceSigningKeys.retiredAt),
              lt(licenceSigningKeys.retiredAt, new Date(at.getTime() - publishedFor)),
            ),
          )
          .returning({ kid: licenceSigningKeys.kid });
        return { kid: row.kid, retired: retired.map((r) => r.kid), deleted: deleted.map((r) => r.kid) };
      });
      stale = true;
      return result;
    },
  };
}
export type LicenceKeys = ReturnType<typeof createLicenceKeys>;

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A compact JWS (RFC 7515) of the claims, signed EdDSA with the Ed25519 key: what jose's SignJWT
 * makes, signed here with node:crypto's synchronous sign (about 50 µs). jose signs through WebCrypto,
 * whose jobs queue on libuv's thread pool: at 1,000 licences a second that queue put 100 ms and more
 * on one answer in twenty (bench:licence). Machines verify with any JOSE library (jose in the
 * simulator and the tests).
 */
function signCompact(claims: JWTPayload, signer: Loaded['signer']): string {
  const input = `${base64url({ alg: 'EdDSA', typ: 'JWT', kid: signer.kid })}.${base64url(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), signer.key).toString('base64url')}`;
}
