import { describe, expect, it } from 'vitest';
import { createFailureAggregator } from './failure-aggregator.ts';

const failure = (resource: string, statusCode = 404) => ({
  resource,
  functionName: 'f',
  statusCode,
  location: '203.0.113.1',
});

function setup(options: { maxDistinct?: number; maxAddresses?: number } = {}) {
  let clock = 0;
  const emitted: { resource: string; message?: string | null }[] = [];
  const aggregator = createFailureAggregator({ emit: (e) => emitted.push(e), now: () => clock, ...options });
  return { aggregator, emitted, advance: (ms: number) => (clock += ms) };
}

describe('failure aggregator', () => {
  it('caps the distinct rows of one address per window and counts the rest in one row', () => {
    const { aggregator, emitted } = setup({ maxDistinct: 3 });
    const admitted = Array.from({ length: 50 }, (_, i) =>
      aggregator.admit('a', failure(`GET /x${i}`)),
    ).filter(Boolean);
    expect(admitted).toHaveLength(3);
    aggregator.closeAll();
    expect(emitted).toEqual([
      expect.objectContaining({
        resource: 'ANY (other routes)',
        message: '47 more failures on other routes from this address in the last minute',
      }),
    ]);
  });

  it('writes the summary when the window has run its time, and starts a new one', () => {
    const { aggregator, emitted, advance } = setup();
    expect(aggregator.admit('a', failure('GET /x'))).toBe(true);
    expect(aggregator.admit('a', failure('GET /x'))).toBe(false);
    advance(59_000);
    aggregator.sweep();
    expect(emitted).toHaveLength(0);
    advance(1_000);
    aggregator.sweep();
    expect(emitted.map((e) => e.message)).toEqual([
      '1 more identical failure from this address in the last minute',
    ]);
    expect(aggregator.admit('a', failure('GET /x'))).toBe(true);
  });

  it('tracks a bounded number of addresses, closing the oldest window early', () => {
    const { aggregator, emitted } = setup({ maxAddresses: 100 });
    for (let i = 0; i < 1000; i++) {
      aggregator.admit(`addr-${i}`, failure('GET /x'));
      aggregator.admit(`addr-${i}`, failure('GET /x'));
    }
    expect(aggregator.size()).toBe(100);
    // Every evicted address still got its summary.
    expect(emitted).toHaveLength(900);
  });
});
