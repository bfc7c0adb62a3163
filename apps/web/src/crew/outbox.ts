import { openDB, type DBSchema } from 'idb';
import type { CrewIncident } from '@console/contract';
import { crewApi, Refused } from './crewApi.ts';

/** A step taken on the phone, kept until the server has it (and each of its photos). */
export interface Pending {
  key: string;
  incidentId: number;
  code: string;
  step: 'accept' | 'handle' | 'note';
  note?: string;
  photos: { name: string; blob: Blob }[];
  createdAt: number;
  /** The timeline entry the step wrote, once it landed: the photos go on it. */
  eventId?: number;
  photosSent: number;
  /** The server's refusal (the incident moved on meanwhile): shown until dismissed. */
  refused?: string;
}

interface CrewDb extends DBSchema {
  outbox: { key: string; value: Pending; indexes: { createdAt: number } };
  incidents: { key: string; value: { enterpriseId: string; loadedAt: number; incidents: CrewIncident[] } };
}

const db = () =>
  openDB<CrewDb>('crew', 1, {
    upgrade(database) {
      database.createObjectStore('outbox', { keyPath: 'key' }).createIndex('createdAt', 'createdAt');
      database.createObjectStore('incidents', { keyPath: 'enterpriseId' });
    },
  });

/** A key of its own for each step: a replay after a lost answer is recorded once by the server. */
export const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`);

export const queued = async () => (await db()).getAllFromIndex('outbox', 'createdAt');
export const enqueue = async (pending: Pending) => void (await (await db()).put('outbox', pending));
export const dismiss = async (key: string) => void (await (await db()).delete('outbox', key));

/** What was last loaded, to read offline. */
export const cachedIncidents = async (enterpriseId: string) => (await db()).get('incidents', enterpriseId);
/** The tasks this phone loaded last, whichever enterprise they were of (a cold start offline knows no enterprise yet). */
export const lastCachedIncidents = async () => (await (await db()).getAll('incidents')).sort((a, b) => b.loadedAt - a.loadedAt)[0];
export const cacheIncidents = async (enterpriseId: string, incidents: CrewIncident[]) => void (await (await db()).put('incidents', { enterpriseId, loadedAt: Date.now(), incidents }));

let flushing: Promise<boolean> | null = null;

/**
 * Sends what waits, oldest first: the step (with its key), then its photos one by one (each with
 * a key of its own), writing progress after each so nothing is sent twice by this phone and a
 * replay is harmless to the server. No answer (offline) stops here until the next try; a refusal
 * is kept for the crew to read. Answers whether everything went.
 */
export function flush(): Promise<boolean> {
  flushing ??= (async () => {
    try {
      for (const item of await queued()) {
        if (item.refused) continue;
        try {
          if (item.eventId === undefined) {
            item.eventId = (await crewApi.step(item.incidentId, item.step, item.note, item.key)).eventId;
            await enqueue(item);
          }
          while (item.photosSent < item.photos.length) {
            await crewApi.photo(item.incidentId, item.eventId, item.photos[item.photosSent], `${item.key}:photo:${item.photosSent}`);
            item.photosSent += 1;
            await enqueue(item);
          }
          await dismiss(item.key);
        } catch (error) {
          if (error instanceof Refused && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 429) {
            await enqueue({ ...item, refused: error.message });
            continue;
          }
          return false;
        }
      }
      return true;
    } finally {
      flushing = null;
    }
  })();
  return flushing;
}
