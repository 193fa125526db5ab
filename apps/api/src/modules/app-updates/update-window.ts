import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { devices } from '#api/db/schema/devices.ts';
import { windowBlocks, type WaitingReason } from '../commands/window-hold.ts';
import type { Offer } from './rollout-offer.ts';

/**
 * App updates that respect maintenance windows (issue 37 item 4): such a release reaches a machine
 * only inside its window and while its heartbeat says no treatment runs; a rollback never waits
 * (the release it leaves was withdrawn). The machine's row is read only for such an offer, and the
 * wait is written on it only when it changes, so the rollout can say how many wait.
 */
export function createUpdateWindow(db: Db, now: () => Date) {
  return {
    /** Why this machine must wait for the offer now, or null (and the wait noted or cleared). */
    async waitFor(offer: Offer, deviceId: string | null): Promise<WaitingReason | null> {
      if (!deviceId || !offer.release.respectsWindow || !offer.updateAvailable || offer.rollback) return null;
      const [row] = await db
        .select({
          window: devices.maintenanceWindow,
          busySince: devices.busySince,
          waitingFor: devices.updateWaitingReleaseId,
          reason: devices.updateWaitingReason,
        })
        .from(devices)
        .where(eq(devices.id, deviceId))
        .limit(1);
      if (!row) return null;
      const reason = windowBlocks(row.window, row.busySince !== null, now());
      const releaseId = reason ? offer.release.id : null;
      if (row.waitingFor !== releaseId || row.reason !== reason)
        await db
          .update(devices)
          .set({ updateWaitingReleaseId: releaseId, updateWaitingReason: reason })
          .where(eq(devices.id, deviceId));
      return reason;
    },
  };
}
export type UpdateWindow = ReturnType<typeof createUpdateWindow>;

/**
 * Per release, the machines still below its version whose last check was told to wait, by reason:
 * a range of the partial index devices_update_waiting_idx (only waiting machines are in it).
 */
export async function waitingTallies(db: Db) {
  const rows = await db
    .select({
      releaseId: devices.updateWaitingReleaseId,
      reason: devices.updateWaitingReason,
      machines: sql<number>`count(*)::int`,
    })
    .from(devices)
    .innerJoin(appUpdates, eq(appUpdates.id, devices.updateWaitingReleaseId))
    .where(and(isNotNull(devices.updateWaitingReleaseId), lt(devices.appVersionCode, appUpdates.versionCode)))
    .groupBy(devices.updateWaitingReleaseId, devices.updateWaitingReason);
  const byRelease = new Map<string, { waitingForWindow: number; waitingForTreatment: number }>();
  for (const r of rows) {
    const held = byRelease.get(r.releaseId!) ?? { waitingForWindow: 0, waitingForTreatment: 0 };
    if (r.reason === 'treatment') held.waitingForTreatment += r.machines;
    else held.waitingForWindow += r.machines;
    byRelease.set(r.releaseId!, held);
  }
  return byRelease;
}
