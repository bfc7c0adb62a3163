/** Weather: the places an enterprise keeps weather for, their hours (observed and forecast) and the warnings. */
import { type AnyPgColumn, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AreaGeometry, WarningLevel } from '@console/contract';
import { createdAt } from './common.ts';
import { enterprises } from './enterprises.ts';
import { projects } from './projects.ts';

/** A station, or a project's area, whose weather is kept. */
export const weatherPlaces = pgTable(
  'weather_places',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    /** The station's id, or the name a file's place is known by. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    lon: doublePrecision('lon').notNull(),
    lat: doublePrecision('lat').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('weather_places_code_idx').on(t.enterpriseId, t.code)],
);

/** One hour at a place: observed, or forecast (the latest forecast for that hour). */
export const weatherHours = pgTable(
  'weather_hours',
  {
    placeId: integer('place_id')
      .notNull()
      .references(() => weatherPlaces.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['observed', 'forecast'] }).notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    precipitation: doublePrecision('precipitation'),
    temperature: doublePrecision('temperature'),
    windSpeed: doublePrecision('wind_speed'),
    windGust: doublePrecision('wind_gust'),
  },
  (t) => [primaryKey({ columns: [t.placeId, t.kind, t.time] })],
);

/** What a warning touches: the pipes and risk-prone areas inside its area that the weather puts at risk. */
export interface WarningTouches {
  /** why: drainage under heavy rain, or water pipes laid shallow under a cold wave. */
  pipes: { networkType: string; count: number; lengthM: number; why: 'drainageUnderRain' | 'shallowWater' }[];
  /** why: a waterlogging point's rain trigger met (the rain and the trigger), or ground rain washes out. */
  riskAreas: { id: number; name: string; kind: string; why: 'triggerMet' | 'washOut'; rainMm?: number; hours?: number; triggerMm?: number }[];
  sites: { id: number; siteNo: string; name: string }[];
}

/** One message of an official warning as it came (issue, update or cancellation). */
export interface WarningUpdate {
  identifier: string;
  msgType: 'Alert' | 'Update' | 'Cancel';
  sent: string;
  level: WarningLevel | null;
  expires: string;
  headline: string | null;
}

/**
 * A warning signal: derived from a place's hours by the CMA rules, or an official one (CAP). An
 * official warning is its first issue, its updates and cancellation applied to it and listed.
 */
export const weatherWarnings = pgTable(
  'weather_warnings',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    placeId: integer('place_id').references(() => weatherPlaces.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['derived', 'official'] }).notNull(),
    /** Observed or forecast hours (derived warnings). */
    basis: text('basis', { enum: ['observed', 'forecast'] }),
    /** 'other': an official warning of a kind the console keeps but does not weigh (fog, thunder...). */
    type: text('type', { enum: ['rainstorm', 'coldWave', 'gale', 'heat', 'other'] }).notNull(),
    /** Null only for an official warning of another kind that gives no level. */
    level: text('level', { enum: ['I', 'II', 'III', 'IV'] }).$type<WarningLevel>(),
    start: timestamp('start', { withTimezone: true }).notNull(),
    end: timestamp('end', { withTimezone: true }).notNull(),
    value: doublePrecision('value'),
    rule: text('rule'),
    /** Each rise in level after the first issue, with when it came. */
    levels: jsonb('levels').$type<{ level: WarningLevel; at: string }[]>().notNull(),
    area: jsonb('area').$type<AreaGeometry>().notNull(),
    touches: jsonb('touches').$type<WarningTouches>().notNull(),
    /** Official warnings: the first issue's CAP identity and words. */
    identifier: text('identifier'),
    sender: text('sender'),
    senderName: text('sender_name'),
    event: text('event'),
    headline: text('headline'),
    description: text('description'),
    instruction: text('instruction'),
    areaDesc: text('area_desc'),
    /** The messages of an official warning, first issue first. */
    updates: jsonb('updates').$type<WarningUpdate[]>().notNull().default([]),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('weather_warnings_enterprise_idx').on(t.enterpriseId, t.start)],
);

/** Every CAP message kept, by its sender and identifier, and the warning (first issue) it belongs to. */
export const weatherWarningMessages = pgTable(
  'weather_warning_messages',
  {
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    sender: text('sender').notNull(),
    identifier: text('identifier').notNull(),
    warningId: integer('warning_id')
      .notNull()
      .references((): AnyPgColumn => weatherWarnings.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.sender, t.identifier] })],
);

/**
 * Where an enterprise's weather comes from: files (uploads, the default) or an Open-Meteo-compatible
 * service fetched on a schedule. The lease lets one server instance fetch at a time.
 */
export const weatherSources = pgTable('weather_sources', {
  enterpriseId: integer('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['files', 'openMeteo'] }).notNull().default('files'),
  url: text('url'),
  everyMinutes: integer('every_minutes').notNull().default(60),
  lastFetchAt: timestamp('last_fetch_at', { withTimezone: true }),
  lastError: text('last_error'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  leaseOwner: text('lease_owner'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
