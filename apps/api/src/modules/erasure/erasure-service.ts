import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import {
  erasureMessages,
  partsErasedBy,
  type ErasureDecisionBody,
  type ErasureDecisionInput,
  type ErasureList,
  type ErasureListQuery,
  type ErasureOutcomeItem,
  type ErasureRequest,
} from '@app/contract/erasure';
import { erasureParts, type ErasurePart, type ErasureState } from '@app/contract/erasure-texts';
import type { Signature, SignatureInput } from '@app/contract/signatures';
import type { Signer } from '../signatures/signature-service.ts';
import type { Db } from '#api/db/client.ts';
import { devices, patients } from '#api/db/schema/devices.ts';
import { erasureRequests } from '#api/db/schema/erasure.ts';
import { legalHolds } from '#api/db/schema/retention.ts';
import { users } from '#api/db/schema/users.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';
import { carryOutErasure } from './erasure-carry-out.ts';

type Row = typeof erasureRequests.$inferSelect;

/** The admin acting, as the history names them (their session and request too). */
export type Actor = HistoryActor;

export type ErasureNew = {
  patientId: string;
  channel: Row['channel'];
  receivedOn: string;
  note: string | null;
};

/**
 * The signing seam (issue 38 item 2): signs `content` for this request in `tx`, the deciding
 * transaction, or throws (400 naming signature.password or signature.code). The module wires it to
 * the signature service; `signaturesOf` reads what a record's answers show.
 */
export type ErasureSigning = {
  sign: (
    tx: Db,
    signer: Signer,
    recordId: string,
    content: unknown,
    input: SignatureInput,
  ) => Promise<Signature>;
  signaturesOf: (ids: readonly string[]) => Promise<Map<string, Signature[]>>;
};

const fieldError = (path: string, message: string) =>
  new BadRequestError(message, { errors: [{ path, message }] });

const stateOf: Record<ErasureDecisionBody['decision'], ErasureState> = {
  erase: 'erased',
  'erase-in-part': 'erased-in-part',
  refuse: 'refused',
};

/**
 * Erasure requests (issue 38 item 4, decision 085): recording one, the lists, and the decision,
 * which is signed and carried out in one transaction, so a decision is never stored without its
 * signature and its erasure, nor an erasure without the record of it.
 */
