/**
 * Work per key that runs once the calls for that key have stopped for `delayMs` (a burst of
 * writes to one enterprise makes one run); 0 never runs. Timers do not keep the process alive.
 */
export class Debounce<K> {
  private readonly waiting = new Map<K, NodeJS.Timeout>();

  constructor(private readonly delayMs: number) {}

  call(key: K, work: () => void) {
    if (!this.delayMs) return;
    clearTimeout(this.waiting.get(key));
    this.waiting.set(
      key,
      setTimeout(() => {
        this.waiting.delete(key);
        work();
      }, this.delayMs).unref(),
    );
  }

  /** Drops what has not started yet (tests, shutdown). */
  clear() {
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }
}
