import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Debounce } from './debounce.ts';

describe('Debounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs a burst once, after it stops', () => {
    const runs: number[] = [];
    const debounce = new Debounce<number>(1_000);
    for (let i = 0; i < 5; i++) {
      debounce.call(1, () => runs.push(Date.now()));
      vi.advanceTimersByTime(500);
    }
    expect(runs).toHaveLength(0);
    vi.advanceTimersByTime(500);
    expect(runs).toHaveLength(1);
  });

  it('with a longest wait, runs calls that never stop at most that long after the first', () => {
    let runs = 0;
    const debounce = new Debounce<number>(1_000, 1_000);
    for (let i = 0; i < 20; i++) {
      debounce.call(1, () => runs++);
      vi.advanceTimersByTime(250);
    }
    // Five seconds of calls every quarter second: a run each second (the last at 5 s), not one at 5.75 s.
    expect(runs).toBe(5);
  });
});
