import { describe, expect, it } from 'vitest';
import { rolloutProgressText, type RolloutProgress } from './app-update-rollouts.ts';

const progress = (over: Partial<RolloutProgress>): RolloutProgress => ({
  targeted: 10,
  updated: 4,
  onOldVersion: 6,
  otherApp: 0,
  appUnknown: 0,
  notReported: 0,
  waitingForWindow: 0,
  waitingForTreatment: 0,
  ...over,
});

describe('a rollout’s progress in words', () => {
  it('says how many of the machines on an older version wait for their window or a treatment', () => {
    expect(rolloutProgressText(progress({}))).toBe('4 of 10 updated, 6 on an older version');
    expect(rolloutProgressText(progress({ waitingForWindow: 3, waitingForTreatment: 1 }))).toBe(
      '4 of 10 updated, 6 on an older version (3 waiting for window, 1 waiting for a treatment to end)',
    );
    expect(rolloutProgressText(progress({ waitingForTreatment: 2 }))).toBe(
      '4 of 10 updated, 6 on an older version (2 waiting for a treatment to end)',
    );
  });
});
