import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { PIPE_SCALE_CLASS, scaleClassExpression } from '../geo/pipeScales.ts';

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

/**
 * The bounding box columns as a PostgreSQL box: GiST-indexed (core PostgreSQL, no PostGIS), so a
 * map window finds its rows among millions without scanning. Queries must use this same expression.
 */
export const bboxBox = (t: { minx: AnyPgColumn; miny: AnyPgColumn; maxx: AnyPgColumn; maxy: AnyPgColumn }) =>
  sql`box(point(${t.minx}, ${t.miny}), point(${t.maxx}, ${t.maxy}))`;

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
    /** Pipe length in the area by network type, kept between changes (see projects/service.ts). */
    pipeLengthM: jsonb('pipe_length_m').$type<Record<string, number>>(),
    /** The enterprise's pipes version the length was measured at; null after the area changed. */
    pipeLengthVersion: integer('pipe_length_version'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('projects_enterprise_code_idx').on(t.enterpriseId, t.code), index('projects_enterprise_idx').on(t.enterpriseId)],
);

/** The attributes of a pipe segment, shared by the network and the import staging table. */
const pipeAttributes = () => ({
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
});

/** One pipe segment of an enterprise's network. */
export const pipes = pgTable(
  'pipes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    ...pipeAttributes(),
    /** Trunk main, main or distribution pipe (geo/pipeScales.ts), from its network and diameter. */
    scaleClass: smallint('scale_class')
      .notNull()
      .generatedAlwaysAs(sql.raw(scaleClassExpression())),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pipes_enterprise_pipe_id_idx').on(t.enterpriseId, t.pipeId),
    index('pipes_box_idx').using('gist', bboxBox(t)),
    // Small-scale tiles read only the trunk mains or the mains: each has a window index of its own,
    // so a zoom-10 tile does not walk every distribution pipe under it.
    index('pipes_trunk_box_idx').using('gist', bboxBox(t)).where(sql.raw(`"scale_class" = ${PIPE_SCALE_CLASS.trunk}`)),
    index('pipes_main_box_idx').using('gist', bboxBox(t)).where(sql.raw(`"scale_class" <= ${PIPE_SCALE_CLASS.main}`)),
    // The pipe list pages in pipe id order (keyset): each filter it offers has an index that
    // either gives that order (network type, material) or narrows a rare match (diameter, year,
    // a keyword anywhere in the id by trigrams).
    index('pipes_enterprise_type_idx').on(t.enterpriseId, t.networkType, t.material, t.pipeId),
    index('pipes_enterprise_material_idx').on(t.enterpriseId, t.material, t.pipeId),
    index('pipes_enterprise_diameter_idx').on(t.enterpriseId, t.diameterMm),
    index('pipes_enterprise_year_idx').on(t.enterpriseId, t.installYear),
    index('pipes_pipe_id_trgm_idx').using('gin', t.pipeId.op('gin_trgm_ops')),
  ],
);

/**
 * How many pipes (and metres) each enterprise has per network type and material, kept by
 * statement triggers on `pipes` (migration 0011) in the statement that changes the pipes, so the
 * pipe list's totals and filter values cost one small read at any network size.
 */
export const pipeCounts = pgTable(
  'pipe_counts',
  {
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    networkType: text('network_type').notNull(),
    /** '' for pipes without a material. */
    material: text('material').notNull(),
    pipes: bigint('pipes', { mode: 'number' }).notNull(),
    lengthM: doublePrecision('length_m').notNull(),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.networkType, t.material] })],
);

/**
 * An import of a file into an enterprise's data, run as a job: the file is analysed, the user maps
 * its fields, then every feature is checked and staged, and the staged rows go in together or not
 * at all. Progress lives here so any server (and a reloaded page) can follow it.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    /** What is imported: pipes, POI deliveries or satellite scene lists. */
    kind: text('kind', { enum: ['pipes', 'pois', 'acquisitions'] }).notNull(),
    status: text('status', { enum: ['analysed', 'validating', 'writing', 'succeeded', 'failed'] }).notNull(),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    /** Folder under DATA_DIR holding the upload (removed when the job ends). */
    workDir: text('work_dir').notNull(),
    format: text('format', { enum: ['geojson', 'shapefile', 'kml', 'csv'] }).notNull(),
    detectedSrid: integer('detected_srid'),
    detectedCrs: text('detected_crs'),
    crsDefinition: text('crs_definition'),
    fields: jsonb('fields').$type<{ name: string; samples: string[] }[]>().notNull(),
    geometryTypes: jsonb('geometry_types').$type<string[]>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>(),
    progress: doublePrecision('progress').notNull().default(0),
    rowsRead: integer('rows_read').notNull().default(0),
    rowsWritten: integer('rows_written').notNull().default(0),
    problemCount: integer('problem_count').notNull().default(0),
    problems: jsonb('problems').$type<ImportProblemRecord[]>().notNull().default([]),
    result: jsonb('result').$type<ImportResult>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** Touched while the job runs: a running job not touched for long was cut off by a stopped server. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('import_jobs_enterprise_idx').on(t.enterpriseId, t.createdAt)],
);

