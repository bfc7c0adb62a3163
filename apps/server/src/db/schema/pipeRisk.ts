/** Composite pipe risk: each segment's latest assessment, the changes of level over time, the runs and the weights. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { RiskLevel, RiskWeights, SensitiveKind } from '@console/contract';
import { bbox, bboxBox, createdAt } from './common.ts';
import { enterprises } from './enterprises.ts';

/**
 * A segment's latest assessment: each factor's 1-5 score, likelihood, consequence, R and level.
 * Keyed by the pipe's row (no foreign key: a replaced network gets new rows and is assessed again).
 * Each enterprise's assessment is a partition of its own (migration 0043): an assessment loads a
 * new one, indexes it whole and swaps it in (modules/pipeRisk/assess.ts).
 */
export const pipeRisks = pgTable(
  'pipe_risks',
  {
    pipeRowId: bigint('pipe_row_id', { mode: 'number' }).notNull(),
    enterpriseId: integer('enterprise_id').notNull(),
    ageMaterial: smallint('age_material').notNull(),
    diameter: smallint('diameter').notNull(),
    leaks: smallint('leaks').notNull(),
    settlement: smallint('settlement').notNull(),
    construction: smallint('construction').notNull(),
    riskAreas: smallint('risk_areas').notNull(),
    weather: smallint('weather').notNull(),
    medium: smallint('medium').notNull(),
    size: smallint('size').notNull(),
    /** Nearness to a sensitive site (added later: rows assessed before it score 1). */
    sensitive: smallint('sensitive').notNull().default(1),
    likelihood: smallint('likelihood').notNull(),
    consequence: smallint('consequence').notNull(),
    score: smallint('score').notNull(),
    /**
     * L × C of the unrounded weighted means (1-25): orders and shades the segments within one R, so
     * half a network at level III is not one undivided block.
     */
    riskIndex: real('risk_index').notNull().default(0),
    /** The share (%) of the enterprise's segments of the same level this one ranks above (by R, then the index). */
    percentile: real('percentile').notNull().default(0),
    level: text('level', { enum: ['I', 'II', 'III', 'IV'] }).$type<RiskLevel>().notNull(),
    /** A factor at its maximum: flagged whatever the total (a sum can mask one bad factor). */
    masked: boolean('masked').notNull(),
    assessedOn: date('assessed_on').notNull(),
    /** The day the segment reached its current level. */
    since: date('since').notNull(),
  },
  // The list's order (worst first); a level is a range of R, so the same index serves its filter.
  // The key holds the partition's column, the pipe's row first so a look-up by it alone still finds it.
  (t) => [primaryKey({ columns: [t.pipeRowId, t.enterpriseId] }), index('pipe_risks_score_idx').on(t.enterpriseId, t.score, t.riskIndex, t.pipeRowId)],
);

/** A segment's level changed from one assessment to the next. */
export const pipeRiskChanges = pgTable(
  'pipe_risk_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: integer('enterprise_id').notNull(),
    pipeRowId: bigint('pipe_row_id', { mode: 'number' }).notNull(),
    changedOn: date('changed_on').notNull(),
    fromLevel: text('from_level').$type<RiskLevel>().notNull(),
    toLevel: text('to_level').$type<RiskLevel>().notNull(),
  },
  (t) => [index('pipe_risk_changes_pipe_idx').on(t.pipeRowId, t.changedOn)],
);

/** One assessment of an enterprise's network: when, how long, what it found. */
export const pipeRiskRuns = pgTable(
  'pipe_risk_runs',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['running', 'succeeded', 'failed'] }).notNull(),
    reason: text('reason').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    segments: integer('segments'),
    levels: jsonb('levels').$type<Record<RiskLevel, number>>(),
    byNetwork: jsonb('by_network').$type<Record<string, Record<RiskLevel, number>>>(),
    masked: integer('masked'),
    changed: integer('changed'),
    weights: jsonb('weights').$type<RiskWeights>().notNull(),
    error: text('error'),
  },
  // One running assessment per enterprise, whichever instance starts it: the insert is the lock.
  (t) => [index('pipe_risk_runs_enterprise_idx').on(t.enterpriseId, t.startedAt), uniqueIndex('pipe_risk_runs_running_idx').on(t.enterpriseId).where(sql`status = 'running'`)],
);

export const pipeRiskSettings = pgTable('pipe_risk_settings', {
  enterpriseId: integer('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  weights: jsonb('weights').$type<RiskWeights>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The enterprise's sensitive sites (schools, hospitals, stations...): a layer it imports whole. */
export const sensitiveSites = pgTable(
  'sensitive_sites',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<SensitiveKind>().notNull(),
    lon: doublePrecision('lon').notNull(),
    lat: doublePrecision('lat').notNull(),
    ...bbox(),
    createdAt: createdAt(),
  },
  (t) => [index('sensitive_sites_box_idx').using('gist', bboxBox(t)), index('sensitive_sites_enterprise_idx').on(t.enterpriseId)],
);
