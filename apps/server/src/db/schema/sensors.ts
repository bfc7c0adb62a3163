/** Sensors in the ground: the devices, their readings (partitioned by month) and what was kept out of the series. */
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SensorKind, SensorState, SensorThresholds } from '@console/contract';
import { createdAt } from './common.ts';
import { enterprises } from './enterprises.ts';

/** A device: what it measures, where, the pipe it watches, its thresholds, and what it last read (kept by the ingest). */
export const sensorDevices = pgTable(
  'sensor_devices',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    kind: text('kind').$type<SensorKind>().notNull(),
    lon: doublePrecision('lon').notNull(),
    lat: doublePrecision('lat').notNull(),
    /** The watched pipe's id (pipes are partitioned: no foreign key; a removed pipe leaves the id). */
    pipeId: text('pipe_id'),
    pipeDistanceM: doublePrecision('pipe_distance_m'),
    gateway: text('gateway'),
    intervalSeconds: integer('interval_seconds').notNull().default(60),
    thresholds: jsonb('thresholds').$type<SensorThresholds>().notNull().default({}),
    /** SHA-256 of the device's MQTT password (a random 128-bit secret); null: none made or revoked. */
    credentialHash: text('credential_hash'),
    /** The same password as Mosquitto's password file keeps it (PBKDF2-SHA512, mosquitto_passwd's format), for MOSQUITTO_PASSWORD_FILE. */
    brokerHash: text('broker_hash'),
    state: text('state').$type<SensorState>().notNull().default('new'),
    stateSince: timestamp('state_since', { withTimezone: true }).notNull().defaultNow(),
    lastValue: doublePrecision('last_value'),
    lastAt: timestamp('last_at', { withTimezone: true }),
    /** The last fall faster than its thresholds' dropPerMinute: when, and by how much per minute. */
    dropAt: timestamp('drop_at', { withTimezone: true }),
    dropPerMinute: doublePrecision('drop_per_minute'),
    /** Readings kept out of its series, every reason (the reasons in sensor_refusals). */
    refused: bigint('refused', { mode: 'number' }).notNull().default(0),
    /** A device of the demo city: its readings are made up by the server (modules/sensors/simulator.ts). */
    simulated: boolean('simulated').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sensor_devices_code_idx').on(t.enterpriseId, t.code),
    index('sensor_devices_state_idx').on(t.enterpriseId, t.state),
    index('sensor_devices_pipe_idx').on(t.enterpriseId, t.pipeId),
  ],
);

/**
 * One reading in the device's kept unit. Partitioned by month (migration 0049: the ingest makes a
 * month's partition when its first reading comes), so a month's readings are dropped or archived whole.
 */
export const sensorReadings = pgTable(
  'sensor_readings',
  {
    deviceId: integer('device_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    value: doublePrecision('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.at] })],
);

/** Messages and readings kept out of the series, per enterprise, device code (known or not) and reason. */
export const sensorRefusals = pgTable(
  'sensor_refusals',
  {
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    reason: text('reason').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    sample: text('sample'),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.code, t.reason] })],
);

/**
 * The servers taking readings through a shared subscription, each seen every few seconds: a server
 * that stops leaves the share to the others only when another is there (modules/sensors/ingest.ts),
 * so the last one keeps its session subscribed and the broker keeps what comes meanwhile.
 */
export const sensorIngestNodes = pgTable('sensor_ingest_nodes', {
  clientId: text('client_id').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
});
