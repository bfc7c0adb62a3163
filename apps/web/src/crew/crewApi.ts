import type { CrewIncident, Envelope, IncidentStepResult } from '@console/contract';
import { localStore, sessionStore, SESSION_KEYS, STORAGE_KEYS } from '../utils/storage.ts';
import { language } from './i18n.ts';

/** An answer the server gave (a refusal to show), as against no answer (offline: try later). */
export class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The console's sign-in, read where the console keeps it (the spec's Access-Token and the current enterprise). */
export const session = () => ({
  token: localStore.get<string>(STORAGE_KEYS.token),
  enterpriseId: sessionStore.get(SESSION_KEYS.enterpriseId) ?? localStore.get<string>(STORAGE_KEYS.enterpriseId),
});

/** Keeps the enterprise the crew view works in where a reopened app finds it (local storage outlives the tab). */
export const rememberEnterprise = (id: string) => localStore.set(STORAGE_KEYS.enterpriseId, id);

async function call<T>(method: string, url: string, body?: BodyInit, headers: Record<string, string> = {}): Promise<T> {
  const { token, enterpriseId } = session();
  const response = await fetch(`/api${url}`, {
    method,
    body,
    headers: { ...headers, 'Access-Token': token ?? '', ...(enterpriseId ? { 'Enterprise-Id': enterpriseId } : {}), 'Accept-Language': language() },
  });
  const envelope = (await response.json().catch(() => null)) as Envelope<T> | null;
  if (!response.ok || !envelope?.success) throw new Refused(response.status, envelope?.message ?? `HTTP ${response.status}`);
  return envelope.result;
}

export const crewApi = {
  /** The enterprises of the signed-in user: the first verified one when the console has not chosen one. */
  enterprises: () => call<{ id: number; status: string }[]>('GET', '/enterprise/getUserEnterprises'),
  mine: () => call<CrewIncident[]>('GET', '/alerts/mine'),
  step: (incidentId: number, step: string, note: string | undefined, key: string) =>
    call<IncidentStepResult>('POST', `/alerts/incidents/${incidentId}/${step}`, JSON.stringify(note ? { note } : {}), { 'content-type': 'application/json', 'Idempotency-Key': key }),
  photo: (incidentId: number, eventId: number, photo: { name: string; blob: Blob }, key: string) => {
    const form = new FormData();
    form.append('file', photo.blob, photo.name);
    return call<{ id: number }>('POST', `/alerts/incidents/${incidentId}/events/${eventId}/photos`, form, { 'Idempotency-Key': key });
  },
};
