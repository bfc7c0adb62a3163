import { useSyncExternalStore } from 'react';

/**
 * Whether the server said its database is away (a 503 with a retry time): the console shows one
 * banner instead of an error per request, asks the server's health every few seconds, and when
 * the database answers again tells whoever holds server data to read it again.
 */
const HEALTH_POLL_MS = 3_000;

let down = false;
const listeners = new Set<() => void>();
const backListeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** Called by the request layer on a 503 that names a retry time. */
export function databaseDown() {
  if (down) return;
  down = true;
  emit();
  poll();
}

function poll() {
  setTimeout(async () => {
    try {
      const answer = await fetch('/api/health', { cache: 'no-store' });
      const body = (await answer.json()) as { result?: { database?: { reachable?: boolean } } };
      if (body.result?.database?.reachable) {
        down = false;
        emit();
        for (const listener of backListeners) listener();
        return;
      }
    } catch {
      // The server itself is not answering: keep asking.
    }
    poll();
  }, HEALTH_POLL_MS);
}

/** Called once the database answers again; answers the way to stop listening. */
export function onDatabaseBack(listener: () => void) {
  backListeners.add(listener);
  return () => void backListeners.delete(listener);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export const useDatabaseDown = () => useSyncExternalStore(subscribe, () => down);
