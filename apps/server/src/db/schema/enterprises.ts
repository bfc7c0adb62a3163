/** Enterprises, their members and their map service settings. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './common.ts';
import { users } from './users.ts';

export const enterprises = pgTable('enterprises', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  creditCode: text('credit_code').notNull().unique(),
  contact: text('contact').notNull(),
  contactPhone: text('contact_phone').notNull(),
  address: text('address').notNull(),
  description: text('description'),
  status: text('status', { enum: ['pending', 'verified', 'rejected'] })
    .notNull()
    .default('pending'),
  rejectReason: text('reject_reason'),
  /** Bumped on every change to the enterprise's pipes: keys the vector tile cache. */
  pipesVersion: integer('pipes_version').notNull().default(0),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
});

/** A user's place in an enterprise; join requests are memberships with status pending. */
export const memberships = pgTable(
  'memberships',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'member', 'viewer'] }).notNull(),
    status: text('status', { enum: ['pending', 'active', 'rejected'] }).notNull(),
    message: text('message'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('memberships_enterprise_user_idx').on(t.enterpriseId, t.userId),
    index('memberships_user_idx').on(t.userId),
  ],
);

/** The tiled map service an enterprise's maps draw on (console-spec section 3). */
export const mapSettings = pgTable('map_settings', {
  enterpriseId: integer('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  serviceType: text('service_type').notNull().default('ArcGIS'),
  serviceUrl: text('service_url'),
  srid: integer('srid').notNull().default(4326),
  resolutions: jsonb('resolutions').$type<number[]>(),
  extent: jsonb('extent').$type<number[]>(),
  origin: jsonb('origin').$type<number[]>(),
  tileSize: integer('tile_size').notNull().default(256),
  zoomLevel: integer('zoom_level').notNull().default(10),
  layerName: text('layer_name'),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});
