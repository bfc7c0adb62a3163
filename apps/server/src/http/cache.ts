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

  constructor(changes: { on(listener: (change: { enterpriseId: number | null }) => void): void }, ttlMs = READ_CACHE_MS) {
    this.cache = new TtlCache<string, V>(ttlMs);
    changes.on(({ enterpriseId }) => {
      if (enterpriseId === null) this.cache.clear();
      else this.cache.deleteWhere((key) => key.startsWith(`${enterpriseId}|`));
    });
  }

  get(enterpriseId: number, key: string, load: () => Promise<V>): Promise<V> {
    return this.cache.get(`${enterpriseId}|${key}`, load);
  }
}

/** Reads many users repeat (the project list with its figures), serialized once for all who ask until it changes. */
export class ReadCache extends EnterpriseCache<SerializedJson> {
  read(enterpriseId: number, key: string, load: () => Promise<unknown>): Promise<SerializedJson> {
    return this.get(enterpriseId, key, async () => new SerializedJson(JSON.stringify(await load())));
  }
}
