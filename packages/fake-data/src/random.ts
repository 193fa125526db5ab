/**
 * A small seeded pseudo-random generator (mulberry32) for the demo data and the fleet simulator: the
 * same seed gives the same data on every machine. Not for anything secret.
 */
export type Rng = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** A float in [min, max) rounded to `digits` decimals. */
  float(min: number, max: number, digits?: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** A new generator whose sequence depends only on this seed and the label. */
  fork(label: string): Rng;
};

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  const start = typeof seed === 'number' ? seed >>> 0 : hash(seed);
  let state = start;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max, digits = 2) => Number((min + next() * (max - min)).toFixed(digits)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    fork: (label) => createRng(hash(`${start}:${label}`)),
  };
  return rng;
}
