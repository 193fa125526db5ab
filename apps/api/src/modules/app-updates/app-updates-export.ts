import { desc } from 'drizzle-orm';
import {
  rolloutProgressText,
  rolloutStateLabels,
  type RolloutState,
} from '@app/contract/app-update-rollouts';
import {
  appUpdateExportColumns,
  updateTypeLabel,
  type AppUpdateExportQuery,
} from '@app/contract/app-updates';
import type { Db } from '#api/db/client.ts';
import { appUpdates } from '#api/db/schema/app-updates.ts';
import { afterCursor, cursorAt, keysetCsv } from '#api/lib/csv-export.ts';
import { chosenColumns, type Cell } from '#api/lib/export-columns.ts';
import { appUpdateDto } from './app-update-dto.ts';
import { cohortTallies, progressOf } from './rollout-progress.ts';
import { waitingTallies } from './update-window.ts';
import { devicesRunning, runningKey } from './running-devices.ts';

type Release = ReturnType<typeof appUpdateDto> & {
  deviceCount: number;
  progress: ReturnType<typeof progressOf>;
};
/** Each column keyed as the list's; the rollout cell says in words what the list's bar shows. */
const cells: Record<keyof typeof appUpdateExportColumns, (u: Release) => Cell> = {
  appName: (u) => u.appName,
  versionCode: (u) => u.versionCode,
  versionName: (u) => u.versionName,
  updateType: (u) => updateTypeLabel(u.updateType),
  remark: (u) => u.remark,
  deviceCount: (u) => u.deviceCount,
  rolloutPercent: (u) =>
    `${rolloutStateLabels[u.rolloutState as RolloutState]} · ${u.rolloutPercent} %${u.approvalPending ? ' (awaiting approval)' : ''}: ${rolloutProgressText(u.progress)}`,
  createdAt: (u) => u.createdAt,
  apkUrl: (u) => u.apkUrl,
};

/**
 * App Update as CSV (issue 17): every release, newest first as the list, in the columns asked for.
 */
export function createAppUpdatesExport({ db, publicUrl }: { db: Db; publicUrl: string }) {
  return (query: AppUpdateExportQuery, counted: (rows: number) => void) => {
    // The machines' cohorts are read once per file: a release's progress is a sum over them.
    let tallies: Awaited<ReturnType<typeof cohortTallies>> | null = null;
    let waiting: Awaited<ReturnType<typeof waitingTallies>> | undefined;
    return keysetCsv(
      chosenColumns(appUpdateExportColumns, cells, query.columns),
      async (after, size) => {
        const rows = await db
          .select({ row: appUpdates, cursorAt: cursorAt(appUpdates.createdAt) })
          .from(appUpdates)
          .where(afterCursor(appUpdates.createdAt, appUpdates.id, after))
          .orderBy(desc(appUpdates.createdAt), desc(appUpdates.id))
          .limit(size);
        const running = await devicesRunning(
          db,
          rows.map((r) => r.row),
        );
        tallies ??= rows.length ? await cohortTallies(db) : [];
        waiting ??= rows.length ? await waitingTallies(db) : undefined;
        const [found, held] = [tallies, waiting];
        return rows.map(({ row, cursorAt }) => ({
          ...appUpdateDto(row, publicUrl),
          id: row.id,
          cursorAt,
          deviceCount: running.get(runningKey(row)) ?? 0,
          progress: progressOf(found, row, held),
        }));
      },
      counted,
    );
  };
}
export type AppUpdatesExport = ReturnType<typeof createAppUpdatesExport>;
