import { createHash } from 'node:crypto';

/** Cohort positions run 0..9999: a percentage with two decimals of resolution. */
const positions = 10_000;

/**
 * A machine's stable place in every staged rollout (decision 051): the first 4 bytes of
 * sha256(device id), mod 10 000. It depends on nothing but the id, so a machine inside the 5 %
 * stage stays inside at 25 % and 100 %, and one outside stays outside until its turn.
 */
export function cohortPosition(deviceId: string): number {
  return createHash('sha256').update(deviceId).digest().readUInt32BE(0) % positions;
}

/** Whether a machine is within a stage of `percent` (1–100). */
export const inCohort = (deviceId: string, percent: number): boolean =>
  cohortPosition(deviceId) < percent * (positions / 100);
