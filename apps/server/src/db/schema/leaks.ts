/** Satellite leak detection: acquisitions, POI deliveries, POIs and their field work. */
import { bigint, bigserial, date, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { type StoredGeometry, bbox, bboxBox, createdAt } from './common.ts';
import { users } from './users.ts';
import { keptFileColumns } from './files.ts';
import { enterprises } from './enterprises.ts';
import { projects } from './projects.ts';

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
    ...keptFileColumns(),
  },
  (t) => [index('poi_photos_poi_idx').on(t.poiId)],
);
