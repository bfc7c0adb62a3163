import type { PersonalTokenCreate, PersonalTokenCreated, PersonalTokenItem } from '@console/contract';
import { del, get, postJson } from './http.ts';

/** The signed-in user's personal access tokens (read-only keys for desktop GIS and other systems). */
export const openDataApi = {
  tokens: () => get<PersonalTokenItem[]>('/open-data/tokens'),
  create: (input: PersonalTokenCreate) => postJson<PersonalTokenCreated>('/open-data/tokens', input),
  revoke: (id: number) => del<null>(`/open-data/tokens/${id}`),
};
