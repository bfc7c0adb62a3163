/** Third-party construction sites near the pipes, their cases, watch logs and files. */
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { pipeSetTable } from './pipelines.ts';
import type { CriticalitySettings, SiteMeasure } from '@console/contract';
import { type StoredGeometry, bbox, bboxBox, createdAt } from './common.ts';
import { enterprises } from './enterprises.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';
import { keptFileColumns } from './files.ts';

/** A construction site: where, what is built, who builds it, its case and what it was measured to threaten. */
export const constructionSites = pgTable(
  'construction_sites',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    siteNo: text('site_no').notNull(),
    name: text('name').notNull(),
    buildType: text('build_type', { enum: ['metro', 'road', 'municipalRoad', 'stormSewer', 'building', 'other'] }).notNull(),
    /** The site's area; a point site is kept as its circle, with the centre and radius beside it. */
    geometry: jsonb('geometry').$type<StoredGeometry>().notNull(),
    centerLon: doublePrecision('center_lon').notNull(),
    centerLat: doublePrecision('center_lat').notNull(),
    radiusM: doublePrecision('radius_m'),
    ...bbox(),
    address: text('address'),
    district: text('district'),
    plannedStart: date('planned_start', { mode: 'string' }),
    plannedEnd: date('planned_end', { mode: 'string' }),
    actualStart: date('actual_start', { mode: 'string' }),
    actualEnd: date('actual_end', { mode: 'string' }),
    constructionUnit: text('construction_unit'),
    constructionContact: text('construction_contact'),
    constructionPhone: text('construction_phone'),
    supervisingUnit: text('supervising_unit'),
    supervisingContact: text('supervising_contact'),
    supervisingPhone: text('supervising_phone'),
    source: text('source', { enum: ['satellite', 'patrol', 'report', 'manual'] }).notNull(),
    detectedAt: date('detected_at', { mode: 'string' }),
    changeType: text('change_type'),
    buildState: text('build_state', { enum: ['notStarted', 'inProgress', 'completed'] }).notNull(),
    status: text('status', { enum: ['review', 'threat', 'noThreat', 'briefed', 'guarded', 'closed'] }).notNull().default('review'),
    /** Who gave the safety briefing and when; who guards the site. */
    briefedBy: text('briefed_by'),
    briefedAt: timestamp('briefed_at', { withTimezone: true }),
    guard: text('guard'),
    // The measurement against the pipes, and the figures the list filters and sorts on.
    measure: jsonb('measure').$type<SiteMeasure>(),
    nearestM: doublePrecision('nearest_m'),
    criticality: text('criticality', { enum: ['high', 'medium', 'low', 'none'] }).notNull().default('none'),
    insideGasProtection: boolean('inside_gas_protection').notNull().default(false),
    /** Network types with a pipe inside the corridor, for the "threatens" filter. */
    corridorNetworks: text('corridor_networks').array().notNull().default([]),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('construction_sites_no_idx').on(t.enterpriseId, t.siteNo),
    index('construction_sites_status_idx').on(t.enterpriseId, t.status, t.criticality),
    index('construction_sites_box_idx').using('gist', bboxBox(t)),
  ],
);

/** Every pipe inside a site's corridor, with its distance (pipelines.ts pipeSetTable). */
export const sitePipes = pipeSetTable('site_pipes', 'site_id', () => constructionSites.id);

/** Every step of a site's case and every change to it (the site's history). */
export const constructionEvents = pgTable(
  'construction_events',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => constructionSites.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: ['created', 'imported', 'edited', 'redetected', 'judge', 'brief', 'guard', 'watch', 'close', 'reopen', 'file'] }).notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('construction_events_site_idx').on(t.siteId, t.at)],
);

/** An entry of a guarded site's watch log. */
export const constructionWatchLogs = pgTable(
  'construction_watch_logs',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => constructionSites.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    person: text('person').notNull(),
    remark: text('remark').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('construction_watch_logs_site_idx').on(t.siteId, t.at)],
);

/** A file of a site (protection plan, agreement, photo) or of one watch log entry (photos); under DATA_DIR/attachments. */
export const constructionFiles = pgTable(
  'construction_files',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => constructionSites.id, { onDelete: 'cascade' }),
    watchLogId: integer('watch_log_id').references(() => constructionWatchLogs.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['plan', 'agreement', 'photo'] }).notNull(),
    ...keptFileColumns(),
  },
  (t) => [index('construction_files_site_idx').on(t.siteId), index('construction_files_log_idx').on(t.watchLogId)],
);

/** An enterprise's criticality matrix and corridor, when it changed the defaults. */
export const constructionSettings = pgTable('construction_settings', {
  enterpriseId: integer('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').$type<CriticalitySettings>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
