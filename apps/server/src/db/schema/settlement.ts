/** Settlement monitoring: InSAR point datasets, their grid cells, velocity bands, thresholds and pipe results. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { SettlementAnalysisSummary, SettlementCrossing, SettlementProfileBin, SettlementResultDetail } from '@console/contract';
import { bbox, createdAt } from './common.ts';
import { users } from './users.ts';
import { enterprises } from './enterprises.ts';
import { projects } from './projects.ts';
import { importJobs } from './imports.ts';

/** One delivery of InSAR points (a track and period of a provider's processing). */
export const settlementDatasets = pgTable(
  'settlement_datasets',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    /** importing: its points are being written and nobody reads them; ready: complete. */
    status: text('status', { enum: ['importing', 'ready'] }).notNull().default('importing'),
    name: text('name').notNull(),
    provider: text('provider'),
    sensor: text('sensor'),
    track: text('track'),
    orbit: text('orbit', { enum: ['ascending', 'descending'] }),
    direction: text('direction', { enum: ['los', 'vertical', 'eastWest'] }).notNull(),
    /** The reference the provider measured against: a point's id or a place ("stable area near ..."). */
    referencePoint: text('reference_point'),
    /** YYYY-MM-DD ascending; every point's displacement array follows it. */
    dates: jsonb('dates').$type<string[]>().notNull(),
    pointCount: integer('point_count').notNull().default(0),
    velocityMin: doublePrecision('velocity_min').notNull().default(0),
    velocityMax: doublePrecision('velocity_max').notNull().default(0),
    velocityMean: doublePrecision('velocity_mean').notNull().default(0),
    velocityStd: doublePrecision('velocity_std').notNull().default(0),
    ...bbox(),
    fileName: text('file_name').notNull(),
    importJobId: integer('import_job_id').references(() => importJobs.id, { onDelete: 'set null' }),
    analysisStatus: text('analysis_status', { enum: ['none', 'running', 'done', 'failed'] }).notNull().default('none'),
    analysedAt: timestamp('analysed_at', { withTimezone: true }),
    /** The analysis run whose results are read; a new run's rows are written beside it and then take over. */
    analysisRun: integer('analysis_run').notNull().default(0),
    /** The last run's figures and the thresholds it judged by, kept so lists read no results. */
    analysisSummary: jsonb('analysis_summary').$type<SettlementAnalysisSummary>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('settlement_datasets_enterprise_idx').on(t.enterpriseId)],
);

/**
 * The measured points, partitioned by dataset (migration 0013): an import writes a table of its
 * own by COPY and attaches it, so the indexes are built once in bulk, and deleting a dataset drops
 * its table. The displacement series is one int4 array per point, in hundredths of a millimetre at
 * each dataset date: as compact as float4, and the embedded database reads integers from COPY four
 * times faster than floats.
 */
export const settlementPoints = pgTable(
  'settlement_points',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    /** The partition key; no foreign key: a dataset's points go with its table (datasets/service.ts). */
    datasetId: integer('dataset_id').notNull(),
    pointId: text('point_id').notNull(),
    lon: doublePrecision('lon').notNull(),
    lat: doublePrecision('lat').notNull(),
    velocity: real('velocity').notNull(),
    velocityStd: real('velocity_std'),
    coherence: real('coherence'),
    height: real('height'),
    acceleration: real('acceleration'),
    /** Displacement at the last date: the cumulative settlement over the dataset's period. */
    cumulative: real('cumulative').notNull(),
    displacementHundredthMm: integer('displacement_hundredth_mm').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.datasetId, t.id] }), index('settlement_points_position_idx').using('gist', sql`point(${t.lon}, ${t.lat})`)],
);

/**
 * Points averaged per grid cell of a few sizes, made once at import: the map's view when zoomed
 * out, without reading the million points behind it.
 */
export const settlementCells = pgTable(
  'settlement_cells',
  {
    datasetId: integer('dataset_id')
      .notNull()
      .references(() => settlementDatasets.id, { onDelete: 'cascade' }),
    sizeM: smallint('size_m').notNull(),
    cx: integer('cx').notNull(),
    cy: integer('cy').notNull(),
    /** Mean position of the cell's points. */
    lon: doublePrecision('lon').notNull(),
    lat: doublePrecision('lat').notNull(),
    count: integer('count').notNull(),
    meanVelocity: real('mean_velocity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.datasetId, t.sizeM, t.cx, t.cy] })],
);

/** An enterprise's velocity bands (mm/yr), when it changed the defaults. */
export const settlementBands = pgTable('settlement_bands', {
  enterpriseId: integer('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  breaks: jsonb('breaks').$type<number[]>().notNull(),
  colors: jsonb('colors').$type<string[]>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Thresholds per project (project 0: the enterprise's own, for datasets without a project). */
export const settlementThresholds = pgTable(
  'settlement_thresholds',
  {
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').notNull(),
    velocityAlarm: doublePrecision('velocity_alarm').notNull(),
    cumulativeAlarm: doublePrecision('cumulative_alarm').notNull(),
    differentialAlarm: doublePrecision('differential_alarm').notNull(),
    warnRatio: doublePrecision('warn_ratio').notNull(),
    bufferM: doublePrecision('buffer_m').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.projectId] })],
);

/** What the last analysis of a dataset found for each pipe segment with points near it. */
export const settlementResults = pgTable(
  'settlement_results',
  {
    datasetId: integer('dataset_id')
      .notNull()
      .references(() => settlementDatasets.id, { onDelete: 'cascade' }),
    run: integer('run').notNull(),
    /** The pipe's row (no foreign key: a replaced network gets new rows and the analysis runs again). */
    pipeRowId: bigint('pipe_row_id', { mode: 'number' }).notNull(),
    pointCount: integer('point_count').notNull(),
    meanVelocity: real('mean_velocity').notNull(),
    minVelocity: real('min_velocity').notNull(),
    maxCumulative: real('max_cumulative').notNull(),
    differential: real('differential'),
    /** 0 none, 1 warn, 2 alarm: sorts the worst first. */
    level: smallint('level').notNull(),
    crossed: jsonb('crossed').$type<SettlementCrossing[]>().notNull(),
    profile: jsonb('profile').$type<SettlementProfileBin[]>().notNull(),
    points: jsonb('points').$type<SettlementResultDetail['points']>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.datasetId, t.run, t.pipeRowId] }), index('settlement_results_rank_idx').on(t.datasetId, t.run, t.level, t.minVelocity)],
);
