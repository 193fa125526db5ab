import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  safetyNoticeMessages,
  type NoticeMachinesQuery,
  type NoticePreview,
  type NoticeSelection,
  type SafetyNotice,
  type SafetyNoticeInput,
} from '@app/contract/safety-notices';
import { acknowledgementPagePath, type NoticeMachineFilter } from '@app/contract/safety-notices-texts';
import type { Signature } from '@app/contract/signatures';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { devices } from '#api/db/schema/devices.ts';
import { safetyNoticeContacts, safetyNoticeMachines, safetyNotices } from '#api/db/schema/safety-notices.ts';
import { ConflictError, NotFoundError } from '#api/lib/errors.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import { offsetOf, pageCount, pgErrorCode } from '#api/lib/pagination.ts';
import type { GroupsService } from '../groups/groups-service.ts';
import { noticeMail } from './notice-mail.ts';
import { contactOf, fieldError, resolveRemedy, selectionWhere } from './notice-selection.ts';
import { allNoticeMachines, noticeMachines } from './notice-status.ts';
import { nameOf, toNotice, type Actor, type NoticeRow } from './notice-view.ts';

type Row = NoticeRow;
/**
 * Signs the sending inside its transaction (issue 38 item 2, decision 083): given the transaction
 * and what is signed (the notice's texts, its remedy and the frozen machines with their versions).
 */
export type SignSending = (tx: Db, content: Record<string, unknown>) => Promise<unknown>;

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export type SafetyNoticesDeps = {
  db: Db;
  now: () => Date;
  mailer: Pick<Mailer, 'sendWithin'>;
  groups: GroupsService;
  /** The console's public address: the acknowledgement links start with it. */
  publicUrl: string;
  /** A sent notice's signature (the signatures module's listFor). */
  signatureOf: (id: string) => Promise<Signature | null>;
};

/**
 * Field safety notices (decision 084): drafts, the preview of what a selection matches, sending
 * (the affected set and the contacts frozen, each contact mailed in the same transaction) and the
 * status view. The public acknowledgement is notice-acknowledgement.ts.
 */
