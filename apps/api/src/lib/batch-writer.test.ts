import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatchWriter } from './batch-writer.ts';

/** A writer of numbers into `written`; `refuse` makes the next writes leave every item. */
function numbers(options: { flushAtSize?: number; retryLeftovers?: boolean } = {}) {
  const written: number[][] = [];
  const state = { refuse: false, writing: 0, mostAtOnce: 0 };
  const writer = createBatchWriter<number[]>({
    flushIntervalMs: 1000,
    ...options,
    empty: () => [],
    size: (items) => items.length,
    putBack: (left, since) => [...left, ...since],
    async write(batch) {
      state.writing++;
      state.mostAtOnce = Math.max(state.mostAtOnce, state.writing);
      await new Promise((resolve) => setTimeout(resolve, 10));
      state.writing--;
      if (state.refuse) return batch;
      written.push(batch);
      return [];
    },
  });
  const add = (...items: number[]) => {
    for (const item of items) writer.add((buffer) => buffer.push(item));
  };
  return { writer, written, state, add };
}

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => vi.useRealTimers());

describe('the batch writer', () => {
  it('writes what was added in one batch, one interval after the first item', async () => {
    const { writer, written, add } = numbers();
    add(1, 2);
    await vi.advanceTimersByTimeAsync(500);
    add(3);
    await vi.advanceTimersByTimeAsync(499);
    expect(written).toEqual([]);
    expect(writer.size()).toBe(3);
    await vi.advanceTimersByTimeAsync(20);
    expect(written).toEqual([[1, 2, 3]]);
    expect(writer.size()).toBe(0);
    // Nothing waiting, no timer and no empty write.
    await vi.advanceTimersByTimeAsync(5000);
    expect(written).toHaveLength(1);
  });

  it('starts a write at once when flushAtSize items wait', async () => {
    const { writer, written, add } = numbers({ flushAtSize: 3 });
    add(1, 2);
    await vi.advanceTimersByTimeAsync(20);
    expect(writer.size()).toBe(2);
    add(3);
    // Long before the interval: 20 ms is the write itself.
    await vi.advanceTimersByTimeAsync(20);
    expect({ written, waiting: writer.size() }).toEqual({ written: [[1, 2, 3]], waiting: 0 });
  });

  it('runs one write at a time, in order', async () => {
    const { writer, written, state, add } = numbers();
    add(1);
    const first = writer.flush();
    await vi.advanceTimersByTimeAsync(1);
    // Item 2 arrives while item 1 is being written: its write starts after that one ends.
    add(2);
    const second = writer.flush();
    await vi.advanceTimersByTimeAsync(50);
    await Promise.all([first, second]);
    expect(written).toEqual([[1], [2]]);
    expect(state.mostAtOnce).toBe(1);
  });

  it('puts what a write left before what came since, written with the next item', async () => {
    const { writer, written, state, add } = numbers();
    add(1, 2);
    state.refuse = true;
    const failed = writer.flush();
    await vi.advanceTimersByTimeAsync(1);
    add(3);
    await vi.advanceTimersByTimeAsync(20);
    await failed;
    expect(writer.size()).toBe(3);
    state.refuse = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(written).toEqual([[1, 2, 3]]);
  });

  it('without retryLeftovers, leaves what a write left until another item comes', async () => {
    const { writer, written, state, add } = numbers();
    add(1, 2);
    state.refuse = true;
    await vi.advanceTimersByTimeAsync(1020);
    expect(writer.size()).toBe(2);
    state.refuse = false;
    await vi.advanceTimersByTimeAsync(5000);
    expect(written).toEqual([]);
    add(3);
    await vi.advanceTimersByTimeAsync(1020);
    expect(written).toEqual([[1, 2, 3]]);
  });

  it('with retryLeftovers, tries what a write left again one interval later', async () => {
    const { writer, written, state, add } = numbers({ retryLeftovers: true });
    add(1);
    state.refuse = true;
    await vi.advanceTimersByTimeAsync(1020);
    expect(writer.size()).toBe(1);
    state.refuse = false;
    await vi.advanceTimersByTimeAsync(1020);
    expect(written).toEqual([[1]]);
    expect(writer.size()).toBe(0);
  });

  it('writes what waits on close, gives up what that write leaves, and schedules nothing after', async () => {
    const { writer, written, state, add } = numbers({ retryLeftovers: true });
    add(1);
    const closed = writer.close();
    await vi.advanceTimersByTimeAsync(20);
    await closed;
    expect(written).toEqual([[1]]);

    const other = numbers({ retryLeftovers: true });
    other.add(1);
    other.state.refuse = true;
    const otherClosed = other.writer.close();
    await vi.advanceTimersByTimeAsync(20);
    await otherClosed;
    expect(other.writer.size()).toBe(0);
    other.state.refuse = false;
    other.add(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(other.written).toEqual([]);
    expect(state.writing).toBe(0);
  });
});
