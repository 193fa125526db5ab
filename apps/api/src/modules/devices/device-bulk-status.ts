import { desc, sql } from 'drizzle-orm';
import {
  bulkLimit,
  bulkMessages,
  type BulkResult,
  type DeviceBulkFilters,
  type DeviceBulkStatusBody,
} from '@app/contract/bulk-actions';
import { deviceMessages } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { BadRequestError } from '#api/lib/errors.ts';
import type { HistoryActor } from '#api/lib/record-history.ts';
import { deviceFilterWhere } from './device-filters.ts';
import type { SetDeviceStatus } from './device-status.ts';

/** The bulk answer, and the ids changed (for the audit row). */
export type DeviceBulkOutcome = BulkResult & { doneIds: string[] };

/**
 * Device Management's bulk Activate / Deactivate: the devices picked, or every device the list's
 * filters match (resolved here with the list's own filter builder, so "all matching" is exactly
 * what the list shows). Each device goes through the single status change's writer.
 */
export function createDeviceBulkStatus({
  db,
  now,
  offlineMinutes,
  setStatus,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
  setStatus: SetDeviceStatus;
}) {
  async function idsMatching(filters: DeviceBulkFilters): Promise<string[]> {
    const at = now();
    const onlineSince = new Date(at.getTime() - offlineMinutes * 60_000);
    const { where } = deviceFilterWhere(filters, onlineSince, at);
    // One past the limit tells "too many" without counting every match first.
    const rows = await db
      .select({ id: devices.id })
      .from(devices)
      .where(where)
      // The list's default order, so the answer reads like the list.
      .orderBy(desc(devices.createdAt), desc(devices.id))
      .limit(bulkLimit + 1);
    if (rows.length > bulkLimit) {
      const [counted] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(devices)
        .where(where);
      throw new BadRequestError(bulkMessages.tooMany(counted!.n));
    }
    return rows.map((r) => r.id);
  }

  return async function bulkStatus(
    body: DeviceBulkStatusBody,
    actor: HistoryActor | null,
  ): Promise<DeviceBulkOutcome> {
    const ids = body.ids ?? (await idsMatching(body.allMatching!));
    const changed = new Map((await setStatus(ids, body.status, actor)).map((row) => [row.id, row]));
    const results = ids.map((id) => {
      const row = changed.get(id);
      return row
        ? { _id: id, machineNumber: row.machineNumber, outcome: 'done' as const }
        : { _id: id, outcome: 'refused' as const, reason: deviceMessages.notFound };
    });
    return {
      results,
      done: changed.size,
      refused: results.length - changed.size,
      doneIds: [...changed.keys()],
    };
  };
}
