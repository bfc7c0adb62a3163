import { z } from 'zod';
import { id, requiredText } from './fields.ts';

/**
 * Open data out (modules/openData): OGC API Features, TileJSON and styles for desktop GIS and
 * other systems, read with personal access tokens.
 */

/** Every personal token starts with this, so the server tells it from a console sign-in token at a glance. */
export const PERSONAL_TOKEN_PREFIX = 'pcp_';
/** The query key a personal token may come in, for clients that cannot set a header. */
export const PERSONAL_TOKEN_QUERY_KEY = 'key';
/** Active tokens a user may hold at once. */
export const PERSONAL_TOKEN_LIMIT = 20;
/** Lifetimes offered when a token is made; 0 = until revoked. */
export const PERSONAL_TOKEN_DAYS = [30, 90, 365, 0] as const;

export const personalTokenCreate = z.object({
  name: requiredText(60),
  enterpriseId: id,
  days: z.coerce
    .number()
    .int()
    .refine((d) => (PERSONAL_TOKEN_DAYS as readonly number[]).includes(d), { message: 'openData.days' }),
});
export type PersonalTokenCreate = z.infer<typeof personalTokenCreate>;

export const personalTokenItem = z.object({
  id: z.number().int(),
  name: z.string(),
  enterpriseId: z.number().int(),
  enterpriseName: z.string(),
  /** The token's first characters, to tell tokens apart. */
  prefix: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type PersonalTokenItem = z.infer<typeof personalTokenItem>;

/** A new token: the only time its whole text is shown. */
export const personalTokenCreated = z.object({ token: z.string(), item: personalTokenItem });
export type PersonalTokenCreated = z.infer<typeof personalTokenCreated>;

/** The collections of OGC API Features, one per layer an enterprise publishes. */
export const OGC_COLLECTION_KINDS = ['pipes', 'projects', 'pois', 'constructionSites', 'riskAreas', 'settlementPoints', 'settlementResults', 'alerts', 'sensors'] as const;
export type OgcCollectionKind = (typeof OGC_COLLECTION_KINDS)[number];
