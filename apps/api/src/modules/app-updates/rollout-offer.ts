import type { appUpdates } from '#api/db/schema/app-updates.ts';
import { inCohort } from './rollout-cohort.ts';

type Release = typeof appUpdates.$inferSelect;

/** Who asks: an enrolled machine names its id (its cohort); an anonymous caller has none. */
export type Caller = { deviceId: string | null; versionCode?: number; minimumVersion: number | null };

export type Offer = {
  release: Release;
  updateAvailable: boolean | null;
  forceUpdate: boolean;
  rollback: boolean;
};

/**
 * Whether a release is offered to this caller now (decision 051): only while it rolls out, and
 * only inside its stage. A caller without a device id has no cohort, so it gets a release only
 * once its stage is 100 %: the anonymous check sees what every machine may see.
 */
function offered(release: Release, deviceId: string | null): boolean {
  // A new release waiting for a second admin reaches nobody yet.
  if (release.rolloutState !== 'active' || release.approvalPending === 'release') return false;
  return release.rolloutPercent === 100 || (deviceId !== null && inCohort(deviceId, release.rolloutPercent));
}

/**
 * The update check's answer, from an app's releases (newest versionCode first). A machine is
 * offered the newest release it may get; one running a withdrawn release is sent back to the
 * newest earlier one it may get; one below the minimum supported version must update.
 */
export function chooseOffer(releases: Release[], caller: Caller): Offer | null {
  const { deviceId, versionCode: installed, minimumVersion } = caller;
  const target = releases.find((r) => offered(r, deviceId));
  if (installed === undefined)
    return target
      ? { release: target, updateAvailable: null, forceUpdate: target.updateType === 2, rollback: false }
      : null;
  const running = releases.find((r) => r.versionCode === installed);
  if (running?.rolloutState === 'withdrawn') {
    if (!target) return null;
    return {
      release: target,
      updateAvailable: true,
      forceUpdate: true,
      rollback: target.versionCode < installed,
    };
  }
  if (!target || target.versionCode <= installed) {
    // Nothing newer for this machine: it hears about what it runs (a halted or paused release
    // it already took stays), or else the newest it may get.
    const current = running ?? target;
    return current ? { release: current, updateAvailable: false, forceUpdate: false, rollback: false } : null;
  }
  // A Force release skipped on the way to the target still forces; one withdrawn does not.
  const skippedForce = releases.some(
    (r) =>
      r.versionCode > installed &&
      r.versionCode <= target.versionCode &&
      r.updateType === 2 &&
      r.rolloutState !== 'withdrawn',
  );
  const belowMinimum = minimumVersion !== null && installed < minimumVersion;
  return {
    release: target,
    updateAvailable: true,
    forceUpdate: skippedForce || belowMinimum,
    rollback: false,
  };
}
