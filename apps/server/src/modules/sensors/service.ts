import { randomBytes } from 'node:crypto';
import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_SENSOR_THRESHOLDS,
  SENSOR_PERIOD_MS,
  SENSOR_UNITS,
  type NetworkType,
  type SensorDevice,
  type SensorInput,
  type SensorKind,
  type SensorListQuery,
  type SensorPeriod,
  type SensorRefusalCount,
  type SensorSeries,
  type SensorSummary,
  type SensorThresholds,
} from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { likePattern } from '../../db/like.ts';
import { sensorDevices, sensorRefusals } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { pipesNear } from '../pipelines/nearby.ts';
import { deviceUser, hashSecret, mosquittoHash } from './credentials.ts';
import { sensorTopic } from './ingest.ts';

/** The networks a kind of device is put on, in order of preference, when its nearest pipe is found. */
const KIND_NETWORKS: Record<SensorKind, NetworkType[]> = {
  gas: ['gas'],
  pressure: ['water', 'gas', 'heat'],
  flow: ['water', 'heat', 'drainage'],
  level: ['drainage'],
  cover: ['drainage', 'water', 'gas', 'telecom', 'power', 'heat'],
  temperature: ['heat', 'water'],
};
/** How far a device's pipe may be when it is found for it. */
const PIPE_SEARCH_M = 100;

const deviceColumns = {
  id: sensorDevices.id,
  code: sensorDevices.code,
  name: sensorDevices.name,
  kind: sensorDevices.kind,
  lon: sensorDevices.lon,
  lat: sensorDevices.lat,
  pipeId: sensorDevices.pipeId,
  pipeDistanceM: sensorDevices.pipeDistanceM,
  gateway: sensorDevices.gateway,
  intervalSeconds: sensorDevices.intervalSeconds,
  thresholds: sensorDevices.thresholds,
  state: sensorDevices.state,
  lastValue: sensorDevices.lastValue,
  lastAt: sensorDevices.lastAt,
  refused: sensorDevices.refused,
  hasCredentials: sql<boolean>`${sensorDevices.credentialHash} is not null`,
  simulated: sensorDevices.simulated,
  enterpriseId: sensorDevices.enterpriseId,
  createdAt: sensorDevices.createdAt,
};

type DeviceRow = { [K in keyof typeof deviceColumns]: unknown };

function toDevice(row: DeviceRow): SensorDevice & { simulated: boolean } {
  const iso = (v: unknown) => (v === null ? null : new Date(v as string).toISOString());
  return {
    id: Number(row.id),
    code: row.code as string,
    name: row.name as string,
    kind: row.kind as SensorKind,
    unit: SENSOR_UNITS[row.kind as SensorKind],
    lon: Number(row.lon),
    lat: Number(row.lat),
    pipeId: row.pipeId as string | null,
    pipeDistanceM: row.pipeDistanceM === null ? null : Number(row.pipeDistanceM),
    gateway: row.gateway as string | null,
    intervalSeconds: Number(row.intervalSeconds),
    thresholds: row.thresholds as SensorThresholds,
    topic: sensorTopic(Number(row.enterpriseId), row.code as string),
    state: row.state as SensorDevice['state'],
    lastValue: row.lastValue === null ? null : Number(row.lastValue),
    lastAt: iso(row.lastAt),
    refused: Number(row.refused),
    hasCredentials: Boolean(row.hasCredentials),
    simulated: Boolean(row.simulated),
    createdAt: iso(row.createdAt)!,
  };
}

function conditions(enterpriseId: number, q: Omit<SensorListQuery, 'page' | 'pageSize'>): SQL {
  const where: (SQL | undefined)[] = [eq(sensorDevices.enterpriseId, enterpriseId)];
  if (q.kind) where.push(eq(sensorDevices.kind, q.kind));
  if (q.state) where.push(eq(sensorDevices.state, q.state));
  if (q.pipeId) where.push(eq(sensorDevices.pipeId, q.pipeId));
  if (q.keyword) {
    const pattern = likePattern(q.keyword);
    where.push(or(ilike(sensorDevices.code, pattern), ilike(sensorDevices.name, pattern), ilike(sensorDevices.pipeId, pattern), ilike(sensorDevices.gateway, pattern)));
  }
  return and(...where)!;
}

