import { count, sql } from 'drizzle-orm';
import type { RolloutProgress } from '@app/contract/app-update-rollouts';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';

/**
 * rollout-cohort.ts's position, in SQL: the first 4 bytes of sha256(device id) mod 10 000, then
 * divided by 100, so a machine's bucket is below a stage's percent exactly when it is in the stage.
 */
const bucket = sql<number>`(('x' || substr(encode(sha256(${devices.id}::text::bytea), 'hex'), 1, 8))::bit(32)::bigint % 10000 / 100)::int`;

type Tally = { bucket: number; appName: string | null; versionCode: number | null; machines: number };

/** Machines per cohort bucket and reported app and versionCode: at most 100 rows per release in use. */
export async function cohortTallies(db: Db): Promise<Tally[]> {
  return db
    .select({ bucket, appName: devices.appPackage, versionCode: devices.appVersionCode, machines: count() })
    .from(devices)
    .groupBy(bucket, devices.appPackage, devices.appVersionCode);
}

/**
 * A release's progress from the machines' check-ins (devices.app_package, app_version_code): the
 * machines its stage targets, each counted in exactly one part (issue 35 item 2): reporting this
 * app at this version or a later one, at an earlier one, another app, a version without saying
 * which app, or no version yet. The parts add up to the targeted machines.
 */
export function progressOf(
  tallies: Tally[],
  release: { id: string; appName: string; versionCode: number; rolloutPercent: number },
  waiting?: Map<string, { waitingForWindow: number; waitingForTreatment: number }>,
): RolloutProgress {
  const progress = {
    targeted: 0,
    updated: 0,
    onOldVersion: 0,
    otherApp: 0,
    appUnknown: 0,
    notReported: 0,
    ...(waiting?.get(release.id) ?? { waitingForWindow: 0, waitingForTreatment: 0 }),
  };
  for (const t of tallies) {
    if (t.bucket >= release.rolloutPercent) continue;
    progress.targeted += t.machines;
    const part =
      t.versionCode === null
        ? 'notReported'
        : t.appName === null
          ? 'appUnknown'
          : t.appName !== release.appName
            ? 'otherApp'
            : t.versionCode >= release.versionCode
              ? 'updated'
              : 'onOldVersion';
    progress[part] += t.machines;
  }
  return progress;
}
