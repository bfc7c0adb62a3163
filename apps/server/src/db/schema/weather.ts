/** Weather: the places an enterprise keeps weather for, their hours (observed and forecast) and the warnings. */
import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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

/** A warning signal: derived from a place's hours by the CMA rules, or an official one (CAP). */
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
    type: text('type', { enum: ['rainstorm', 'coldWave', 'gale', 'heat'] }).notNull(),
    level: text('level', { enum: ['I', 'II', 'III', 'IV'] }).$type<WarningLevel>().notNull(),
    start: timestamp('start', { withTimezone: true }).notNull(),
    end: timestamp('end', { withTimezone: true }).notNull(),
    value: doublePrecision('value'),
    rule: text('rule'),
    /** Each rise in level after the first issue, with when it came. */
    levels: jsonb('levels').$type<{ level: WarningLevel; at: string }[]>().notNull(),
    area: jsonb('area').$type<AreaGeometry>().notNull(),
    touches: jsonb('touches').$type<WarningTouches>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('weather_warnings_enterprise_idx').on(t.enterpriseId, t.start)],
);
