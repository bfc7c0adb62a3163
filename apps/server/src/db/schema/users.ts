/** Accounts, their sign-in tokens, preferences, login keys, throttles and SMS codes. */
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './common.ts';

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  realname: text('realname').notNull(),
  phone: text('phone').unique(),
  email: text('email'),
  avatar: text('avatar').notNull().default(''),
  isPlatformAdmin: boolean('is_platform_admin').notNull().default(false),
  createdAt: createdAt(),
});

/** Access tokens: only the SHA-256 of the token is stored. */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('access_tokens_user_idx').on(t.userId)],
);

/** One-time AES key and iv for a sign-in, bound to the caller by a cookie holding the id. */
/**
 * A user's own console choices that follow them from browser to browser (the POI overlay's
 * layers, say), by key; the value is the screen's own JSON.
 */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const loginKeys = pgTable('login_keys', {
  id: text('id').primaryKey(),
  key: text('key').notNull(),
  iv: text('iv').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * Attempts counted per scope (sign-in by username or by address, SMS sends by phone or address,
 * sign-in keys by address) and subject, in a window: one row each, counted by one atomic upsert
 * so that requests sent at once cannot all pass the same check (see http/throttle.ts).
 */
export const throttles = pgTable(
  'throttles',
  {
    scope: text('scope').notNull(),
    subject: text('subject').notNull(),
    count: integer('count').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.subject] }), index('throttles_window_idx').on(t.windowStart)],
);

/** SMS verification codes; the code itself is stored hashed. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: serial('id').primaryKey(),
    phone: text('phone').notNull(),
    purpose: text('purpose', { enum: ['register', 'recover'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    failedTries: integer('failed_tries').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.createdAt)],
);

/** Messages written by the default (local) SMS provider, readable by local users and tests. */
export const smsOutbox = pgTable('sms_outbox', {
  id: serial('id').primaryKey(),
  phone: text('phone').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
});
