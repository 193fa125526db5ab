import { eq } from 'drizzle-orm';
import type { NoticeSelection, SafetyNotice } from '@app/contract/safety-notices';
import type { Signature } from '@app/contract/signatures';
import type { Db } from '#api/db/client.ts';
import type { safetyNotices } from '#api/db/schema/safety-notices.ts';
import { users } from '#api/db/schema/users.ts';
import type { GroupsService } from '../groups/groups-service.ts';
import { resolveRemedy } from './notice-selection.ts';
import { noticeCounts } from './notice-status.ts';

export type NoticeRow = typeof safetyNotices.$inferSelect;
/** The signed-in admin acting. */
export type Actor = { userId: string; email: string };

/** The name an admin goes by on the notice: first and last name, else the user name, else the email. */
export async function nameOf(db: Db, actor: Actor): Promise<string> {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, userName: users.userName })
    .from(users)
    .where(eq(users.id, actor.userId))
    .limit(1);
  const full = [row?.firstName, row?.lastName].filter(Boolean).join(' ').trim();
  return full || row?.userName || actor.email;
}

/**
 * A notice as the console reads it: the group named as it is now, the remedy with its label (kept
 * as "No longer exists" once the release or batch is gone), the counts and the signature once sent.
 */
export async function toNotice(
  db: Db,
  groups: GroupsService,
  signatureOf: (id: string) => Promise<Signature | null>,
  row: NoticeRow,
): Promise<SafetyNotice> {
  const selection = row.selection as NoticeSelection;
  const group = selection.groupId ? await groups.rowOf(selection.groupId).catch(() => null) : null;
  const stored = row.remedyKind && row.remedyId ? { kind: row.remedyKind, id: row.remedyId } : null;
  const remedy = stored
    ? await resolveRemedy(db, stored as Parameters<typeof resolveRemedy>[1]).catch(() => ({
        ...(stored as NonNullable<SafetyNotice['remedy']>),
        label: 'No longer exists',
        versionCode: row.remedyVersionCode,
      }))
    : null;
  const sent = row.state === 'sent';
  return {
    _id: row.id,
    reference: row.reference,
    title: row.title,
    description: row.description,
    kind: row.kind as SafetyNotice['kind'],
    remedyText: row.remedyText,
    selection: { ...selection, groupName: group?.name ?? null },
    remedy,
    state: row.state as SafetyNotice['state'],
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    sentAt: row.sentAt?.toISOString() ?? null,
    sentBy: row.sentBy,
    counts: sent ? await noticeCounts(db, row) : null,
    signature: sent ? await signatureOf(row.id) : null,
  };
}
