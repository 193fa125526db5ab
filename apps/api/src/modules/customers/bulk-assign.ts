import { desc, sql } from 'drizzle-orm';
import { bulkLimit, bulkMessages, type BulkResult, type DeviceBulkFilters } from '@app/contract/bulk-actions';
import type { BulkAssignBody } from '@app/contract/machine-assignments';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { AppError, BadRequestError } from '#api/lib/errors.ts';
import { deviceFilterWhere } from '../devices/device-filters.ts';
import type { AssignmentsService } from './assignments-service.ts';

/** The bulk answer, and the machines assigned (for the audit row). */
export type BulkAssignOutcome = BulkResult & { doneIds: string[] };

/**
 * Device Management's bulk "Assign to customer" (decision 055's way): the machines picked, or every
 * machine the list's filters match (the list's own filter builder), each through the single
 * assignment (its own transaction and rules), each answered: done, or refused with that rule's words.
 */
export function createBulkAssign({
  db,
  now,
  offlineMinutes,
  assignments,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
  assignments: AssignmentsService;
}) {
  async function idsMatching(filters: DeviceBulkFilters): Promise<string[]> {
    const at = now();
    const { where } = deviceFilterWhere(filters, new Date(at.getTime() - offlineMinutes * 60_000), at);
    const rows = await db
      .select({ id: devices.id })
      .from(devices)
      .where(where)
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

  return async function bulkAssign(body: BulkAssignBody, actorId: string | null): Promise<BulkAssignOutcome> {
    const ids = body.ids ?? (await idsMatching(body.allMatching!));
    const { customerId, reason } = body;
    // One moment for all: "from now" is the same now for every machine of the request.
    const from = body.from ?? now().toISOString();
    const results: BulkResult['results'] = [];
    const doneIds: string[] = [];
    for (const id of ids) {
      try {
        const { device } = await assignments.assign(id, { customerId, from, reason }, actorId);
        results.push({ _id: id, machineNumber: device.machineNumber, outcome: 'done' });
        doneIds.push(id);
      } catch (error) {
        // A rule's refusal (unknown machine, already its holder, a moment before its period) is the
        // row's answer; anything else fails the request.
        if (!(error instanceof AppError)) throw error;
        results.push({ _id: id, outcome: 'refused', reason: error.message });
      }
    }
    return { results, done: doneIds.length, refused: results.length - doneIds.length, doneIds };
  };
}
