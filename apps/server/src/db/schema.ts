import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

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
export const loginKeys = pgTable('login_keys', {
  id: text('id').primaryKey(),
  key: text('key').notNull(),
  iv: text('iv').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** Failed sign-ins, counted per username and per address for the lockout. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    scope: text('scope', { enum: ['username', 'address'] }).notNull(),
    subject: text('subject').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_subject_idx').on(t.scope, t.subject, t.failedAt)],
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

/** GeoJSON geometry as stored: WGS84 (EPSG:4326) coordinates. */
export type StoredGeometry =
  | { type: 'LineString'; coordinates: number[][] }
  | { type: 'MultiLineString'; coordinates: number[][][] }
  | { type: 'Polygon'; coordinates: number[][][] }
  | { type: 'MultiPolygon'; coordinates: number[][][][] };

/** Bounding box columns beside every geometry, indexed for window queries on both databases. */
const bbox = () => ({
  minx: doublePrecision('minx').notNull(),
  miny: doublePrecision('miny').notNull(),
  maxx: doublePrecision('maxx').notNull(),
  maxy: doublePrecision('maxy').notNull(),
});

/** A monitoring campaign over an area of an enterprise's network. */
export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    city: text('city').notNull(),
    district: text('district'),
    area: jsonb('area').$type<StoredGeometry>().notNull(),
    ...bbox(),
    networkTypes: jsonb('network_types').$type<string[]>().notNull(),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    status: text('status', { enum: ['planned', 'active', 'closed'] }).notNull().default('planned'),
    description: text('description'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('projects_enterprise_code_idx').on(t.enterpriseId, t.code), index('projects_enterprise_idx').on(t.enterpriseId)],
);

/** One pipe segment of an enterprise's network. */
export const pipes = pgTable(
  'pipes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    /** The utility's own id of the segment. */
    pipeId: text('pipe_id').notNull(),
    networkType: text('network_type', { enum: ['water', 'gas', 'drainage', 'heat', 'power', 'telecom'] }).notNull(),
    material: text('material'),
    diameterMm: integer('diameter_mm'),
    pressureClass: text('pressure_class'),
    installYear: integer('install_year'),
    depthM: doublePrecision('depth_m'),
    owner: text('owner'),
    geometry: jsonb('geometry').$type<StoredGeometry>().notNull(),
    lengthM: doublePrecision('length_m').notNull(),
    ...bbox(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pipes_enterprise_pipe_id_idx').on(t.enterpriseId, t.pipeId),
    index('pipes_enterprise_bbox_idx').on(t.enterpriseId, t.minx, t.miny),
    index('pipes_enterprise_type_idx').on(t.enterpriseId, t.networkType),
  ],
);

/** Streets, water and parks of the built-in basemap (the demo city), served as vector tiles. */
export const basemapFeatures = pgTable(
  'basemap_features',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['street', 'mainStreet', 'river', 'park'] }).notNull(),
    name: text('name').notNull(),
    geometry: jsonb('geometry').$type<StoredGeometry>().notNull(),
    ...bbox(),
  },
  (t) => [index('basemap_features_bbox_idx').on(t.minx, t.miny)],
);
