import type { Geometry } from 'geojson';
import { sql } from 'drizzle-orm';
import { DEFAULT_SENSOR_THRESHOLDS, sensorCode, type SensorImportField, type SensorImportStart, type SensorKind, type SensorThresholds } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { badRequest } from '../../http/errors.ts';
import type { ImportProblemRecord } from '../../db/schema.ts';
import type { Reproject } from '../imports/crs.ts';
import { isSinglePoint, pointOf } from '../imports/areas.ts';
import { assertNoRunningJob, extentOf, markFailed, markStarted, markSucceeded, problem, runImportJob, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import { readRegister } from '../imports/register.ts';
import { assertMappingFields, suggestMapping } from '../imports/mapping.ts';
import type { JobRunner } from '../imports/runner.ts';
import type { SourceFeature } from '../imports/sources/index.ts';
import { rememberWords, WordReader } from '../imports/words.ts';
import { nearestPipes, thresholdProblem } from './service.ts';

/**
 * A device register through the one import engine: every row read and checked first (a bad row
 * fails the file with the report and nothing is written; unknown kind words are asked once),
 * each device's pipe found nearest of its kind's networks in one pass, then one transaction adds
 * the new codes and updates the known ones (their credentials, state and readings kept).
 */

const FIELD_NAMES: Record<SensorImportField, string[]> = {
  code: ['code', 'device', 'deviceid', 'deviceno', 'id', 'sn', 'serial', '编号', '设备编号', '设备编码', '设备号', '传感器编号', '监测点编号', '点位编号'],
  name: ['name', 'title', 'location', 'place', '名称', '设备名称', '监测点', '监测点名称', '安装位置', '位置', '点位名称'],
  kind: ['kind', 'type', 'category', 'sensortype', '类型', '设备类型', '监测类型', '传感器类型', '监测项'],
  gateway: ['gateway', 'gw', 'dtu', 'rtu', '网关', '网关编号', '采集器', '采集终端'],
  intervalSeconds: ['interval', 'intervals', 'period', 'reportinterval', '上报间隔', '采集间隔', '上报周期', '间隔'],
  pipeId: ['pipeid', 'pipe', 'pipeno', '管线编号', '管段编号', '所属管线', '关联管线'],
  aboveWarning: ['abovewarning', 'warninghigh', 'highwarning', 'warn', '预警值', '预警上限', '一级报警', '低报'],
  aboveAlarm: ['abovealarm', 'alarmhigh', 'highalarm', 'alarm', '报警值', '报警上限', '二级报警', '高报'],
  belowWarning: ['belowwarning', 'warninglow', 'lowwarning', '预警下限'],
  belowAlarm: ['belowalarm', 'alarmlow', 'lowalarm', '报警下限'],
  hysteresis: ['hysteresis', 'deadband', '回差', '死区'],
  dropPerMinute: ['dropperminute', 'droprate', '降压速率', '压降速率'],
};
export const suggestSensorMapping = (fieldNames: string[]) => suggestMapping(fieldNames, FIELD_NAMES);

const THRESHOLD_FIELDS = ['aboveWarning', 'aboveAlarm', 'belowWarning', 'belowAlarm', 'hysteresis', 'dropPerMinute'] as const;

interface DeviceRow {
  code: string;
  name: string;
  kind: SensorKind;
  lon: number;
  lat: number;
  gateway: string | null;
  intervalSeconds: number;
  pipeId: string | null;
  thresholds: SensorThresholds;
}

/** A device from a row, or the row's problems. */
function deviceFromFeature(feature: SourceFeature, options: SensorImportStart, reproject: Reproject, words: WordReader): DeviceRow | { problems: ImportProblemRecord[] } {
  const value = (target: SensorImportField) => {
    const v = options.mapping[target] ? feature.properties[options.mapping[target]!] : undefined;
    return v === null || v === undefined ? '' : String(v).trim();
  };
  const codeText = value('code');
  const name = value('name') || codeText || `#${feature.row}`;
  const problems: ImportProblemRecord[] = [];
  const here = (field: SensorImportField | 'geometry', key: Parameters<typeof problem>[3], params = {}) =>
    problems.push(problem(feature.row, name, field === 'geometry' ? field : `${field} (${options.mapping[field]})`, key, params));

  const code = sensorCode.safeParse(codeText);
  if (!code.success) here('code', codeText ? 'sensor.code.format' : 'import.valueMissing');
  const kindText = value('kind');
  const kind = kindText ? words.read<SensorKind>('sensorKind', kindText, feature.row) : (options.kind ?? null);
  if (!kind && !kindText) here('kind', 'import.valueMissing');
  else if (!kind) here('kind', 'sensor.kindValue', { value: kindText });
  const number = (field: SensorImportField, min: number, max: number) => {
    const text = value(field);
    if (!text) return undefined;
    const n = Number(text);
    if (!(n >= min && n <= max)) {
      here(field, 'import.numberRange', { min, max });
      return undefined;
    }
    return n;
  };
  const interval = number('intervalSeconds', 1, 86_400);
  if (interval !== undefined && !Number.isInteger(interval)) here('intervalSeconds', 'import.numberRange', { min: 1, max: 86_400 });
  // Thresholds the register gives replace the kind's defaults one by one.
  const given: SensorThresholds = {};
  for (const field of THRESHOLD_FIELDS) {
    const n = number(field, field === 'hysteresis' || field === 'dropPerMinute' ? 0 : -1e6, 1e6);
    if (n !== undefined) given[field] = n;
  }
  const thresholds = kind ? { ...DEFAULT_SENSOR_THRESHOLDS[kind], ...given } : given;
  const order = thresholdProblem(thresholds);
  if (order) here(order, 'sensor.thresholdOrder', { field: order });

  const geometry = feature.geometry as Geometry | null;
  let position: [number, number] | null = null;
  if (feature.problem) here('geometry', feature.problem);
  else if (!geometry) here('geometry', 'import.geometryMissing');
  else if (!isSinglePoint(geometry)) here('geometry', 'sensor.geometryType', { type: geometry.type });
  else {
    const point = pointOf(geometry as Geometry & { type: 'Point' | 'MultiPoint' }, reproject);
    if ('key' in point) here('geometry', point.key);
    else position = point.position as [number, number];
  }
  if (problems.length || !position || !kind || !code.success) return { problems };
  return {
    code: code.data,
    name: name.slice(0, 120),
    kind,
    lon: position[0],
    lat: position[1],
    gateway: value('gateway').slice(0, 64) || null,
    intervalSeconds: interval ?? options.intervalSeconds,
    pipeId: value('pipeId').slice(0, 64) || null,
    thresholds,
  };
}

function runSensorImport(db: Db, limits: ImportLimits, job: ImportJob, options: SensorImportStart, signal: AbortSignal, onWritten: (codes: string[]) => Promise<void>) {
  return runImportJob(db, limits, job, options.srid, async (source, reproject) => {
    const words = await WordReader.load(db, job.enterpriseId);
    const rows = await readRegister(db, job, source, signal, words, {
      read: (feature) => deviceFromFeature(feature, options, reproject, words),
      unique: { key: (row) => row.code, problem: (feature, row) => problem(feature.row, row.name, `code (${options.mapping.code})`, 'sensor.duplicateCode', { code: row.code }) },
    });
    if (!rows) return;
    // Pipes named by the register must be the enterprise's; the others are found nearest.
    const placed = await nearestPipes(db, job.enterpriseId, rows);
    const missing = placed.findIndex((p) => 'missingPipe' in p);
    if (missing >= 0) {
      const row = rows[missing];
      return await markFailed(db, job, [problem(null, row.name, `pipeId (${options.mapping.pipeId})`, 'sensor.pipeNotFound', { pipeId: row.pipeId ?? '' })], 1);
    }
    await db.transaction(async (tx) => {
      let inserted = 0;
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500).map((r, j) => ({ ...r, ...(placed[i + j] as { pipeId: string | null; pipeDistanceM: number | null }) }));
        const written = await queryRows<{ inserted: boolean }>(tx as unknown as Db, sql`
          insert into sensor_devices as d (enterprise_id, code, name, kind, lon, lat, pipe_id, pipe_distance_m, gateway, interval_seconds, thresholds)
          select ${job.enterpriseId}, r.code, r.name, r.kind, r.lon, r.lat, r."pipeId", r."pipeDistanceM", r.gateway, r."intervalSeconds", r.thresholds
          from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as r(code text, name text, kind text, lon float8, lat float8, "pipeId" text, "pipeDistanceM" float8, gateway text, "intervalSeconds" int, thresholds jsonb)
          on conflict (enterprise_id, code) do update set name = excluded.name, kind = excluded.kind, lon = excluded.lon, lat = excluded.lat, pipe_id = excluded.pipe_id,
            pipe_distance_m = excluded.pipe_distance_m, gateway = excluded.gateway, interval_seconds = excluded.interval_seconds, thresholds = excluded.thresholds
          returning (xmax = 0) as inserted`);
        inserted += written.filter((r) => r.inserted).length;
      }
      await markSucceeded(tx, job.id, rows.length, { inserted, updated: rows.length - inserted, deleted: 0, extent: extentOf(rows.map((r) => [r.lon, r.lat, r.lon, r.lat])) });
    });
    await onWritten(rows.map((r) => r.code));
  });
}

export async function startSensorImport(db: Db, limits: ImportLimits, runner: JobRunner, job: ImportJob, options: SensorImportStart, onWritten: (codes: string[]) => Promise<void>, onError: (error: unknown) => void) {
  assertMappingFields(job, options.mapping);
  if (!options.mapping.code) throw badRequest('import.mappingRequired', { target: 'code' });
  await rememberWords(db, job.enterpriseId, options.words);
  await assertNoRunningJob(db, job.enterpriseId, 'sensors');
  await markStarted(db, job, options);
  runner.run(job, (signal) => runSensorImport(db, limits, job, options, signal, onWritten).catch(onError));
}
