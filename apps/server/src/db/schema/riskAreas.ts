/** Risk-prone areas (waterlogging points, voids, collapses, hazard and subsidence zones), their history and files. */
import { doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { pipeSetTable } from './pipelines.ts';
import type { RiskAreaPipes } from '@console/contract';
import { bbox, bboxBox, createdAt } from './common.ts';
import { enterprises } from './enterprises.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';
import { keptFileColumns } from './files.ts';

/** A point or polygon where pipes are at risk, with its level, trigger, who answers for it and the pipes it holds. */
export const riskAreas = pgTable(
  'risk_areas',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['waterlogging', 'void', 'collapse', 'geoHazard', 'subsidence'] }).notNull(),
    level: text('level', { enum: ['I', 'II', 'III', 'IV'] }).notNull(),
    /** A GeoJSON Point, Polygon or MultiPolygon in WGS84. */
    geometry: jsonb('geometry').$type<{ type: 'Point'; coordinates: number[] } | { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] }>().notNull(),
    ...bbox(),
    bufferM: doublePrecision('buffer_m').notNull(),
    cause: text('cause'),
    triggerRainMm: doublePrecision('trigger_rain_mm'),
    triggerHours: doublePrecision('trigger_hours'),
    voidAreaM2: doublePrecision('void_area_m2'),
    burialDepthM: doublePrecision('burial_depth_m'),
    clearHeightM: doublePrecision('clear_height_m'),
    source: text('source', { enum: ['survey', 'report', 'insar', 'manual'] }).notNull(),
    responsibleUnit: text('responsible_unit'),
    responsiblePerson: text('responsible_person'),
    responsiblePhone: text('responsible_phone'),
    notes: text('notes'),
    status: text('status', { enum: ['identified', 'remediating', 'remediated'] }).notNull().default('identified'),
    pipes: jsonb('pipes').$type<RiskAreaPipes>(),
    /** Network types with a pipe inside or within the buffer, for the list's filter. */
    networks: text('networks').array().notNull().default([]),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('risk_areas_enterprise_idx').on(t.enterpriseId, t.kind, t.level), index('risk_areas_box_idx').using('gist', bboxBox(t))],
);

/** Every pipe inside an area or within its buffer, with its distance (0 inside; pipelines.ts pipeSetTable). */
export const areaPipes = pipeSetTable('area_pipes', 'area_id', () => riskAreas.id);

export const riskAreaEvents = pgTable(
  'risk_area_events',
  {
    id: serial('id').primaryKey(),
    areaId: integer('area_id')
      .notNull()
      .references(() => riskAreas.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: ['created', 'imported', 'edited', 'start', 'finish', 'reopen', 'file'] }).notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('risk_area_events_area_idx').on(t.areaId, t.at)],
);

/** A file of an area (radar image, photo, survey report); under DATA_DIR/attachments. */
export const riskAreaFiles = pgTable(
  'risk_area_files',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    areaId: integer('area_id')
      .notNull()
      .references(() => riskAreas.id, { onDelete: 'cascade' }),
    ...keptFileColumns(),
  },
  (t) => [index('risk_area_files_area_idx').on(t.areaId)],
);
