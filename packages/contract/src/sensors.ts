import { z } from 'zod';
import { optionalNumber, optionalText, requiredText } from './fields.ts';
import { fieldMapping, importSrid, wordAnswers } from './imports.ts';
import type { RiskLevel } from './riskAreas.ts';

/**
 * Sensors in the ground: combustible gas in wells and utility tunnels, pressure and flow on the
 * networks, level in drainage wells, tilt of well covers, temperature. Each device publishes its
 * readings over MQTT to `sensors/<enterprise id>/<device code>` (DOMAIN: lifeline monitoring).
 */
export const SENSOR_KINDS = ['gas', 'pressure', 'flow', 'level', 'cover', 'temperature'] as const;
export type SensorKind = (typeof SENSOR_KINDS)[number];

/** The unit each kind's series is kept in. */
export const SENSOR_UNITS: Record<SensorKind, string> = {
  gas: '%LEL',
  pressure: 'MPa',
  flow: 'm³/h',
  level: 'm',
  cover: '°',
  temperature: '°C',
};

/**
 * Units a reading may come in, by kind, with the factor and offset that turn it into the kept
 * unit (value * factor + offset). Written as devices write them, case kept where it matters.
 */
export const SENSOR_UNIT_SYNONYMS: Record<SensorKind, Record<string, [number, number]>> = {
  gas: { '%LEL': [1, 0], '%lel': [1, 0], 'LEL%': [1, 0], 'LEL': [1, 0], '%': [1, 0] },
  pressure: { MPa: [1, 0], mpa: [1, 0], kPa: [0.001, 0], kpa: [0.001, 0], Pa: [1e-6, 0], bar: [0.1, 0], psi: [0.00689476, 0] },
  flow: { 'm³/h': [1, 0], 'm3/h': [1, 0], 'm3/s': [3600, 0], 'm³/s': [3600, 0], 'L/s': [3.6, 0], 'l/s': [3.6, 0], 'L/min': [0.06, 0] },
  level: { m: [1, 0], cm: [0.01, 0], mm: [0.001, 0] },
  cover: { '°': [1, 0], deg: [1, 0], rad: [180 / Math.PI, 0] },
  temperature: { '°C': [1, 0], Cel: [1, 0], C: [1, 0], '℃': [1, 0], '°F': [5 / 9, -160 / 9], F: [5 / 9, -160 / 9], K: [1, -273.15] },
};

/** What each kind can physically read, in its kept unit: outside it the device is at fault, not the ground. */
export const SENSOR_POSSIBLE: Record<SensorKind, [number, number]> = {
  gas: [0, 100],
  pressure: [-0.1, 10],
  flow: [-100_000, 100_000],
  level: [-2, 50],
  cover: [0, 180],
  temperature: [-50, 150],
};

/**
 * Thresholds of one device: a warning and an alarm bound above, below, or both, and the band a
 * reading must come back past before the state clears (hysteresis), so a value hovering at a bound
 * does not raise and clear alerts all day; and a fall per minute that is an alarm of its own (a
 * pressure drop on a main).
 */
export const sensorThresholds = z.object({
  aboveWarning: optionalNumber(z.number().finite()),
  aboveAlarm: optionalNumber(z.number().finite()),
  belowWarning: optionalNumber(z.number().finite()),
  belowAlarm: optionalNumber(z.number().finite()),
  hysteresis: optionalNumber(z.number().finite().min(0)),
  dropPerMinute: optionalNumber(z.number().finite().positive()),
});
export type SensorThresholds = z.infer<typeof sensorThresholds>;

/**
 * Default thresholds per kind. Gas: the low alarm at 25 % LEL and the high at 50 % LEL, as
 * GB/T 50493 sets them at most; the others are the utility's to set (these are a start).
 */
export const DEFAULT_SENSOR_THRESHOLDS: Record<SensorKind, SensorThresholds> = {
  gas: { aboveWarning: 25, aboveAlarm: 50, hysteresis: 5 },
  pressure: { belowWarning: 0.2, belowAlarm: 0.15, hysteresis: 0.02, dropPerMinute: 0.05 },
  flow: {},
  level: { aboveWarning: 2, aboveAlarm: 3, hysteresis: 0.2 },
  cover: { aboveWarning: 10, aboveAlarm: 30, hysteresis: 3 },
  temperature: {},
};

/** A device's state: what its last reading says, or that it has gone silent or reads the impossible. */
export const SENSOR_STATES = ['new', 'normal', 'warning', 'alarm', 'silent', 'fault'] as const;
export type SensorState = (typeof SENSOR_STATES)[number];
/** The alert level each state raises (a gas alarm is the gravest: an explosive mixture nears). */
export const SENSOR_STATE_LEVEL: Partial<Record<SensorState, RiskLevel>> = { warning: 'III', alarm: 'II', silent: 'IV', fault: 'IV' };

