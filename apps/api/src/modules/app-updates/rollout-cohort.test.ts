import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cohortPosition, inCohort } from './rollout-cohort.ts';

const ids = Array.from({ length: 4000 }, () => randomUUID());

describe('rollout cohort', () => {
  it('gives a machine the same position every time', () => {
    for (const id of ids.slice(0, 50)) expect(cohortPosition(id)).toBe(cohortPosition(id));
  });

  it('keeps a machine that is in at 5 % in at 25 % and 100 %', () => {
    const atFive = ids.filter((id) => inCohort(id, 5));
    expect(atFive.length).toBeGreaterThan(0);
    for (const id of atFive) {
      expect(inCohort(id, 25)).toBe(true);
      expect(inCohort(id, 100)).toBe(true);
    }
  });

  it('takes about the stated share of machines, and all of them at 100 %', () => {
    const share = (percent: number) => ids.filter((id) => inCohort(id, percent)).length / ids.length;
    expect(share(25)).toBeGreaterThan(0.21);
    expect(share(25)).toBeLessThan(0.29);
    expect(share(5)).toBeLessThan(0.08);
    expect(share(100)).toBe(1);
  });
});