/** A page of the enterprise's devices (worst state first, then by code), with the total. */
export async function listSensors(db: Db, enterpriseId: number, q: SensorListQuery) {
  const where = conditions(enterpriseId, q);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(sensorDevices).where(where);
  const rows = await db
    .select(deviceColumns)
    .from(sensorDevices)
    .where(where)
    .orderBy(sql`array_position(array['alarm', 'fault', 'warning', 'silent', 'new', 'normal'], ${sensorDevices.state})`, asc(sensorDevices.code))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { list: rows.map(toDevice), total: Number(total), page: q.page, pageSize: q.pageSize };
}

/** Every device of the enterprise with its place and state, for the map (a few thousand at most per city). */
export async function sensorPlaces(db: Db, enterpriseId: number, limit = 20_000) {
  const rows = await db.select(deviceColumns).from(sensorDevices).where(eq(sensorDevices.enterpriseId, enterpriseId)).orderBy(asc(sensorDevices.id)).limit(limit);
  return rows.map(toDevice);
}

export async function sensorSummary(db: Db, enterpriseId: number): Promise<SensorSummary> {
  const rows = await db.select({ state: sensorDevices.state, n: sql<number>`count(*)::int` }).from(sensorDevices).where(eq(sensorDevices.enterpriseId, enterpriseId)).groupBy(sensorDevices.state);
  return { total: rows.reduce((sum, r) => sum + Number(r.n), 0), byState: Object.fromEntries(rows.map((r) => [r.state, Number(r.n)])) };
}

export async function getSensor(db: Db, enterpriseId: number, id: number) {
  const [row] = await db.select(deviceColumns).from(sensorDevices).where(and(eq(sensorDevices.enterpriseId, enterpriseId), eq(sensorDevices.id, id)));
  if (!row) throw new AppError(404, 'notFound.sensor');
  return toDevice(row);
}

/** The first threshold out of the order its meaning needs (an alarm above lies above the warning, below lies below it), or null. */
export function thresholdProblem(t: SensorThresholds): 'aboveAlarm' | 'belowAlarm' | null {
  if (t.aboveWarning !== undefined && t.aboveAlarm !== undefined && t.aboveAlarm < t.aboveWarning) return 'aboveAlarm';
  if (t.belowWarning !== undefined && t.belowAlarm !== undefined && t.belowAlarm > t.belowWarning) return 'belowAlarm';
  return null;
}

function checkThresholds(t: SensorThresholds) {
  const field = thresholdProblem(t);
  if (field) throw new AppError(400, 'sensor.thresholdOrder', { field });
}

type Placed = { pipeId: string | null; pipeDistanceM: number | null } | { missingPipe: string };

/**
 * The pipe each device watches: the one named (which must be the enterprise's), or the nearest of
 * its kind's networks within PIPE_SEARCH_M (any network's, when none of its kind is near). One
 * pass over the pipes for every device (a register of thousands).
 */
