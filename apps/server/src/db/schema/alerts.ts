/**
 * The alert loop: alerts raised by rules or by hand, gathered into incidents (alerts of one cause),
 * which are worked to closure; their append-only timelines, photos and settings.
 */
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

/**
 * How a piece of work stands: raised, first answered, dispatched to whom and by when, handled,
 * closed, supervised. The incident's are the truth; its alerts keep a copy written with each step.
 */
const workColumns = () => ({
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
});

/**
 * Alerts of one cause, worked as one: a settlement bowl, a site, a warning, a leak, a run of pipes
 * whose risk rose. It is dispatched, handled and closed once; its members follow its state.
 */
export const incidents = pgTable(
  'incidents',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    source: text('source').$type<AlertSource>().notNull(),
    /**
     * What its members share: 'site:<id>', 'warning:<id>', 'poi:<id>' (one open incident each),
     * 'bowl:<dataset id>' and 'riskRun' (one incident per cluster of nearby pipes), 'manual:<alert id>'.
     */
    groupKey: text('group_key').notNull(),
    /** The first member's subject (the console words the title from the source and the count). */
    subject: text('subject').notNull(),
    /** Its gravest member's. */
    level: text('level').$type<RiskLevel>().notNull(),
    state: text('state').$type<AlertState>().notNull().default('new'),
    /** One member's shape, or the hull of all of them. */
    geometry: jsonb('geometry').$type<{ type: string; coordinates: unknown }>().notNull(),
    lon: doublePrecision('lon').notNull(),
    lat: doublePrecision('lat').notNull(),
    ...bbox(),
    /** The members' pipes (the first 50 ids) and how many there are. */
    pipeIds: text('pipe_ids').array().notNull().default([]),
    pipeCount: integer('pipe_count').notNull().default(0),
    memberCount: integer('member_count').notNull().default(0),
    ...workColumns(),
  },
  (t) => [
    index('incidents_list_idx').on(t.enterpriseId, t.state, t.raisedAt),
    index('incidents_group_idx').on(t.enterpriseId, t.groupKey).where(OPEN_ALERT_SQL),
    index('incidents_assignee_idx').on(t.assigneeId, t.state),
    index('incidents_box_idx').using('gist', bboxBox(t)),
  ],
);

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
    ...workColumns(),
    /** When its rule stopped finding its object while it was open (null again if found again). */
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    /** The incident it belongs to (null only between its raise and the grouping that follows in the same check). */
    incidentId: integer('incident_id').references((): AnyPgColumn => incidents.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('alerts_incident_idx').on(t.incidentId),
    index('alerts_ungrouped_idx').on(t.enterpriseId).where(sql`incident_id is null`),
    // The rules insert with ON CONFLICT DO NOTHING: one alert per occurrence ever, one open alert per object and rule.
    uniqueIndex('alerts_occurrence_idx').on(t.enterpriseId, t.rule, t.objectKey, t.occurrence),
    uniqueIndex('alerts_open_object_idx')
      .on(t.enterpriseId, t.rule, t.objectKey)
      .where(OPEN_ALERT_SQL),
    index('alerts_list_idx').on(t.enterpriseId, t.state, t.raisedAt),
    index('alerts_box_idx').using('gist', bboxBox(t)),
  ],
);

/** An incident's timeline: its raise, members joining, escalations, every step and note. Rows are only ever added. */
export const incidentEvents = pgTable(
  'incident_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    incidentId: integer('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').$type<AlertAction>().notNull(),
    fromState: text('from_state').$type<AlertState>(),
    toState: text('to_state').$type<AlertState>().notNull(),
    note: text('note'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    /** Sent from a phone: the key it was sent with, so a replay after a lost answer records once. */
    idempotencyKey: text('idempotency_key'),
  },
  (t) => [index('incident_events_incident_idx').on(t.incidentId, t.at), uniqueIndex('incident_events_idempotency_idx').on(t.incidentId, t.idempotencyKey)],
);

/** An alert's timeline: its raise and escalations, and each step of its incident. Rows are only ever added. */
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
    /** The incident timeline entry it illustrates (the crew's report, a note). */
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => incidentEvents.id, { onDelete: 'cascade' }),
    ...keptFileColumns(),
    /** Sent from a phone: its key, so a photo sent again after a lost answer is kept once. */
    idempotencyKey: text('idempotency_key'),
  },
  (t) => [index('alert_photos_event_idx').on(t.eventId), uniqueIndex('alert_photos_idempotency_idx').on(t.eventId, t.idempotencyKey)],
);

export const alertSettings = pgTable('alert_settings', {
  enterpriseId: integer('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').$type<AlertSettings>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
