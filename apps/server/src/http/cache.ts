import { SerializedJson } from './envelope.ts';

/**
 * A small in-process cache whose entries live `ttlMs`: what many requests ask at once (the
 * caller's token and memberships, a list) is read from the database once. Loads of one key
 * share one promise, so 64 requests that miss together make one query. Bounded: past
 * `maxEntries` the oldest entries go.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.entries.delete(key);
    // Entries are kept in the order they were made, all with one lifetime: the expired ones are at
    // the front, and go as new ones come (so a crawler's many one-off reads do not pile up).
    for (const [oldKey, old] of this.entries) {
      if (old.expires > now) break;
      this.entries.delete(oldKey);
    }
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    const value = load();
    const entry = { value, expires: now + this.ttlMs };
    this.entries.set(key, entry);
    // A failed load is not kept.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  delete(key: K) {
    this.entries.delete(key);
  }

  deleteWhere(matches: (key: K) => boolean) {
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }
}

/** How long a cached read of an enterprise's data is served before it is read again. */
export const READ_CACHE_MS = 1_000;

/**
 * Values read from an enterprise's data, kept a second (or `ttlMs`) at most and dropped at once
 * when the change feed says the enterprise's data changed (a write request, an import job ending),
 * here or on another server. The time limit is what bounds staleness if a notification is lost.
 */
export class EnterpriseCache<V> {
  private readonly cache: TtlCache<string, V>;

  constructor(changes: { on(listener: (change: { enterpriseId: number | null }) => void): void }, ttlMs = READ_CACHE_MS, maxEntries?: number) {
    this.cache = new TtlCache<string, V>(ttlMs, maxEntries);
    changes.on(({ enterpriseId }) => {
      if (enterpriseId === null) this.cache.clear();
      else this.cache.deleteWhere((key) => key.startsWith(`${enterpriseId}|`));
    });
  }

  get(enterpriseId: number, key: string, load: () => Promise<V>): Promise<V> {
    return this.cache.get(`${enterpriseId}|${key}`, load);
  }

  protected forget(enterpriseId: number, key: string) {
    this.cache.delete(`${enterpriseId}|${key}`);
  }
}

/**
 * Reads many users repeat (the project list with its figures, the pipe list's pages), serialized
 * once for all who ask until it changes. At most READ_CACHE_ENTRIES of them: a pipe list page may
 * be 500 rows (~175 KB), so a crowd asking for many different pages holds ~90 MB at the most.
 */
export const READ_CACHE_ENTRIES = 500;
export class ReadCache extends EnterpriseCache<SerializedJson> {
  constructor(changes: { on(listener: (change: { enterpriseId: number | null }) => void): void }) {
    super(changes, READ_CACHE_MS, READ_CACHE_ENTRIES);
  }

  read(enterpriseId: number, key: string, load: () => Promise<unknown>): Promise<SerializedJson> {
    return this.get(enterpriseId, key, async () => new SerializedJson(JSON.stringify(await load())));
  }

  /**
   * The same, for a read whose database work is worth stopping (a search over a million rows):
   * requests that ask together share one load, which stops only once every one of them has gone.
   */
  readCancellable(enterpriseId: number, key: string, signal: AbortSignal, load: (signal: AbortSignal) => Promise<unknown>): Promise<SerializedJson> {
    signal.throwIfAborted();
    const loadKey = `${enterpriseId}|${key}`;
    // A load being stopped (all who asked left) is not joined: this request starts its own.
    if (this.loading.get(loadKey)?.controller.signal.aborted) this.forget(enterpriseId, key);
    const value = this.get(enterpriseId, key, async () => {
      const shared = new SharedLoad();
      this.loading.set(loadKey, shared);
      try {
        return new SerializedJson(JSON.stringify(await load(shared.controller.signal)));
      } finally {
        shared.done = true;
        if (this.loading.get(loadKey) === shared) this.loading.delete(loadKey);
      }
    });
    // A load already finished is not waited for by anybody: nothing left to stop.
    return (this.loading.get(loadKey) ?? FINISHED).wait(value, signal);
  }

  private readonly loading = new Map<string, SharedLoad>();
}

/** Who waits for one shared load; the load is stopped when the last of them leaves before it ends. */
class SharedLoad {
  readonly controller = new AbortController();
  done = false;
  private waiting = 0;

  async wait<T>(value: Promise<T>, signal: AbortSignal): Promise<T> {
    this.waiting++;
    let leave!: (reason: unknown) => void;
    const left = new Promise<never>((_, reject) => (leave = reject));
    const onAbort = () => {
      if (--this.waiting === 0 && !this.done) this.controller.abort(signal.reason);
      leave(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([value, left]);
    } finally {
      if (!signal.aborted) this.waiting--;
      signal.removeEventListener('abort', onAbort);
    }
  }
}
const FINISHED = Object.assign(new SharedLoad(), { done: true });
