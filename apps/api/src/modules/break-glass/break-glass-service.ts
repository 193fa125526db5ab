import { and, count, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  breakGlassMessages,
  type BreakGlassAccess,
  type BreakGlassGrant,
  type BreakGlassList,
  type BreakGlassListQuery,
} from '@app/contract/break-glass';
import type { Patient } from '@app/contract/device-users';
import type { Permission } from '@app/contract/permissions';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { users } from '#api/db/schema/users.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#api/lib/errors.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import { offsetOf, pageCount } from '#api/lib/pagination.ts';
import { breakGlassMail } from './break-glass-mail.ts';
import { breakGlassAccesses } from '#api/db/schema/break-glass.ts';

type Row = typeof breakGlassAccesses.$inferSelect;

/** Who is told of every use: roles of type admin carrying it (a bound value, never spliced). */
const reviewPermission: Permission = 'security.review';

/** The signed-in admin acting: the ids and email of the request's session. */
export type Actor = { userId: string; email: string };

export type BreakGlassDeps = {
  db: Db;
  now: () => Date;
  mailer: Pick<Mailer, 'sendWithin'>;
  /** How long one declaration shows the patient (BREAK_GLASS_MINUTES). */
  windowMinutes: number;
  /** The review screen, as a full address for the mail. */
  reviewUrl: string;
  /** One patient as the console reads it, unmasked (404 for an unknown id). */
  getPatient: (id: string) => Promise<Patient>;
};

/**
 * Break-glass access (decision 082): the declaration, its uses while it lasts, the reviewers' list
 * and count, and the sign-off. Each declaration is its own use to review, with its own reason and
 * window; the reviewers' mails are written in the transaction that stores it, so neither exists
 * without the other, and go out once it has committed.
 */
