import { afterEach, describe, expect, it, vi } from 'vitest';
import { startJobs } from './jobs.ts';

/* The periodic jobs modules declare (app-module.ts): timers, no overlap, failures logged, stopped. */

afterEach(() => vi.useRealTimers());

const logger = () => {
  const lines: string[] = [];
  return { lines, log: { error: (_obj: object, msg: string) => void lines.push(msg) } };
};

describe('startJobs', () => {
  it('runs each job every period, and at start only when it asks', async () => {
    vi.useFakeTimers();
    const runs = { a: 0, b: 0 };
    const { log } = logger();
    const stop = startJobs(
      [
        { name: 'a', everySeconds: 10, atStart: true, run: async () => void runs.a++ },
        { name: 'b', everySeconds: 10, run: async () => void runs.b++ },
      ],
      log,
    );
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual({ a: 1, b: 0 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toEqual({ a: 2, b: 1 });
    await stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toEqual({ a: 2, b: 1 });
  });

  it('never runs a job beside its own previous run, and stop waits for the run in progress', async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    let finished = 0;
    const { log } = logger();
    const stop = startJobs(
      [
        {
          name: 'slow',
          everySeconds: 1,
          run: async () => {
            most = Math.max(most, ++running);
            await new Promise((resolve) => setTimeout(resolve, 3500));
            running--;
            finished++;
          },
        },
      ],
      log,
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(most).toBe(1);
    const stopped = stop();
    await vi.advanceTimersByTimeAsync(5_000);
    await stopped;
    expect(running).toBe(0);
    expect(finished).toBeGreaterThan(0);
  });

  it('logs a failure by the job name and runs it again next period; a period of 0 never runs', async () => {
    vi.useFakeTimers();
    let tries = 0;
    let never = 0;
    const { lines, log } = logger();
    const stop = startJobs(
      [
        {
          name: 'flaky',
          everySeconds: 1,
          run: async () => {
            tries++;
            throw new Error('down');
          },
        },
        { name: 'off', everySeconds: 0, atStart: true, run: async () => void never++ },
      ],
      log,
    );
    await vi.advanceTimersByTimeAsync(2_500);
    expect(tries).toBe(2);
    expect(lines).toEqual(['flaky failed', 'flaky failed']);
    expect(never).toBe(0);
    await stop();
  });
});