export function createErasureService({
  db,
  now,
  signing,
}: {
  db: Db;
  now: () => Date;
  signing: ErasureSigning;
}) {
  async function nameOf(on: Db, userId: string, email: string): Promise<string> {
    const [row] = await on
      .select({ firstName: users.firstName, lastName: users.lastName, userName: users.userName })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    const full = [row?.firstName, row?.lastName].filter(Boolean).join(' ').trim();
    return full || row?.userName || email;
  }

  async function toRequests(rows: Row[]): Promise<ErasureRequest[]> {
    const ids = rows.map((r) => r.id);
    const patientIds = rows.flatMap((r) => (r.patientId ? [r.patientId] : []));
    const [signed, names] = await Promise.all([
      signing.signaturesOf(ids),
      patientIds.length
        ? db
            .select({ id: patients.id, name: patients.patientname })
            .from(patients)
            .where(or(...patientIds.map((id) => eq(patients.id, id))))
        : Promise.resolve([]),
    ]);
    const nameById = new Map(names.map((n) => [n.id, n.name]));
    return rows.map((r) => ({
      _id: r.id,
      state: r.state,
      patientId: r.patientId,
      patientLabel: `Patient ${r.patientUserId ?? '?'} on ${r.machineNumber ?? 'a removed machine'}`,
      patientName: r.patientId ? (nameById.get(r.patientId) ?? null) : null,
      machineNumber: r.machineNumber,
      channel: r.channel as ErasureRequest['channel'],
      receivedOn: r.receivedOn,
      note: r.note,
      requestedAt: r.requestedAt.toISOString(),
      requestedByName: r.requestedByName,
      requestedByEmail: r.requestedByEmail,
      decidedAt: r.decidedAt?.toISOString() ?? null,
      decidedByName: r.decidedByName,
      decidedByEmail: r.decidedByEmail,
      partsErased: r.partsErased as ErasurePart[],
      partsKept: r.partsKept as ErasurePart[],
      legalBasis: r.legalBasis as ErasureRequest['legalBasis'],
      basisNote: r.basisNote,
      outcome: r.outcome,
      signatures: signed.get(r.id) ?? [],
    }));
  }

  async function get(id: string): Promise<ErasureRequest> {
    const [row] = await db.select().from(erasureRequests).where(eq(erasureRequests.id, id)).limit(1);
    if (!row) throw new NotFoundError(erasureMessages.notFound);
    return (await toRequests([row]))[0]!;
  }

  /** A hold in force on the patient, or on their machine (which keeps all its patients' records). */
  async function held(tx: Db, patientId: string, deviceId: string): Promise<boolean> {
    const n = await tx.$count(
      legalHolds,
      and(
        sql`${legalHolds.liftedAt} is null`,
        or(
          and(eq(legalHolds.subjectKind, 'patient'), eq(legalHolds.subjectId, patientId)),
          and(eq(legalHolds.subjectKind, 'device'), eq(legalHolds.subjectId, deviceId)),
        ),
      ),
    );
    return n > 0;
  }

  return {
    get,

    async record(actor: Actor, input: ErasureNew): Promise<ErasureRequest> {
      const today = now().toISOString().slice(0, 10);
      if (input.receivedOn > today) throw fieldError('receivedOn', erasureMessages.receivedOnInvalid);
      const [patient] = await db
        .select({ id: patients.id, userId: patients.userId, machineNumber: devices.machineNumber })
        .from(patients)
        .innerJoin(devices, eq(devices.id, patients.deviceId))
        .where(eq(patients.id, input.patientId))
        .limit(1);
      if (!patient) throw fieldError('patientId', erasureMessages.patientNotFound);
      const [erased] = await db
        .select({ id: erasureRequests.id })
        .from(erasureRequests)
        .where(and(eq(erasureRequests.patientId, patient.id), eq(erasureRequests.state, 'erased')))
        .limit(1);
      if (erased) throw new ConflictError(erasureMessages.alreadyErased);
      const [row] = await db
        .insert(erasureRequests)
        .values({
          patientId: patient.id,
          patientUserId: patient.userId,
          machineNumber: patient.machineNumber,
          channel: input.channel,
          receivedOn: input.receivedOn,
          note: input.note,
          requestedAt: now(),
          requestedById: actor.userId,
          requestedByEmail: actor.email,
          requestedByName: await nameOf(db, actor.userId, actor.email),
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new ConflictError(erasureMessages.alreadyOpen);
      return (await toRequests([row]))[0]!;
    },

    async list({ state, page, limit }: ErasureListQuery): Promise<ErasureList> {
      const where = eq(erasureRequests.state, state);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(erasureRequests)
          .where(where)
          .orderBy(desc(erasureRequests.requestedAt), desc(erasureRequests.id))
          .limit(limit)
          .offset(offsetOf(page, limit)),
        db.select({ n: count() }).from(erasureRequests).where(where),
      ]);
      const n = total?.n ?? 0;
      return { requests: await toRequests(rows), total: n, totalPages: pageCount(n, limit), page, limit };
    },

    /**
     * Decides once (409 after), signed, and carries the decision out. Erasing is refused (409) while
     * a legal hold is in force: the admin refuses with the legal basis 'legal-hold' instead.
     */
    async decide(
      actor: Actor,
      signer: Signer,
      id: string,
      body: ErasureDecisionInput,
    ): Promise<ErasureRequest> {
      const decided = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // The patient row's own history names the admin and why (decision 081).
        await recordActor(tx, { ...actor, reason: `Erasure request ${id}` });
        const [row] = await tx
          .select()
          .from(erasureRequests)
          .where(eq(erasureRequests.id, id))
          .for('update')
          .limit(1);
        if (!row) throw new NotFoundError(erasureMessages.notFound);
        if (row.state !== 'open') throw new ConflictError(erasureMessages.alreadyDecided);
        const erased = partsErasedBy(body);
        const kept = erasureParts.filter((p) => !erased.includes(p));
        const [patient] = row.patientId
          ? await tx.select().from(patients).where(eq(patients.id, row.patientId)).for('update').limit(1)
          : [];
        if (erased.length && patient && (await held(tx, patient.id, patient.deviceId)))
          throw new ConflictError(erasureMessages.legalHold);
        const legalBasis = body.decision === 'erase' ? null : (body.legalBasis ?? null);
        const basisNote = body.decision === 'erase' ? null : (body.basisNote ?? null);
        // What the signer vouches for: the decision, not the data it erases.
        await signing.sign(
          tx,
          signer,
          id,
          {
            erasureRequest: id,
            patient: row.patientUserId,
            machineNumber: row.machineNumber,
            decision: body.decision,
            partsErased: erased,
            partsKept: kept,
            legalBasis,
            basisNote,
          },
          body.signature,
        );
        const outcome: ErasureOutcomeItem[] =
          erased.length && patient ? await carryOutErasure(tx, patient, erased) : [];
        const [updated] = await tx
          .update(erasureRequests)
          .set({
            state: stateOf[body.decision],
            decidedAt: now(),
            decidedById: actor.userId,
            decidedByEmail: actor.email,
            decidedByName: await nameOf(tx, actor.userId, actor.email),
            partsErased: erased,
            partsKept: kept,
            legalBasis,
            basisNote,
            outcome,
          })
          .where(and(eq(erasureRequests.id, id), eq(erasureRequests.state, 'open')))
          .returning();
        if (!updated) throw new ConflictError(erasureMessages.alreadyDecided);
        return updated;
      });
      return (await toRequests([decided]))[0]!;
    },
  };
}
export type ErasureService = ReturnType<typeof createErasureService>;
