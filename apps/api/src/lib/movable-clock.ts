/**
 * A clock that can be moved forward, for end-to-end tests of what time does (a paid-through date
 * passing, a grace period ending): the server reads `now()` everywhere it asks the time, and an
 * e2e test moves it with the clock-control route (CLOCK_CONTROL=1, never in a real deployment).
 */
export type MovableClock = {
  now: () => Date;
  /** Moves the clock forward by `ms` (never back: nothing we keep expects time to run backwards). */
  advance: (ms: number) => void;
};

export function createMovableClock(realNow: () => number = Date.now): MovableClock {
  let offsetMs = 0;
  return {
    now: () => new Date(realNow() + offsetMs),
    advance: (ms) => {
      if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
      offsetMs += ms;
    },
  };
}
