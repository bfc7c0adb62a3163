import { describe, expect, it } from 'vitest';
import { READ_CACHE_ENTRIES, ReadCache, TtlCache } from './cache.ts';

type Listener = (change: { enterpriseId: number | null }) => void;
const feed = () => {
  const listeners: Listener[] = [];
  return { on: (listener: Listener) => listeners.push(listener), publish: (enterpriseId: number | null) => listeners.forEach((l) => l({ enterpriseId })) };
};

/** A load that waits until told, and says whether it was stopped. */
function pendingLoad() {
  let finish!: (value: unknown) => void;
  const state = { calls: 0, stopped: false };
  const load = (signal: AbortSignal) => {
    state.calls++;
    return new Promise<unknown>((resolve, reject) => {
      finish = resolve;
      signal.addEventListener('abort', () => {
        state.stopped = true;
        reject(signal.reason);
      });
    });
  };
  return { load, state, finish: (value: unknown) => finish(value) };
}

describe('read cache', () => {
  it('requests asking together share one load; it goes on while one of them still waits', async () => {
    const cache = new ReadCache(feed());
    const { load, state, finish } = pendingLoad();
    const first = new AbortController();
    const second = new AbortController();
    const a = cache.readCancellable(1, 'list', first.signal, load);
    const b = cache.readCancellable(1, 'list', second.signal, load);
    first.abort(new Error('gone'));
    await expect(a).rejects.toThrow('gone');
    expect(state.stopped).toBe(false);
    finish({ rows: [1] });
    expect((await b).json).toBe('{"rows":[1]}');
    expect(state.calls).toBe(1);
    // Kept for the next request, which makes no load.
    expect((await cache.readCancellable(1, 'list', new AbortController().signal, load)).json).toBe('{"rows":[1]}');
    expect(state.calls).toBe(1);
  });

  it('the load stops once every request asking for it has gone, and a later request loads again', async () => {
    const changes = feed();
    const cache = new ReadCache(changes);
    const { load, state, finish } = pendingLoad();
    const clients = [new AbortController(), new AbortController()];
    const answers = clients.map((c) => cache.readCancellable(1, 'list', c.signal, load));
    for (const c of clients) c.abort(new Error('gone'));
    await Promise.allSettled(answers);
    expect(state.stopped).toBe(true);
    const again = cache.readCancellable(1, 'list', new AbortController().signal, load);
    finish({ rows: [2] });
    expect((await again).json).toBe('{"rows":[2]}');
    expect(state.calls).toBe(2);
    // A change to the enterprise's data drops it.
    changes.publish(1);
    const third = cache.readCancellable(1, 'list', new AbortController().signal, load);
    finish({ rows: [3] });
    expect((await third).json).toBe('{"rows":[3]}');
  });

  it('keeps at most READ_CACHE_ENTRIES reads, the oldest going first', async () => {
    const cache = new ReadCache(feed());
    let loads = 0;
    const read = (i: number) => cache.read(1, `page ${i}`, async () => (loads++, { i }));
    for (let i = 0; i <= READ_CACHE_ENTRIES; i++) await read(i);
    expect(loads).toBe(READ_CACHE_ENTRIES + 1);
    await read(READ_CACHE_ENTRIES); // the newest is kept
    expect(loads).toBe(READ_CACHE_ENTRIES + 1);
    await read(0); // the oldest went
    expect(loads).toBe(READ_CACHE_ENTRIES + 2);
  });

  it('expired entries go as new ones come', async () => {
    const cache = new TtlCache<number, number>(5);
    for (let i = 0; i < 100; i++) await cache.get(i, async () => i);
    await new Promise((r) => setTimeout(r, 10));
    await cache.get(1000, async () => 1000);
    expect((cache as unknown as { entries: Map<number, unknown> }).entries.size).toBe(1);
  });
});
