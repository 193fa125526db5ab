import { and, eq, isNull } from 'drizzle-orm';
import { safetyNoticeMessages, type Acknowledgement } from '@app/contract/safety-notices';
import type { Db } from '#api/db/client.ts';
import { safetyNoticeContacts, safetyNoticeMachines, safetyNotices } from '#api/db/schema/safety-notices.ts';
import { ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { tokenHash } from './safety-notices-service.ts';

/**
 * The clinic's side (decision 084): the token in the mail names one contact of one sent notice and
 * does nothing else. Only its hash is stored; an unknown token is a 404 like any other, and an
 * acknowledgement is written once, with the name typed and the time. The clinic portal (issue
 * "clinics") will acknowledge through `acknowledge` with its signed-in user's name: the seam.
 */
export function createNoticeAcknowledgements({ db, now }: { db: Db; now: () => Date }) {
  async function contactOf(token: string) {
    const [row] = await db
      .select({ contact: safetyNoticeContacts, notice: safetyNotices })
      .from(safetyNoticeContacts)
      .innerJoin(safetyNotices, eq(safetyNotices.id, safetyNoticeContacts.noticeId))
      .where(eq(safetyNoticeContacts.tokenHash, tokenHash(token)))
      .limit(1);
    if (!row) throw new NotFoundError(safetyNoticeMessages.ackNotFound);
    return row;
  }

  async function read(token: string): Promise<Acknowledgement> {
    const { contact, notice } = await contactOf(token);
    const machines = await db
      .select({
        machineNumber: safetyNoticeMachines.machineNumber,
        serialNumber: safetyNoticeMachines.serialNumber,
      })
      .from(safetyNoticeMachines)
      .where(eq(safetyNoticeMachines.contactId, contact.id))
      .orderBy(safetyNoticeMachines.serialNumber);
    return {
      reference: notice.reference,
      title: notice.title,
      description: notice.description,
      kind: notice.kind as Acknowledgement['kind'],
      remedyText: notice.remedyText,
      sentAt: notice.sentAt!.toISOString(),
      machines,
      acknowledgedAt: contact.acknowledgedAt?.toISOString() ?? null,
      acknowledgedBy: contact.acknowledgedBy,
    };
  }

  return {
    read,
    async acknowledge(token: string, name: string): Promise<Acknowledgement> {
      const { contact } = await contactOf(token);
      const [row] = await db
        .update(safetyNoticeContacts)
        .set({ acknowledgedAt: now(), acknowledgedBy: name })
        .where(and(eq(safetyNoticeContacts.id, contact.id), isNull(safetyNoticeContacts.acknowledgedAt)))
        .returning({ id: safetyNoticeContacts.id });
      if (!row) throw new ConflictError(safetyNoticeMessages.ackAlready);
      return read(token);
    },
  };
}
export type NoticeAcknowledgements = ReturnType<typeof createNoticeAcknowledgements>;
