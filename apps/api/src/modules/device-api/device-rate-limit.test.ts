import { describe, expect, it } from 'vitest';
import { createDeviceRateLimit } from './device-rate-limit.ts';

describe('the per-machine token bucket', () => {
  it('lets a burst of a tenth of the minute (at least 20) through, then refills at the rate', () => {
    let now = 0;
    const limit = createDeviceRateLimit({ perMinute: 600, now: () => now });
    for (let i = 0; i < 60; i++) expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(1);
    expect(limit.take('b')).toBe(0);
    now += 100; // 600 a minute: one every 100 ms
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(1);
    expect(createDeviceRateLimit({ perMinute: 60, now: () => now }).take('x')).toBe(0);
  });

  it('says how long to wait, and does not count refused calls', () => {
    let now = 0;
    const limit = createDeviceRateLimit({ perMinute: 6, burst: 1, now: () => now });
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(10);
    now += 5000;
    expect(limit.take('a')).toBe(5);
    now += 5000;
    expect(limit.take('a')).toBe(0);
  });

  it('takes back a call given back, never past the burst', () => {
    const now = 0;
    const limit = createDeviceRateLimit({ perMinute: 6, burst: 2, now: () => now });
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(10);
    limit.give('a');
    expect(limit.take('a')).toBe(0);
    limit.give('a');
    limit.give('a');
    limit.give('a');
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(10);
  });

  it('keeps memory bounded: idle buckets are dropped, and never more than maxBuckets', () => {
    let now = 0;
    const limit = createDeviceRateLimit({
      perMinute: 600,
      now: () => now,
      maxBuckets: 100,
      sweepEveryMs: 1000,
    });
    for (let i = 0; i < 1000; i++) limit.take(`m${i}`);
    expect(limit.size()).toBeLessThanOrEqual(100);
    now += 60_000;
    limit.take('fresh');
    expect(limit.size()).toBe(1);
  });
});