export function createSafetyNoticesService({
  db,
  now,
  mailer,
  groups,
  publicUrl,
  signatureOf,
}: SafetyNoticesDeps) {
  async function rowOf(id: string): Promise<Row> {
    const [row] = await db.select().from(safetyNotices).where(eq(safetyNotices.id, id)).limit(1);
    if (!row) throw new NotFoundError(safetyNoticeMessages.notFound);
    return row;
  }

  const view = (row: Row) => toNotice(db, groups, signatureOf, row);

  /** Checks what the body names (group, remedy) and answers the columns to write. */
  async function columnsOf(body: SafetyNoticeInput) {
    await selectionWhere(groups, body.selection);
    const remedy = await resolveRemedy(db, body.remedy);
    return {
      reference: body.reference,
      title: body.title,
      description: body.description,
      kind: body.kind,
      remedyText: body.remedyText,
      selection: body.selection,
      remedyKind: remedy?.kind ?? null,
      remedyId: remedy?.id ?? null,
    };
  }

  const referenceTaken = (error: unknown): never => {
    if (pgErrorCode(error) === '23505') throw fieldError('reference', safetyNoticeMessages.referenceTaken);
    throw error;
  };

  async function draftOf(id: string): Promise<Row> {
    const row = await rowOf(id);
    if (row.state !== 'draft') throw new ConflictError(safetyNoticeMessages.notDraft);
    return row;
  }

  async function sentOf(id: string): Promise<Row> {
    const row = await rowOf(id);
    if (row.state !== 'sent') throw new ConflictError(safetyNoticeMessages.notSent);
    return row;
  }

  /** The machines the selection matches now, with each one's contact. */
  const matching = (where: SQL) =>
    db
      .select({
        id: devices.id,
        machineNumber: devices.machineNumber,
        serialNumber: devices.serialNumber,
        appVersionCode: devices.appVersionCode,
        appVersionName: devices.appVersionName,
        contact: contactOf,
      })
      .from(devices)
      .where(where)
      .orderBy(devices.serialNumber, devices.id);

  return {
    get: async (id: string) => view(await rowOf(id)),

    async list(page: number, limit: number) {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(safetyNotices)
          .orderBy(desc(safetyNotices.createdAt), desc(safetyNotices.id))
          .limit(limit)
          .offset(offsetOf(page, limit)),
        db.select({ n: count() }).from(safetyNotices),
      ]);
      const n = total?.n ?? 0;
      const notices = [];
      for (const row of rows) notices.push(await view(row));
      return { notices, total: n, totalPages: pageCount(n, limit), page, limit };
    },

    async create(actor: Actor, body: SafetyNoticeInput): Promise<SafetyNotice> {
      const columns = await columnsOf(body);
      const [row] = await db
        .insert(safetyNotices)
        .values({
          ...columns,
          createdAt: now(),
          createdById: actor.userId,
          createdBy: await nameOf(db, actor),
        })
        .returning()
        .catch(referenceTaken);
      return view(row!);
    },

    async update(id: string, body: SafetyNoticeInput): Promise<SafetyNotice> {
      await draftOf(id);
      const columns = await columnsOf(body);
      const [row] = await db
        .update(safetyNotices)
        .set(columns)
        .where(and(eq(safetyNotices.id, id), eq(safetyNotices.state, 'draft')))
        .returning()
        .catch(referenceTaken);
      if (!row) throw new ConflictError(safetyNoticeMessages.notDraft);
      return view(row);
    },

    /** What the draft's selection matches now: a page of machines, and the contacts they would mail. */
    async preview(id: string, page: number, limit: number): Promise<NoticePreview> {
      const row = await rowOf(id);
      const selection = row.selection as NoticeSelection;
      const where = await selectionWhere(groups, selection);
      const [machines, [totals]] = await Promise.all([
        matching(where).limit(limit).offset(offsetOf(page, limit)),
        db
          .execute(
            sql`select count(*)::int as total, count(distinct lower(contact))::int as contacts,
              (count(*) filter (where contact is null))::int as "noContact"
            from (select ${contactOf} as contact from ${devices} where ${where}) m`,
          )
          .then((res) => rowsOf<{ total: number; contacts: number; noContact: number }>(res)),
      ]);
      const total = Number(totals?.total ?? 0);
      return {
        machines: machines.map(({ id: deviceId, ...m }) => ({ deviceId, ...m })),
        total,
        totalPages: pageCount(total, limit),
        page,
        limit,
        contacts: Number(totals?.contacts ?? 0),
        noContact: Number(totals?.noContact ?? 0),
      };
    },

    /**
     * Sends a draft: the machines its selection matches now are frozen with their serial, number and
     * app version; each distinct contact gets one token and one mail naming their machines. All in
     * one transaction with the state change (a notice is never sent twice, nor half).
     */
    async send(actor: Actor, id: string, sign: SignSending): Promise<SafetyNotice> {
      const draft = await rowOf(id);
      if (draft.state !== 'draft') throw new ConflictError(safetyNoticeMessages.alreadySent);
      const selection = draft.selection as NoticeSelection;
      const remedy = await resolveRemedy(
        db,
        draft.remedyKind && draft.remedyId
          ? { kind: draft.remedyKind as 'app-update', id: draft.remedyId }
          : null,
      );
      const machines = await matching(await selectionWhere(groups, selection));
      if (machines.length === 0) throw fieldError('selection', safetyNoticeMessages.noMachines);
      const sentBy = await nameOf(db, actor);
      const at = now();
      const byContact = new Map<string, { email: string; machines: typeof machines }>();
      for (const m of machines) {
        if (!m.contact) continue;
        const key = m.contact.toLowerCase();
        const entry = byContact.get(key) ?? { email: m.contact, machines: [] };
        entry.machines.push(m);
        byContact.set(key, entry);
      }
      const { row, starts } = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(safetyNotices)
          .set({
            state: 'sent',
            sentAt: at,
            sentById: actor.userId,
            sentBy,
            remedyVersionCode: remedy?.versionCode ?? null,
          })
          .where(and(eq(safetyNotices.id, id), eq(safetyNotices.state, 'draft')))
          .returning();
        if (!row) throw new ConflictError(safetyNoticeMessages.alreadySent);
        const contactIds = new Map<string, string>();
        const starts: (() => unknown)[] = [];
        for (const [key, contact] of byContact) {
          const token = randomBytes(32).toString('base64url');
          const [stored] = await tx
            .insert(safetyNoticeContacts)
            .values({ noticeId: id, email: contact.email, tokenHash: tokenHash(token), notifiedAt: at })
            .returning({ id: safetyNoticeContacts.id });
          contactIds.set(key, stored!.id);
          starts.push(
            await mailer.sendWithin(
              tx,
              noticeMail({
                to: contact.email,
                reference: row.reference,
                title: row.title,
                kind: row.kind as SafetyNotice['kind'],
                description: row.description,
                remedyText: row.remedyText,
                machines: contact.machines,
                link: `${publicUrl}${acknowledgementPagePath(token)}`,
              }),
            ),
          );
        }
        const frozen = machines.map((m) => ({
          noticeId: id,
          deviceId: m.id,
          machineNumber: m.machineNumber,
          serialNumber: m.serialNumber,
          appVersionCode: m.appVersionCode,
          appVersionName: m.appVersionName,
          contactId: m.contact ? (contactIds.get(m.contact.toLowerCase()) ?? null) : null,
        }));
        for (let i = 0; i < frozen.length; i += 1000)
          await tx.insert(safetyNoticeMachines).values(frozen.slice(i, i + 1000));
        await sign(tx, {
          id,
          reference: row.reference,
          title: row.title,
          kind: row.kind,
          description: row.description,
          remedyText: row.remedyText,
          remedy: remedy ? { kind: remedy.kind, id: remedy.id } : null,
          machines: frozen.map((m) => [m.serialNumber, m.appVersionCode]),
        });
        return { row, starts };
      });
      for (const start of starts) start();
      return view(row);
    },

    async machines(id: string, query: NoticeMachinesQuery) {
      return noticeMachines(db, await sentOf(id), query);
    },

    /** The sent notice and its machines in chunks, for the regulator's CSV. */
    async exportOf(id: string, status: NoticeMachineFilter | undefined) {
      const row = await sentOf(id);
      return { reference: row.reference, chunks: allNoticeMachines(db, row, status) };
    },
  };
}
export type SafetyNoticesService = ReturnType<typeof createSafetyNoticesService>;