/** Why a message or a reading was kept out of the series (counted per device, shown to admins). */
export const SENSOR_REFUSALS = ['tooLarge', 'unreadable', 'notANumber', 'future', 'tooOld', 'unit', 'impossible', 'duplicate', 'throttled', 'unknownDevice', 'revoked'] as const;
export type SensorRefusal = (typeof SENSOR_REFUSALS)[number];

/** A device code is part of its MQTT topic: letters, digits, '-', '_' and '.'. */
export const sensorCode = z
  .string()
  .trim()
  .min(1, { message: 'field.required' })
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, { message: 'sensor.code.format' });

export const sensorBody = z.object({
  code: sensorCode,
  name: requiredText(120),
  kind: z.enum(SENSOR_KINDS),
  lon: z.coerce.number().min(-180).max(180),
  lat: z.coerce.number().min(-90).max(90),
  /** The pipe it watches; found nearest when left out. */
  pipeId: optionalText(64),
  /** The gateway it reports through (devices silent behind one gateway are one incident). */
  gateway: optionalText(64),
  /** Seconds between readings; three missed make it silent. */
  intervalSeconds: z.coerce.number().int().min(1).max(86_400).default(60),
  thresholds: sensorThresholds.optional(),
});
export type SensorInput = z.infer<typeof sensorBody>;

/**
 * A device register (CSV/XLSX with lon/lat, GeoJSON, Shapefile, KML) through the import engine:
 * a device whose code the enterprise has is updated (its credentials, state and readings kept),
 * others are added; the kind is read from the register's words (可燃气体, 压力计, 液位 ...) and
 * asked for once when unknown.
 */
export const SENSOR_IMPORT_FIELDS = ['code', 'name', 'kind', 'gateway', 'intervalSeconds', 'pipeId', 'aboveWarning', 'aboveAlarm', 'belowWarning', 'belowAlarm', 'hysteresis', 'dropPerMinute'] as const;
export type SensorImportField = (typeof SENSOR_IMPORT_FIELDS)[number];
export const sensorImportStartBody = z.object({
  mapping: fieldMapping(SENSOR_IMPORT_FIELDS),
  /** The kind of rows whose kind field is empty (or of every row, when no field is mapped). */
  kind: z.enum(SENSOR_KINDS).optional(),
  intervalSeconds: z.coerce.number().int().min(1).max(86_400).default(60),
  srid: importSrid.optional(),
  words: wordAnswers,
});
export type SensorImportStart = z.infer<typeof sensorImportStartBody>;

export const sensorListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  keyword: optionalText(64),
  kind: z.enum(SENSOR_KINDS).optional(),
  state: z.enum(SENSOR_STATES).optional(),
  pipeId: optionalText(64),
});
export type SensorListQuery = z.infer<typeof sensorListQuery>;

/** A period of readings, drawn as at most `buckets` buckets of min / max / mean. */
export const SENSOR_PERIODS = ['1h', '24h', '7d', '30d'] as const;
export type SensorPeriod = (typeof SENSOR_PERIODS)[number];
export const SENSOR_PERIOD_MS: Record<SensorPeriod, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };
export const sensorSeriesQuery = z.object({
  period: z.enum(SENSOR_PERIODS).default('24h'),
  buckets: optionalNumber(z.number().int().min(10).max(1000)),
});

export interface SensorDevice {
  id: number;
  code: string;
  name: string;
  kind: SensorKind;
  unit: string;
  lon: number;
  lat: number;
  pipeId: string | null;
  /** Metres from the device to its pipe. */
  pipeDistanceM: number | null;
  gateway: string | null;
  intervalSeconds: number;
  thresholds: SensorThresholds;
  topic: string;
  state: SensorState;
  lastValue: number | null;
  lastAt: string | null;
  /** Readings kept out of its series, all reasons. */
  refused: number;
  /** Whether it holds credentials to publish with (made, not revoked). */
  hasCredentials: boolean;
  createdAt: string;
}

export interface SensorSeriesBucket {
  /** Start of the bucket, ISO. */
  at: string;
  min: number;
  max: number;
  mean: number;
  count: number;
}

export interface SensorSeries {
  period: SensorPeriod;
  bucketSeconds: number;
  buckets: SensorSeriesBucket[];
}

export interface SensorRefusalCount {
  /** The device's code as its topic named it (an unknown device too). */
  code: string;
  reason: SensorRefusal;
  count: number;
  lastAt: string;
  /** The start of the last such message, for the admin to see what came. */
  sample: string | null;
}

/** Credentials a device publishes with, shown once when made. */
export interface SensorCredentials {
  host: string;
  topic: string;
  username: string;
  password: string;
}

export interface SensorSummary {
  total: number;
  byState: Partial<Record<SensorState, number>>;
}