/** What a finished import did; extent: [minLon, minLat, maxLon, maxLat] of what it wrote. */
export interface ImportResult {
  inserted: number;
  updated: number;
  deleted: number;
  extent: [number, number, number, number] | null;
  /** The delivery a POI import made. */
  deliveryId?: number;
}

export interface ImportProblemRecord {
  row: number | null;
  featureId: string | null;
  field: string | null;
  reason: { 'zh-CN': string; 'en-US': string };
}

/** Checked rows of a running pipe import, moved into pipes in one statement when all are good. */
export const pipeImportRows = pgTable(
  'pipe_import_rows',
  {
    jobId: integer('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    ...pipeAttributes(),
  },
  // No index: the rows are written once by COPY and read whole (duplicates by hashing, existing
  // ids through the pipes' own index). Unlogged too (migration 0012): a crash fails the job anyway.
);

/** A satellite radar scene over the enterprise's area, and how far its processing got. */
export const acquisitions = pgTable(
  'acquisitions',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    satellite: text('satellite').notNull(),
    productId: text('product_id').notNull(),
    acquiredAt: timestamp('acquired_at', { withTimezone: true }).notNull(),
    orbitDirection: text('orbit_direction', { enum: ['ascending', 'descending'] }).notNull(),
    mode: text('mode').notNull(),
    polarisation: text('polarisation').notNull(),
    footprint: jsonb('footprint').$type<StoredGeometry>().notNull(),
    ...bbox(),
    status: text('status', { enum: ['planned', 'acquired', 'processing', 'delivered', 'failed'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('acquisitions_enterprise_product_idx').on(t.enterpriseId, t.productId), index('acquisitions_enterprise_time_idx').on(t.enterpriseId, t.acquiredAt)],
);

/** The POIs made from one acquisition for one project, imported together. */
export const deliveries = pgTable(
  'deliveries',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    acquisitionId: integer('acquisition_id').references(() => acquisitions.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    fileName: text('file_name'),
    poiCount: integer('poi_count').notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('deliveries_project_idx').on(t.enterpriseId, t.projectId)],
);

/** Pipe length inside a POI by network type, with the count and the first pipe ids. */
export interface PoiPipes {
  lengthM: Record<string, number>;
  count: number;
  pipeIds: string[];
}

/** What the crew found at a POI. */
export interface PoiFinding {
  leakType?: string;
  surfacing?: boolean;
  pipeMaterial?: string;
  pipeDiameterMm?: number;
  flowM3h?: number;
  depthM?: number;
  notes?: string;
}

/** A Point of Interest: where a leak is likely (a circle of about 100 m), and the field work on it. */
export const pois = pgTable(
  'pois',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    poiNo: text('poi_no').notNull(),
    geometry: jsonb('geometry').$type<StoredGeometry>().notNull(),
    centerLon: doublePrecision('center_lon').notNull(),
    centerLat: doublePrecision('center_lat').notNull(),
    radiusM: doublePrecision('radius_m'),
    ...bbox(),
    priority: text('priority', { enum: ['high', 'medium', 'low'] }).notNull().default('medium'),
    estimatedLeakM3h: doublePrecision('estimated_leak_m3h'),
    pipes: jsonb('pipes').$type<PoiPipes>().notNull(),
    status: text('status', { enum: ['new', 'assigned', 'investigating', 'leakFound', 'noLeak', 'repaired'] }).notNull().default('new'),
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    dueDate: date('due_date', { mode: 'string' }),
    finding: jsonb('finding').$type<PoiFinding>(),
    investigatedAt: timestamp('investigated_at', { withTimezone: true }),
    foundAt: timestamp('found_at', { withTimezone: true }),
    repairedAt: timestamp('repaired_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pois_delivery_no_idx').on(t.deliveryId, t.poiNo),
    index('pois_project_status_idx').on(t.enterpriseId, t.projectId, t.status),
    index('pois_box_idx').using('gist', bboxBox(t)),
  ],
);

/** Every change to a POI: who, when, what (the POI's history). */
export const poiEvents = pgTable(
  'poi_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    poiId: bigint('poi_id', { mode: 'number' })
      .notNull()
      .references(() => pois.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: ['imported', 'assign', 'start', 'finding', 'repair', 'reopen', 'photo'] }).notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('poi_events_poi_idx').on(t.poiId, t.at)],
);

/** A photo a crew took at a POI; the file lives under DATA_DIR/photos. */
export const poiPhotos = pgTable(
  'poi_photos',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    poiId: bigint('poi_id', { mode: 'number' })
      .notNull()
      .references(() => pois.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    mimetype: text('mimetype').notNull(),
    size: integer('size').notNull(),
    /** Relative to DATA_DIR. */
    path: text('path').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('poi_photos_poi_idx').on(t.poiId)],
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
