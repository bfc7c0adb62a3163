/** Deterministic pseudo-random numbers (mulberry32): the same seed gives the same city. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min: number, max: number) => min + (max - min) * next(),
    int: (min: number, max: number) => Math.floor(min + (max - min + 1) * next()),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
    /** Picks by weight: [[value, weight], ...]. */
    weighted: <T>(items: readonly (readonly [T, number])[]) => {
      const total = items.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [value, w] of items) if ((r -= w) <= 0) return value;
      return items[items.length - 1][0];
    },
    chance: (p: number) => next() < p,
  };
}
