import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { safetyNoticeMessages, type NoticeRemedy, type NoticeSelection } from '@app/contract/safety-notices';
import type { Db } from '#api/db/client.ts';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { commandBatches } from '#api/db/schema/commands.ts';
import { devices } from '#api/db/schema/devices.ts';
import { BadRequestError, NotFoundError } from '#api/lib/errors.ts';
import type { GroupsService } from '../groups/groups-service.ts';

/** A 400 naming the field it is about, in the shape of a validation error (the form puts it under it). */
export const fieldError = (path: string, message: string) =>
  new BadRequestError(message, { errors: [{ path, message }] });

/** Serials compared lower-cased in code point order ("C"), as the contract's serialOrder does. */
const serialIn = (from: string, to: string): SQL => {
  const serial = sql`(lower(${devices.serialNumber}) collate "C")`;
  return sql`(${serial} >= lower(${from}::text) and ${serial} <= lower(${to}::text))`;
};

/**
 * The machines a selection names, as a condition on devices: each kind named must match (serial in
 * any range, version any of those listed, member of the group). A group that no longer exists is a
 * 400 naming selection.groupId. Customers join here with issue "clinics" (the seam).
 */
export async function selectionWhere(groups: GroupsService, selection: NoticeSelection): Promise<SQL> {
  const parts: (SQL | undefined)[] = [];
  if (selection.serialRanges.length)
    parts.push(or(...selection.serialRanges.map((r) => serialIn(r.from, r.to))));
  if (selection.appVersionCodes.length)
    parts.push(inArray(devices.appVersionCode, selection.appVersionCodes));
  if (selection.groupId) {
    const group = await groups.rowOf(selection.groupId).catch((error: unknown) => {
      if (error instanceof NotFoundError)
        throw fieldError('selection.groupId', safetyNoticeMessages.groupUnknown);
      throw error;
    });
    parts.push(inArray(devices.id, groups.machineIdsOf(group)));
  }
  return and(...parts) ?? sql`false`;
}

/**
 * The clinic's contact of a machine today: the customer email of its latest subscription (by the
 * machine, or by its serial for links made before subscriptions named the machine). Customers and
 * their contacts replace this with issue "clinics" (the seam).
 */
export const contactOf = sql<string | null>`(select s.email from subscriptions s
  where s.device_id = "devices"."id"
     or (s.device_id is null and lower(s.machine_serial_number) = lower("devices"."serial_number"))
  order by s.created_at desc limit 1)`;

export type ResolvedRemedy = NoticeRemedy & { label: string; versionCode: number | null };

/** The remedy as the console shows it; a release or batch that does not exist is a 400 naming remedy.id. */
export async function resolveRemedy(db: Db, remedy: NoticeRemedy | null): Promise<ResolvedRemedy | null> {
  if (!remedy) return null;
  if (remedy.kind === 'app-update') {
    const [row] = await db
      .select({ appName: appUpdates.appName, code: appUpdates.versionCode, name: appUpdates.versionName })
      .from(appUpdates)
      .where(eq(appUpdates.id, remedy.id))
      .limit(1);
    if (!row) throw fieldError('remedy.id', safetyNoticeMessages.remedyUnknown);
    return { ...remedy, label: `${row.appName} ${row.name} (${row.code})`, versionCode: row.code };
  }
  const [row] = await db
    .select({ kind: commandBatches.kind, count: commandBatches.machineCount, at: commandBatches.createdAt })
    .from(commandBatches)
    .where(eq(commandBatches.id, remedy.id))
    .limit(1);
  if (!row) throw fieldError('remedy.id', safetyNoticeMessages.remedyUnknown);
  const machines = `${row.count} ${row.count === 1 ? 'machine' : 'machines'}`;
  return { ...remedy, label: `Command ${row.kind} to ${machines}`, versionCode: null };
}
