/** Personal access tokens: how desktop GIS and other systems read an enterprise's layers (modules/openData). */
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './common.ts';
import { enterprises } from './enterprises.ts';
import { users } from './users.ts';

/**
 * A read-only token a user made for one enterprise, sent by QGIS, GDAL and the like as a header or
 * a query key. Only its SHA-256 is stored; the prefix (its first characters) lets its owner tell
 * tokens apart. Made useless by revocation, expiry, or its owner leaving the enterprise.
 */
export const personalTokens = pgTable(
  'personal_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    createdAt: createdAt(),
    /** Null: until revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('personal_tokens_user_idx').on(t.userId)],
);