export async function nearestPipes(db: Db, enterpriseId: number, devices: { kind: SensorKind; lon: number; lat: number; pipeId?: string | null }[]): Promise<Placed[]> {
  const near = await pipesNear(db, enterpriseId, devices.map((d) => ({ type: 'Point' as const, coordinates: [d.lon, d.lat] })), PIPE_SEARCH_M);
  const named = [...new Set(devices.filter((d, i) => d.pipeId && !near[i].some((p) => p.pipeId === d.pipeId)).map((d) => d.pipeId!))];
  const existing = new Set<string>();
  for (let i = 0; i < named.length; i += 1000) {
    const rows = await queryRows<{ pipeId: string }>(db, sql`select pipe_id as "pipeId" from pipes where enterprise_id = ${enterpriseId} and pipe_id in (select jsonb_array_elements_text(${JSON.stringify(named.slice(i, i + 1000))}::jsonb))`);
    for (const r of rows) existing.add(r.pipeId);
  }
  return devices.map((device, i): Placed => {
    if (device.pipeId) {
      const match = near[i].find((p) => p.pipeId === device.pipeId);
      if (match) return { pipeId: match.pipeId, pipeDistanceM: match.distanceM };
      return existing.has(device.pipeId) ? { pipeId: device.pipeId, pipeDistanceM: null } : { missingPipe: device.pipeId };
    }
    for (const network of KIND_NETWORKS[device.kind]) {
      const nearest = near[i].find((p) => p.networkType === network);
      if (nearest) return { pipeId: nearest.pipeId, pipeDistanceM: nearest.distanceM };
    }
    return near[i][0] ? { pipeId: near[i][0].pipeId, pipeDistanceM: near[i][0].distanceM } : { pipeId: null, pipeDistanceM: null };
  });
}

async function placeOnPipe(db: Db, enterpriseId: number, input: SensorInput): Promise<{ pipeId: string | null; pipeDistanceM: number | null }> {
  const [placed] = await nearestPipes(db, enterpriseId, [input]);
  if ('missingPipe' in placed) throw new AppError(400, 'sensor.pipeNotFound', { pipeId: placed.missingPipe });
  return placed;
}

export async function createSensor(db: Db, enterpriseId: number, input: SensorInput, simulated = false) {
  const thresholds = input.thresholds ?? DEFAULT_SENSOR_THRESHOLDS[input.kind];
  checkThresholds(thresholds);
  const pipe = await placeOnPipe(db, enterpriseId, input);
  try {
    const [row] = await db
      .insert(sensorDevices)
      .values({ enterpriseId, code: input.code, name: input.name, kind: input.kind, lon: input.lon, lat: input.lat, ...pipe, gateway: input.gateway ?? null, intervalSeconds: input.intervalSeconds, thresholds, simulated })
      .returning({ id: sensorDevices.id });
    return getSensor(db, enterpriseId, row.id);
  } catch (error) {
    if (uniqueViolation(error)) throw new AppError(409, 'sensor.codeTaken', { code: input.code });
    throw error;
  }
}

/** Saves a device's settings; a new kind or threshold is judged from its next reading on. Returns the device and its code before. */
export async function updateSensor(db: Db, enterpriseId: number, id: number, input: SensorInput) {
  const before = await getSensor(db, enterpriseId, id);
  const thresholds = input.thresholds ?? (input.kind === before.kind ? before.thresholds : DEFAULT_SENSOR_THRESHOLDS[input.kind]);
  checkThresholds(thresholds);
  const moved = input.lon !== before.lon || input.lat !== before.lat || (input.pipeId ?? null) !== before.pipeId;
  const pipe = moved || input.kind !== before.kind ? await placeOnPipe(db, enterpriseId, input) : { pipeId: before.pipeId, pipeDistanceM: before.pipeDistanceM };
  try {
    await db
      .update(sensorDevices)
      .set({ code: input.code, name: input.name, kind: input.kind, lon: input.lon, lat: input.lat, ...pipe, gateway: input.gateway ?? null, intervalSeconds: input.intervalSeconds, thresholds })
      .where(and(eq(sensorDevices.enterpriseId, enterpriseId), eq(sensorDevices.id, id)));
  } catch (error) {
    if (uniqueViolation(error)) throw new AppError(409, 'sensor.codeTaken', { code: input.code });
    throw error;
  }
  return { device: await getSensor(db, enterpriseId, id), codeBefore: before.code };
}