export function createBreakGlassService({
  db,
  now,
  mailer,
  windowMinutes,
  reviewUrl,
  getPatient,
}: BreakGlassDeps) {
  const toAccess = (r: Row, at: Date): BreakGlassAccess => ({
    _id: r.id,
    patientId: r.patientId,
    machineNumber: r.machineNumber,
    userEmail: r.userEmail,
    userName: r.userName,
    reason: r.reason,
    declaredAt: r.declaredAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    active: r.expiresAt.getTime() > at.getTime(),
    signedOffAt: r.signedOffAt?.toISOString() ?? null,
    signedOffByEmail: r.signedOffByEmail,
    signedOffByName: r.signedOffByName,
    signOffNote: r.signOffNote,
  });

  /** The name an admin goes by in the review list and the mail: first and last name, else the user name. */
  async function nameOf(actor: Actor): Promise<string> {
    const [row] = await db
      .select({ firstName: users.firstName, lastName: users.lastName, userName: users.userName })
      .from(users)
      .where(eq(users.id, actor.userId))
      .limit(1);
    const full = [row?.firstName, row?.lastName].filter(Boolean).join(' ').trim();
    return full || row?.userName || actor.email;
  }

  async function find(id: string): Promise<Row> {
    const [row] = await db.select().from(breakGlassAccesses).where(eq(breakGlassAccesses.id, id)).limit(1);
    if (!row) throw new NotFoundError(breakGlassMessages.notFound);
    return row;
  }

  /** Refuses, before any password prompt, an unknown use and the admin who broke this glass. */
  async function checkSigner(actor: Actor, id: string): Promise<void> {
    const row = await find(id);
    if (row.userId === actor.userId) throw new ForbiddenError(breakGlassMessages.ownUse);
  }

  /** Every admin whose role carries security.review, as of now. */
  async function reviewers(tx: Db): Promise<string[]> {
    const rows = rowsOf<{ email: string }>(
      await tx.execute(sql`
        select u.email from users u join roles r on r.id = u.role_id
        where r.type = 'admin' and ${reviewPermission}::text = any(r.permissions)
        order by lower(u.email)`),
    );
    return rows.map((r) => String(r.email));
  }

  return {
    /**
     * Declares an emergency on one patient: the patient unmasked and the new use. Each reviewer's
     * mail is in the outbox when this returns; its delivery has started and is never awaited here.
     */
    async declare(actor: Actor, patientId: string, reason: string): Promise<BreakGlassGrant> {
      const patient = await getPatient(patientId);
      const name = await nameOf(actor);
      const declaredAt = now();
      const expiresAt = new Date(declaredAt.getTime() + windowMinutes * 60_000);
      const { row, starts } = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(breakGlassAccesses)
          .values({
            patientId: patient._id,
            machineNumber: patient.machineNumber,
            userId: actor.userId,
            userEmail: actor.email,
            userName: name,
            reason,
            declaredAt,
            expiresAt,
          })
          .returning();
        const starts = [];
        for (const to of await reviewers(tx))
          starts.push(
            await mailer.sendWithin(
              tx,
              breakGlassMail({
                to,
                admin: { name, email: actor.email },
                patientId: patient._id,
                machineNumber: patient.machineNumber,
                reason,
                declaredAt,
                expiresAt,
                link: reviewUrl,
              }),
            ),
          );
        return { row: row!, starts };
      });
      for (const start of starts) start();
      return { patient, access: toAccess(row, declaredAt) };
    },

    /** The patient again, while this admin's latest declaration on them lasts; 403 once it has ended. */
    async use(actor: Actor, patientId: string): Promise<BreakGlassGrant> {
      const patient = await getPatient(patientId);
      const at = now();
      const [row] = await db
        .select()
        .from(breakGlassAccesses)
        .where(
          and(
            eq(breakGlassAccesses.userId, actor.userId),
            eq(breakGlassAccesses.patientId, patient._id),
            gt(breakGlassAccesses.expiresAt, at),
          ),
        )
        .orderBy(desc(breakGlassAccesses.expiresAt))
        .limit(1);
      if (!row) throw new ForbiddenError(breakGlassMessages.notActive);
      return { patient, access: toAccess(row, at) };
    },

    /** Awaiting sign-off (newest declared first) or signed off (newest sign-off first). */
    async list({ state, page, limit }: BreakGlassListQuery): Promise<BreakGlassList> {
      const open = state === 'open';
      const where = open ? isNull(breakGlassAccesses.signedOffAt) : isNotNull(breakGlassAccesses.signedOffAt);
      const order = open
        ? [desc(breakGlassAccesses.declaredAt), desc(breakGlassAccesses.id)]
        : [desc(breakGlassAccesses.signedOffAt), desc(breakGlassAccesses.id)];
      // Declarations are rare (each is an emergency): counting one tab is counting a few rows.
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(breakGlassAccesses)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offsetOf(page, limit)),
        db.select({ n: count() }).from(breakGlassAccesses).where(where),
      ]);
      const at = now();
      const n = total?.n ?? 0;
      return {
        accesses: rows.map((r) => toAccess(r, at)),
        total: n,
        totalPages: pageCount(n, limit),
        page,
        limit,
      };
    },

    /** The bell's figure: uses awaiting sign-off (the partial index of the open tab). */
    async openCount(): Promise<{ open: number }> {
      const [row] = await db
        .select({ n: count() })
        .from(breakGlassAccesses)
        .where(isNull(breakGlassAccesses.signedOffAt));
      return { open: row?.n ?? 0 };
    },

    checkSigner,

    /**
     * Signs a use off with the reviewer's name, the time and a note: once (409 after that). The seam
     * for electronic signatures (issue 38 item 2): these columns are what a signature will sign.
     */
    async signOff(actor: Actor, id: string, note: string): Promise<BreakGlassAccess> {
      await checkSigner(actor, id);
      const at = now();
      const [row] = await db
        .update(breakGlassAccesses)
        .set({
          signedOffAt: at,
          signedOffById: actor.userId,
          signedOffByEmail: actor.email,
          signedOffByName: await nameOf(actor),
          signOffNote: note,
        })
        .where(and(eq(breakGlassAccesses.id, id), isNull(breakGlassAccesses.signedOffAt)))
        .returning();
      if (!row) throw new ConflictError(breakGlassMessages.alreadySignedOff);
      return toAccess(row, at);
    },
  };
}
export type BreakGlassService = ReturnType<typeof createBreakGlassService>;
