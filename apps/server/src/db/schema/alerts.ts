/** The alert loop: alerts raised by rules or by hand, their append-only timelines, photos and settings. */
import { sql, type SQL } from 'drizzle-orm';
import { bigint, bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { OPEN_ALERT_STATES, type AlertAction, type AlertRule, type AlertSettings, type AlertSource, type AlertState, type RiskLevel } from '@console/contract';
import { bbox, bboxBox } from './common.ts';
import { enterprises } from './enterprises.ts';
import { keptFileColumns } from './files.ts';
import { users } from './users.ts';

/** An alert still being worked (the contract's list; the partial index below is over it). */
export const OPEN_ALERT_SQL = sql.raw(`state in (${OPEN_ALERT_STATES.map((s) => `'${s}'`).join(', ')})`);
/** Gravest first: I, II, III, IV as 1..4 (for ORDER BY). */
export const levelOrder = (level: SQL | AnyPgColumn) => sql`array_position(array['I','II','III','IV'], ${level})`;

export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    source: text('source').$type<AlertSource>().notNull(),
    rule: text('rule').$type<AlertRule>().notNull(),
    /** The object watched: 'pipe:<pipe id>', 'site:<id>', 'warning:<id>', 'poi:<id>' (a hand-raised alert: its own id). */
    objectKey: text('object_key').notNull(),
    /** Which occurrence on the object (a dataset, the day a level was reached): one alert each, ever. */
    occurrence: text('occurrence').notNull().default(''),
    /** The object's id in its own table, for the console's link to it. */
    objectId: bigint('object_id', { mode: 'number' }),
    subject: text('subject').notNull(),
    level: text('level').$type<RiskLevel>().notNull(),
    state: text('state').$type<AlertState>().notNull().default('new'),
    value: doublePrecision('value'),
    unit: text('unit'),
    threshold: doublePrecision('threshold'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    geometry: jsonb('geometry').$type<{ type: string; coordinates: unknown }>().notNull(),
    lon: doublePrecision('lon').notNull(),
    lat: doublePrecision('lat').notNull(),
    ...bbox(),
    /** The affected pipes (the first 50 ids) and how many there are. */
    pipeIds: text('pipe_ids').array().notNull().default([]),
    pipeCount: integer('pipe_count').notNull().default(0),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    /** A person's first step on it (confirm, false alarm, dispatch). */
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
    organisation: text('organisation'),
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    deadline: timestamp('deadline', { withTimezone: true }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Formally supervised (挂牌督办). */
    supervised: boolean('supervised').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The rules insert with ON CONFLICT DO NOTHING: one alert per occurrence ever, one open alert per object and rule.
    uniqueIndex('alerts_occurrence_idx').on(t.enterpriseId, t.rule, t.objectKey, t.occurrence),
    uniqueIndex('alerts_open_object_idx')
      .on(t.enterpriseId, t.rule, t.objectKey)
      .where(OPEN_ALERT_SQL),
    index('alerts_list_idx').on(t.enterpriseId, t.state, t.raisedAt),
    index('alerts_box_idx').using('gist', bboxBox(t)),
  ],
);

/** An alert's timeline: every step, note and who took it. Rows are only ever added. */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alertId: integer('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').$type<AlertAction>().notNull(),
    fromState: text('from_state').$type<AlertState>(),
    toState: text('to_state').$type<AlertState>().notNull(),
    note: text('note'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('alert_events_alert_idx').on(t.alertId, t.at)],
);

export const alertPhotos = pgTable(
  'alert_photos',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => alertEvents.id, { onDelete: 'cascade' }),
    ...keptFileColumns(),
  },
  (t) => [index('alert_photos_event_idx').on(t.eventId)],
);

export const alertSettings = pgTable('alert_settings', {
  enterpriseId: integer('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').$type<AlertSettings>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