/** Removes a device and its readings (every month's partition by its key). */
export async function deleteSensor(db: Db, enterpriseId: number, id: number) {
  const device = await getSensor(db, enterpriseId, id);
  await db.transaction(async (tx) => {
    await tx.delete(sensorDevices).where(and(eq(sensorDevices.enterpriseId, enterpriseId), eq(sensorDevices.id, id)));
    await tx.execute(sql`delete from sensor_readings where device_id = ${id}`);
    await tx.delete(sensorRefusals).where(and(eq(sensorRefusals.enterpriseId, enterpriseId), eq(sensorRefusals.code, device.code)));
  });
  return device;
}

/** New credentials for a device (the old ones stop working): the password is returned once and kept only as its hash. */
export async function makeCredentials(db: Db, enterpriseId: number, id: number) {
  const device = await getSensor(db, enterpriseId, id);
  const password = randomBytes(18).toString('base64url');
  await db.update(sensorDevices).set({ credentialHash: hashSecret(password), brokerHash: mosquittoHash(password) }).where(and(eq(sensorDevices.enterpriseId, enterpriseId), eq(sensorDevices.id, id)));
  return { device, username: deviceUser(enterpriseId, device.code), password, topic: device.topic };
}

export async function revokeCredentials(db: Db, enterpriseId: number, id: number) {
  const device = await getSensor(db, enterpriseId, id);
  await db.update(sensorDevices).set({ credentialHash: null, brokerHash: null }).where(and(eq(sensorDevices.enterpriseId, enterpriseId), eq(sensorDevices.id, id)));
  return device;
}

/**
 * A device's readings over a period, as at most `buckets` buckets of min / max / mean / count
 * made by the database (never every raw point): 30 days of a reading a minute are 43,200 rows
 * read by the key, 300 buckets sent.
 */
export async function sensorSeries(db: Db, enterpriseId: number, id: number, period: SensorPeriod, buckets = 300, now = Date.now()): Promise<SensorSeries> {
  await getSensor(db, enterpriseId, id);
  const span = SENSOR_PERIOD_MS[period];
  const bucketSeconds = Math.max(1, Math.ceil(span / 1000 / buckets));
  const from = new Date(now - span);
  const rows = await queryRows<{ bucket: number; min: number; max: number; mean: number; count: number }>(
    db,
    sql`select floor(extract(epoch from at) / ${bucketSeconds})::bigint * ${bucketSeconds} as bucket,
          min(value) as min, max(value) as max, avg(value) as mean, count(*)::int as count
        from sensor_readings where device_id = ${id} and at >= ${from.toISOString()}::timestamptz and at <= ${new Date(now).toISOString()}::timestamptz
        group by 1 order by 1`,
  );
  const round = (v: number) => Math.round(Number(v) * 1e4) / 1e4;
  return {
    period,
    bucketSeconds,
    buckets: rows.map((r) => ({ at: new Date(Number(r.bucket) * 1000).toISOString(), min: round(r.min), max: round(r.max), mean: round(r.mean), count: Number(r.count) })),
  };
}

/** Readings of a device stored after `after` (the live chart's next points), oldest first, at most `limit`. */
export async function readingsAfter(db: Db, id: number, after: Date, limit = 500) {
  const rows = await queryRows<{ at: string; value: number }>(
    db,
    sql`select at, value from sensor_readings where device_id = ${id} and at > ${after.toISOString()}::timestamptz order by at limit ${limit}`,
  );
  return rows.map((r) => ({ at: new Date(r.at).toISOString(), value: Number(r.value) }));
}

/** What was kept out of the enterprise's series, per device code and reason, most recent first. */
export async function listRefusals(db: Db, enterpriseId: number, code?: string): Promise<SensorRefusalCount[]> {
  const rows = await db
    .select()
    .from(sensorRefusals)
    .where(and(eq(sensorRefusals.enterpriseId, enterpriseId), code ? eq(sensorRefusals.code, code) : undefined))
    .orderBy(sql`${sensorRefusals.lastAt} desc`, asc(sensorRefusals.code))
    .limit(500);
  return rows.map((r) => ({ code: r.code, reason: r.reason as SensorRefusalCount['reason'], count: Number(r.count), lastAt: new Date(r.lastAt).toISOString(), sample: r.sample }));
}
