import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { LegalHold, LegalHoldList, LegalHoldListQuery } from '@app/contract/retention';
import { retentionMessages } from '@app/contract/retention';
import type { LegalHoldSubjectKind } from '@app/contract/retention-texts';
import type { Db } from '#api/db/client.ts';
import { devices, patients } from '#api/db/schema/devices.ts';
import { legalHolds } from '#api/db/schema/retention.ts';
import { BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';

type Actor = { userId: string; email: string };
type Row = typeof legalHolds.$inferSelect;

const fieldError = (path: string, message: string) =>
  new BadRequestError(message, { errors: [{ path, message }] });

const toHold = (r: Row): LegalHold => ({
  _id: r.id,
  subjectKind: r.subjectKind,
  subjectId: r.subjectId,
  subjectLabel: r.subjectLabel,
  reason: r.reason,
  placedAt: r.placedAt.toISOString(),
  placedByEmail: r.placedByEmail,
  liftedAt: r.liftedAt?.toISOString() ?? null,
  liftedByEmail: r.liftedByEmail,
  liftReason: r.liftReason,
});

/**
 * Legal holds (decision 086): placed on a patient or a machine with a reason, lifted with a reason,
 * never removed. While one is in force the retention run removes nothing of its subject. The label
 * names the machine, never the patient (their name is health data).
 */
export function createLegalHolds({ db, now }: { db: Db; now: () => Date }) {
  /** The subject as the console shows it; a 400 naming subjectId when there is no such record. */
  async function labelOf(kind: LegalHoldSubjectKind, id: string): Promise<string> {
    if (kind === 'device') {
      const [d] = await db
        .select({ n: devices.machineNumber })
        .from(devices)
        .where(eq(devices.id, id))
        .limit(1);
      if (d) return `Machine ${d.n}`;
    } else {
      const [p] = await db
        .select({ n: devices.machineNumber })
        .from(patients)
        .innerJoin(devices, eq(devices.id, patients.deviceId))
        .where(eq(patients.id, id))
        .limit(1);
      if (p) return `Patient on ${p.n}`;
    }
    throw fieldError('subjectId', retentionMessages.subjectNotFound(kind));
  }

  async function find(id: string): Promise<Row> {
    const [row] = await db.select().from(legalHolds).where(eq(legalHolds.id, id)).limit(1);
    if (!row) throw new NotFoundError(retentionMessages.notFound);
    return row;
  }

  return {
    async place(
      actor: Actor,
      body: { subjectKind: LegalHoldSubjectKind; subjectId: string; reason: string },
    ) {
      const subjectLabel = await labelOf(body.subjectKind, body.subjectId);
      const rows = await db
        .insert(legalHolds)
        .values({
          ...body,
          subjectLabel,
          placedAt: now(),
          placedById: actor.userId,
          placedByEmail: actor.email,
        })
        .onConflictDoNothing()
        .returning();
      if (!rows[0]) throw fieldError('subjectId', retentionMessages.alreadyHeld);
      return toHold(rows[0]);
    },

    /** Lifts a hold in force, once: a second lift is a 409 (the UPDATE requires it in force). */
    async lift(actor: Actor, id: string, reason: string): Promise<LegalHold> {
      await find(id);
      const [row] = await db
        .update(legalHolds)
        .set({ liftedAt: now(), liftedById: actor.userId, liftedByEmail: actor.email, liftReason: reason })
        .where(and(eq(legalHolds.id, id), isNull(legalHolds.liftedAt)))
        .returning();
      if (!row) throw new ConflictError(retentionMessages.alreadyLifted);
      return toHold(row);
    },

    /** Newest first; `state` keeps those in force or those lifted. */
    async list({ page, limit, state }: LegalHoldListQuery): Promise<LegalHoldList> {
      const where: SQL | undefined =
        state === 'active'
          ? isNull(legalHolds.liftedAt)
          : state === 'lifted'
            ? isNotNull(legalHolds.liftedAt)
            : undefined;
      const rows = await db
        .select()
        .from(legalHolds)
        .where(where)
        .orderBy(desc(legalHolds.placedAt), desc(legalHolds.id))
        .limit(limit)
        .offset((page - 1) * limit);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(legalHolds)
        .where(where);
      const total = count?.n ?? 0;
      return {
        holds: rows.map(toHold),
        total,
        totalPages: Math.max(1, Math.ceil(total / limit)),
        page,
        limit,
      };
    },
  };
}
export type LegalHolds = ReturnType<typeof createLegalHolds>;
