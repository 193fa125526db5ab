import { count, sql } from 'drizzle-orm';
import type { RolloutProgress } from '@app/contract/app-update-rollouts';
import type { Db } from '#api/db/client.ts';
import { devices } from '#api/db/schema/devices.ts';

/**
 * rollout-cohort.ts's position, in SQL: the first 4 bytes of sha256(device id) mod 10 000, then
 * divided by 100, so a machine's bucket is below a stage's percent exactly when it is in the stage.
 */
const bucket = sql<number>`(('x' || substr(encode(sha256(${devices.id}::text::bytea), 'hex'), 1, 8))::bit(32)::bigint % 10000 / 100)::int`;

type Tally = { bucket: number; versionCode: number | null; machines: number };

/** Machines per cohort bucket and reported versionCode: at most 100 rows per version in use. */
export async function cohortTallies(db: Db): Promise<Tally[]> {
  return db
    .select({ bucket, versionCode: devices.appVersionCode, machines: count() })
    .from(devices)
    .groupBy(bucket, devices.appVersionCode);
}

/**
 * A release's progress from the machines' check-ins (devices.app_version_code): the machines its
 * stage targets, those of them that report it or a later version, and those still reporting an
 * earlier one (a targeted machine that never reported a version is neither).
 */
export function progressOf(
  tallies: Tally[],
  release: { versionCode: number; rolloutPercent: number },
): RolloutProgress {
  const progress = { targeted: 0, updated: 0, onOldVersion: 0 };
  for (const t of tallies) {
    if (t.bucket >= release.rolloutPercent) continue;
    progress.targeted += t.machines;
    if (t.versionCode === null) continue;
    if (t.versionCode >= release.versionCode) progress.updated += t.machines;
    else progress.onOldVersion += t.machines;
  }
  return progress;
}
