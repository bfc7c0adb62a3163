/**
 * Work per key that runs once the calls for that key have stopped for `delayMs` (a burst of
 * writes to one enterprise makes one run); 0 never runs. Timers do not keep the process alive.
 */
export class Debounce<K> {
  private readonly waiting = new Map<K, { first: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly delayMs: number,
    /** A key's work runs at most this long after its first call not yet run, however often it is called meanwhile. */
    private readonly maxWaitMs = Infinity,
  ) {}

  call(key: K, work: () => void) {
    if (!this.delayMs) return;
    const now = Date.now();
    const waiting = this.waiting.get(key);
    const first = waiting?.first ?? now;
    clearTimeout(waiting?.timer);
    const due = Math.min(now + this.delayMs, first + this.maxWaitMs);
    this.waiting.set(key, {
      first,
      timer: setTimeout(() => {
        this.waiting.delete(key);
        work();
      }, Math.max(0, due - now)).unref(),
    });
  }

  /** Drops what has not started yet (tests, shutdown). */
  clear() {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }
}
