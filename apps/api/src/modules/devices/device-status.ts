import { inArray } from 'drizzle-orm';
import type { DeviceStatus } from '@app/contract/devices';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';
import { chunksOf } from '#api/lib/chunks.ts';
import { recordActor, type HistoryActor } from '#api/lib/record-history.ts';
import { deviceColumns, type DeviceListRow } from './device-rows.ts';

/**
 * The one way a device's status changes: the list's select (one device) and the bulk action (many)
 * both write it here, so their rules cannot drift apart. Answers the rows it changed; an id with no
 * device is simply absent, and the caller says so. The admin's change is in each device's history
 * (decision 081).
 */
export function createDeviceStatusWriter({ db, now }: { db: Db; now: () => Date }) {
  return async function setStatus(
    ids: readonly string[],
    status: DeviceStatus,
    actor: HistoryActor | null,
  ): Promise<DeviceListRow[]> {
    const runs = chunksOf(ids);
    if (runs.length <= 1 && !actor) return write(db, ids, status);
    // All or nothing: a failure half way leaves no selection half changed.
    return db.transaction(async (tx) => {
      await recordActor(tx as unknown as Db, actor);
      const rows: DeviceListRow[] = [];
      for (const run of runs) rows.push(...(await write(tx as unknown as Db, run, status)));
      return rows;
    });
  };

  function write(on: Db, ids: readonly string[], status: DeviceStatus) {
    return on
      .update(devices)
      .set({ status, updatedAt: now() })
      .where(inArray(devices.id, [...ids]))
      .returning(deviceColumns);
  }
}
export type SetDeviceStatus = ReturnType<typeof createDeviceStatusWriter>;
