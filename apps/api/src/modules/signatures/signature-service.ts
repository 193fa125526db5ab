import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Signature, SignatureInput, SignatureMeaning } from '@app/contract/signatures';
import type { Db } from '#api/db/client.ts';
import { signatures } from '#api/db/schema/signatures.ts';
import { users } from '#api/db/schema/users.ts';
import { BadRequestError } from '#api/lib/errors.ts';
import { requireAuth, type AuthContext } from '#api/lib/request-context.ts';
import type { MfaService } from '../auth/mfa-service.ts';
import { contentHashOf } from './canonical-json.ts';

/*
 * Electronic signatures with meaning (issue 38 item 2, decision 083). A signed change calls `sign`
 * inside its own transaction, after it has read (and locked) what it changes: the password (and the
 * code when the signer's two-step sign-in is on) is checked as a step-up checks it, under the same
 * per-user and per-address attempt limits, so signing cannot be used to guess a password; the row
 * is written in that transaction, so a change is never stored without its signature nor a
 * signature without its change. A valid signature is the request's step-up (lib/step-up.ts).
 */

/** What is signed; the record's own id goes in `recordId`. Add a type here when a record is signed. */
export type SignedRecordType =
  | 'app-update-rollout'
  | 'command-batch'
  | 'subscription-extension'
  | 'erasure-decision'
  | 'field-safety-notice';

/** The signed-in admin who signs, and the address the attempt is counted against. */
export type Signer = Pick<AuthContext, 'userId' | 'email' | 'sessionId'> & { ip: string };

/**
 * The signer behind this request. Marks the request as a signing, so its audit row carries the
 * event `signature.success` or `signature.failure` (lib/security-events.ts): call it before
 * anything can fail.
 */
export function signerOf(request: FastifyRequest): Signer {
  const { userId, email, sessionId } = requireAuth(request);
  request.signing = true;
  return { userId, email, sessionId, ip: request.ip };
}

export type SignRequest = {
  recordType: SignedRecordType;
  recordId: string;
  /**
   * What the signer sees and agrees to, as plain data: its canonical JSON is hashed
   * (canonical-json.ts). Put the record's id and the fields the signature vouches for in it.
   */
  content: unknown;
  input: SignatureInput;
};

type Row = typeof signatures.$inferSelect;

const toSignature = (row: Row): Signature => ({
  id: row.id,
  signerName: row.signerName,
  signerEmail: row.signerEmail,
  meaning: row.meaning as SignatureMeaning,
  signedAt: row.signedAt.toISOString(),
  contentHash: row.contentHash,
});

/** The two-step checks name `password` or `code`; in a signed body they sit under `signature`. */
function underSignature(err: unknown): unknown {
  if (!(err instanceof BadRequestError)) return err;
  const errors = (err.data as { errors?: { path: string; message: string }[] } | null)?.errors;
  if (!errors) return err;
  return new BadRequestError(err.message, {
    errors: errors.map((e) => ({ ...e, path: `signature.${e.path}` })),
  });
}

export function createSignatureService({
  db,
  mfa,
  now,
}: {
  db: Db;
  mfa: Pick<MfaService, 'confirmPresenceIn'>;
  now: () => Date;
}) {
  /** The printed name (§11.50(a)(1)): first and last name, else the user name, else the email. */
  async function printedName(tx: Db, signer: Signer): Promise<string> {
    const [row] = await tx
      .select({ firstName: users.firstName, lastName: users.lastName, userName: users.userName })
      .from(users)
      .where(eq(users.id, signer.userId))
      .limit(1);
    const full = [row?.firstName, row?.lastName].filter(Boolean).join(' ').trim();
    return full || row?.userName || signer.email;
  }

  return {
    /**
     * Checks the signer's password (and code), then stores the signature in `tx`, the signed
     * change's transaction. A wrong or missing one is a 400 naming `signature.password` or
     * `signature.code`; too many tries a 429. Use only `tx` in the transaction around it.
     */
    async sign(tx: Db, signer: Signer, { recordType, recordId, content, input }: SignRequest) {
      try {
        await mfa.confirmPresenceIn(tx, signer.userId, input, signer.ip);
      } catch (err) {
        throw underSignature(err);
      }
      const [row] = await tx
        .insert(signatures)
        .values({
          recordType,
          recordId,
          signerId: signer.userId,
          signerName: await printedName(tx, signer),
          signerEmail: signer.email,
          meaning: input.meaning,
          contentHash: contentHashOf(content),
          signedAt: now(),
          sessionId: signer.sessionId,
        })
        .returning();
      return toSignature(row!);
    },

    /** Each record's signatures, oldest first (every id is a key, with [] when unsigned). */
    async listFor(
      recordType: SignedRecordType,
      recordIds: readonly string[],
      on: Db = db,
    ): Promise<Map<string, Signature[]>> {
      const byRecord = new Map<string, Signature[]>(recordIds.map((id) => [id, []]));
      if (recordIds.length === 0) return byRecord;
      const rows = await on
        .select()
        .from(signatures)
        .where(
          and(eq(signatures.recordType, recordType), inArray(signatures.recordId, [...new Set(recordIds)])),
        )
        .orderBy(asc(signatures.signedAt), asc(signatures.id));
      for (const row of rows) byRecord.get(row.recordId)?.push(toSignature(row));
      return byRecord;
    },
  };
}
export type SignatureService = ReturnType<typeof createSignatureService>;
