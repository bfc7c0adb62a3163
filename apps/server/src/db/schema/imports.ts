/** Import jobs of every kind and their reports. */
import { IMPORT_STATUSES, RUNNING_IMPORT_STATUSES, type UnknownWord } from '@console/contract';
import { sql } from 'drizzle-orm';
import { bigint, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './common.ts';
import { users } from './users.ts';
import { enterprises } from './enterprises.ts';

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
    kind: text('kind', { enum: ['pipes', 'pois', 'acquisitions', 'settlement', 'sites', 'riskAreas', 'sensitiveSites', 'sensors'] }).notNull(),
    status: text('status', { enum: IMPORT_STATUSES }).notNull(),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    /** Folder under DATA_DIR holding the upload (removed when the job ends, fails or is left unstarted). */
    workDir: text('work_dir').notNull(),
    /** What the folder holds on disk (the upload and a zip's unpacked files): counted against the enterprise's quota while the job is pending. */
    diskBytes: bigint('disk_bytes', { mode: 'number' }).notNull().default(0),
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
    /** Words of the file no table or remembered answer knows: the job went back to the mapping step to ask. */
    unknownWords: jsonb('unknown_words').$type<UnknownWord[]>().notNull().default([]),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    /**
     * Touched while the job runs: a running job not touched for long was cut off by a stopped
     * server. An analysed job's last step (its upload, or its return to ask for words): left for an
     * hour, its upload goes.
     */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('import_jobs_enterprise_idx').on(t.enterpriseId, t.createdAt),
    // One running job per enterprise and kind, held by the database: two starts at once cannot
    // both pass a check made before either writes (two replaces of one network would race).
    uniqueIndex('import_jobs_one_running_idx').on(t.enterpriseId, t.kind).where(sql`${t.status} in (${sql.raw(RUNNING_IMPORT_STATUSES.map((s) => `'${s}'`).join(', '))})`),
  ],
);

/** What a finished import did; extent: [minLon, minLat, maxLon, maxLat] of what it wrote. */
export interface ImportResult {
  inserted: number;
  updated: number;
  deleted: number;
  extent: [number, number, number, number] | null;
  /** The delivery a POI import made. */
  deliveryId?: number;
  /** The dataset a settlement import made. */
  datasetId?: number;
}

export interface ImportProblemRecord {
  row: number | null;
  featureId: string | null;
  field: string | null;
  reason: { 'zh-CN': string; 'en-US': string };
}

/**
 * The enterprise's own words for our values (a register's 地铁建设 for "metro" once no table knew
 * it): asked once by an import, remembered for every later one. The word is kept normalised
 * (contract normalWord); the field and value are checked against the contract's lists.
 */
export const importWords = pgTable(
  'import_words',
  {
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    field: text('field').notNull(),
    word: text('word').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.field, t.word] })],
);
