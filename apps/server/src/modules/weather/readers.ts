import { parse } from 'csv-parse/sync';
import type { WeatherHour } from '@console/contract';
import type { ImportProblemRecord } from '../../db/schema.ts';
import { problem } from '../imports/problems.ts';

/** One station's (or one place's) hours in a file: its id, name and place when the file says them, hours in UTC. */
export interface StationReading {
  code?: string;
  name?: string;
  place: { lon: number; lat: number } | null;
  hours: WeatherHour[];
}
/** What a weather file holds: one or more stations, or its problems by row and field. */
export type ReadResult = { stations: StationReading[] } | { problems: ImportProblemRecord[] };
type HoursResult = { hours: WeatherHour[] } | { problems: ImportProblemRecord[] };

/** Open-Meteo's variables and ours. */
const VARIABLES = { precipitation: 'precipitation', temperature_2m: 'temperature', wind_speed_10m: 'windSpeed', wind_gusts_10m: 'windGust' } as const;
type Variable = keyof typeof VARIABLES;
/** Wind units Open-Meteo may answer in, as m/s per unit. */
const WIND_UNITS: Record<string, number> = { 'km/h': 1 / 3.6, 'm/s': 1, mph: 0.44704, kn: 0.514444 };

/** A local time without zone ("2026-07-01T00:00") at a UTC offset, as ISO UTC; null when it is not a time. */
function utcTime(text: string, offsetSeconds: number): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  const d = new Date(ms);
  if (d.getUTCMonth() !== +m[2] - 1 || d.getUTCDate() !== +m[3] || d.getUTCHours() !== +m[4]) return null;
  return new Date(ms - offsetSeconds * 1000).toISOString();
}

/** The hours from parallel columns (time and each variable), each value checked; problems by row and field. */
function hoursFrom(times: unknown[], columns: Partial<Record<Variable, unknown[]>>, scale: Partial<Record<Variable, number>>, offsetSeconds: number, rowOf: (i: number) => number): HoursResult {
  const problems: ImportProblemRecord[] = [];
  const hours: WeatherHour[] = [];
  times.forEach((time, i) => {
    const at = typeof time === 'string' ? utcTime(time, offsetSeconds) : null;
    if (!at) problems.push(problem(rowOf(i), String(time), 'time', 'field.dateTime'));
    const hour: WeatherHour = { time: at ?? '', precipitation: null, temperature: null, windSpeed: null, windGust: null };
    for (const [name, values] of Object.entries(columns) as [Variable, unknown[]][]) {
      const raw = values[i];
      if (raw === null || raw === undefined || raw === '') continue;
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(n)) problems.push(problem(rowOf(i), String(time), name, 'weather.notNumber', { value: String(raw) }));
      else hour[VARIABLES[name]] = Math.round(n * (scale[name] ?? 1) * 100) / 100;
    }
    hours.push(hour);
  });
  if (!hours.length) problems.push(problem(null, null, null, 'import.noFeatures'));
  return problems.length ? { problems } : { hours };
}

/**
 * Open-Meteo's JSON answer (forecast or archive API): `hourly.time[]` in the answer's time zone
 * (`utc_offset_seconds`) with parallel `hourly.<variable>[]` arrays; wind in the unit
 * `hourly_units` names (km/h by default).
 */
export function readOpenMeteoJson(text: string): ReadResult {
  let body: { latitude?: number; longitude?: number; utc_offset_seconds?: number; hourly?: Record<string, unknown[]>; hourly_units?: Record<string, string> };
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { problems: [problem(null, null, 'file', 'import.unreadable', { format: 'Open-Meteo JSON', detail: (error as Error).message })] };
  }
  const hourly = body.hourly;
  if (!hourly || !Array.isArray(hourly.time)) return { problems: [problem(null, null, 'hourly.time', 'field.required')] };
  const columns: Partial<Record<Variable, unknown[]>> = {};
  const problems: ImportProblemRecord[] = [];
  for (const name of Object.keys(VARIABLES) as Variable[]) {
    const values = hourly[name];
    if (values === undefined) continue;
    if (!Array.isArray(values) || values.length !== hourly.time.length) problems.push(problem(null, null, `hourly.${name}`, 'weather.lengths', { n: hourly.time.length }));
    else columns[name] = values;
  }
  const scale = windScale((name) => body.hourly_units?.[name], problems);
  if (problems.length) return { problems };
  const result = hoursFrom(hourly.time, columns, scale, body.utc_offset_seconds ?? 0, (i) => i + 1);
  if ('problems' in result) return result;
  return { stations: [{ hours: result.hours, place: typeof body.latitude === 'number' && typeof body.longitude === 'number' ? { lon: body.longitude, lat: body.latitude } : null }] };
}

/** m/s per unit for the wind variables, from the units a file names; unknown units are problems. */
function windScale(unitOf: (name: string) => string | undefined, problems: ImportProblemRecord[]): Partial<Record<Variable, number>> {
  const scale: Partial<Record<Variable, number>> = {};
  for (const name of ['wind_speed_10m', 'wind_gusts_10m'] as const) {
    const unit = unitOf(name) ?? 'km/h';
    if (WIND_UNITS[unit] === undefined) problems.push(problem(null, null, name, 'weather.windUnit', { unit }));
    else scale[name] = WIND_UNITS[unit];
  }
  return scale;
}

/**
 * Open-Meteo's CSV download: a line of the place (latitude, longitude, elevation,
 * utc_offset_seconds...), a blank line, then `time,<variable> (<unit>),...` and one row an hour.
 */
export function readOpenMeteoCsv(text: string): ReadResult {
  const blocks = text.replace(/^\ufeff/, '').split(/\r?\n\s*\r?\n/);
  const data = blocks.length > 1 ? blocks.slice(1).join('\n') : blocks[0];
  let meta: Record<string, string> | null = null;
  if (blocks.length > 1) {
    const rows = parse(blocks[0], { columns: true, skip_empty_lines: true }) as Record<string, string>[];
    meta = rows[0] ?? null;
  }
  let rows: string[][];
  try {
    rows = parse(data, { skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (error) {
    return { problems: [problem(null, null, 'file', 'import.unreadable', { format: 'Open-Meteo CSV', detail: (error as Error).message })] };
  }
  const [header, ...body] = rows;
  // Each header as [name, unit]: "wind_speed_10m (km/h)" -> wind_speed_10m, km/h.
  const names: [string, string | undefined][] = (header ?? []).map((h) => {
    const m = /^([a-z0-9_]+)(?:\s*\((.*)\))?$/.exec(h.trim());
    return m ? [m[1], m[2]] : [h.trim(), undefined];
  });
  const timeIndex = names.findIndex((n) => n[0] === 'time');
  if (timeIndex < 0) return { problems: [problem(null, null, 'time', 'field.required')] };
  const columns: Partial<Record<Variable, unknown[]>> = {};
  const units: Record<string, string | undefined> = {};
  names.forEach(([name, unit], i) => {
    if (name in VARIABLES) {
      columns[name as Variable] = body.map((r) => r[i]);
      units[name] = unit;
    }
  });
  const problems: ImportProblemRecord[] = [];
  const scale = windScale((name) => units[name], problems);
  if (problems.length) return { problems };
  // Rows are counted from the header line of the data, as a spreadsheet shows them.
  const result = hoursFrom(body.map((r) => r[timeIndex]), columns, scale, Number(meta?.utc_offset_seconds ?? 0), (i) => i + 1);
  if ('problems' in result) return result;
  const lat = Number(meta?.latitude), lon = Number(meta?.longitude);
  return { stations: [{ hours: result.hours, place: Number.isFinite(lat) && Number.isFinite(lon) ? { lon, lat } : null }] };
}

/** A time with a zone (Z or ±hh:mm) or without one (taken at `offsetSeconds`), "T" or a space between date and time; null when it is not one. */
function stationTime(text: string, offsetSeconds: number): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!m) return null;
  const zone = m[7];
  const offset = !zone ? offsetSeconds : zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(-2)) * 60);
  const local = utcTime(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}`, offset);
  return local && new Date(Date.parse(local) + Number(m[6] ?? 0) * 1000).toISOString();
}

/** A CSV's rows as records by header, or the reason it cannot be read. */
function csvRecords(text: string, format: string): Record<string, string>[] | { problems: ImportProblemRecord[] } {
  try {
    return parse(text.replace(/^\ufeff/, ''), { columns: (header: string[]) => header.map((h) => h.trim()), skip_empty_lines: true, trim: true }) as Record<string, string>[];
  } catch (error) {
    return { problems: [problem(null, null, 'file', 'import.unreadable', { format, detail: (error as Error).message })] };
  }
}

/** Groups hours by station in the order the file first names them. */
function byStation(rows: { code: string; name?: string; place: { lon: number; lat: number } | null; hour: WeatherHour }[]): StationReading[] {
  const stations = new Map<string, StationReading>();
  for (const { code, name, place, hour } of rows) {
    const station = stations.get(code) ?? stations.set(code, { code, name, place, hours: [] }).get(code)!;
    station.place ??= place;
    station.hours.push(hour);
  }
  return [...stations.values()];
}

/** An ISD field "value,quality": the value scaled, null when missing (all 9s) or flagged erroneous (quality 3 or 7). */
function isdValue(raw: string, quality: string, scale: number): number | null {
  if (/^[+-]?9+$/.test(raw) || quality === '3' || quality === '7') return null;
  return Math.round((Number(raw) / scale) * 100) / 100;
}

/** The parts of an ISD field by its pattern, or null when it does not match. */
const ISD_FIELDS = {
  WND: /^(\d{3}),(\w),(\w),(\d{4}),(\w)$/,
  TMP: /^([+-]\d{4}),(\w)$/,
  OC1: /^(\d{4}),(\w)$/,
  AA: /^(\d{2}),(\d{4}),(\w),(\w)$/,
};

/**
 * NOAA's Integrated Surface Database hourly CSV (global-hourly access files): one row per report,
 * STATION, DATE (UTC), LATITUDE, LONGITUDE, NAME, and coded fields: WND (speed m/s x10), TMP
 * (°C x10), OC1 (gust m/s x10), AA1-AA4 (precipitation: period h, depth mm x10). Several reports
 * an hour are merged into the whole hour nearest them, each value from the report nearest that
 * hour; precipitation only from one-hour periods.
 */
export function readIsdCsv(text: string): ReadResult {
  const records = csvRecords(text, 'NOAA ISD CSV');
  if ('problems' in records) return records;
  const problems: ImportProblemRecord[] = [];
  for (const column of ['STATION', 'DATE']) if (records.length && !(column in records[0])) problems.push(problem(null, null, column, 'field.required'));
  if (problems.length) return { problems };
  // Per station and whole hour: each value with how far from the hour its report was.
  const merged = new Map<string, { code: string; name?: string; place: { lon: number; lat: number } | null; hour: WeatherHour; distance: Partial<Record<keyof WeatherHour, number>> }>();
  records.forEach((r, i) => {
    const row = i + 1;
    const at = stationTime(r.DATE ?? '', 0);
    if (!at) return void problems.push(problem(row, r.STATION, 'DATE', 'field.dateTime'));
    const ms = Date.parse(at);
    const whole = Math.round(ms / 3_600_000) * 3_600_000;
    const distance = Math.abs(ms - whole);
    const values: Partial<Record<'precipitation' | 'temperature' | 'windSpeed' | 'windGust', number | null>> = {};
    const field = (name: string, pattern: RegExp) => {
      const raw = r[name];
      if (raw === undefined || raw === '') return null;
      const m = pattern.exec(raw);
      if (!m) problems.push(problem(row, r.STATION, name, 'weather.isdField', { value: raw }));
      return m;
    };
    const wnd = field('WND', ISD_FIELDS.WND);
    if (wnd) values.windSpeed = isdValue(wnd[4], wnd[5], 10);
    const tmp = field('TMP', ISD_FIELDS.TMP);
    if (tmp) values.temperature = isdValue(tmp[1], tmp[2], 10);
    const oc1 = field('OC1', ISD_FIELDS.OC1);
    if (oc1) values.windGust = isdValue(oc1[1], oc1[2], 10);
    for (const name of ['AA1', 'AA2', 'AA3', 'AA4']) {
      const aa = field(name, ISD_FIELDS.AA);
      if (aa && aa[1] === '01') values.precipitation = isdValue(aa[2], aa[4], 10);
    }
    const lat = Number(r.LATITUDE), lon = Number(r.LONGITUDE);
    const key = `${r.STATION}|${whole}`;
    const entry =
      merged.get(key) ??
      merged
        .set(key, {
          code: r.STATION,
          name: r.NAME || undefined,
          place: r.LATITUDE && r.LONGITUDE && Number.isFinite(lat) && Number.isFinite(lon) ? { lon, lat } : null,
          hour: { time: new Date(whole).toISOString(), precipitation: null, temperature: null, windSpeed: null, windGust: null },
          distance: {},
        })
        .get(key)!;
    for (const [name, value] of Object.entries(values) as [keyof typeof values, number | null][]) {
      if (value === null || (entry.distance[name] ?? Infinity) <= distance) continue;
      entry.hour[name] = value;
      entry.distance[name] = distance;
    }
  });
  if (!records.length) problems.push(problem(null, null, null, 'import.noFeatures'));
  if (problems.length) return { problems };
  const rows = [...merged.values()].sort((a, b) => a.hour.time.localeCompare(b.hour.time));
  return { stations: byStation(rows) };
}

/** The plain station CSV's columns and the headers each may go by (English or Chinese). */
const STATION_COLUMNS = {
  code: ['station', 'station_id', 'code', '站号', '站点编号'],
  name: ['name', 'station_name', '站名', '站点名称'],
  lon: ['lon', 'longitude', '经度'],
  lat: ['lat', 'latitude', '纬度'],
  time: ['time', 'datetime', '时间', '观测时间'],
  precipitation: ['precipitation', 'precipitation_mm', 'rain', '降水量', '小时降水量'],
  temperature: ['temperature', 'temperature_c', '气温', '温度'],
  windSpeed: ['wind_speed', 'wind_speed_ms', '风速', '平均风速'],
  windGust: ['wind_gust', 'wind_gust_ms', '阵风', '极大风速'],
} as const;
/** Times without a zone in a station file are Beijing time (UTC+8), as China's stations report. */
const BEIJING_SECONDS = 8 * 3600;

/**
 * A plain station CSV: a row per station and hour with the station's id, name, lon, lat, the time
 * (ISO with a zone, or Beijing time without one) and the hour's precipitation (mm), temperature
 * (°C), mean wind and gust (m/s); several stations may share a file.
 */
export function readStationCsv(text: string): ReadResult {
  const records = csvRecords(text, 'station CSV');
  if ('problems' in records) return records;
  const headers = records.length ? Object.keys(records[0]) : [];
  const column = Object.fromEntries(
    Object.entries(STATION_COLUMNS).map(([name, aliases]) => [name, headers.find((h) => (aliases as readonly string[]).includes(h.toLowerCase()))]),
  ) as Record<keyof typeof STATION_COLUMNS, string | undefined>;
  const problems: ImportProblemRecord[] = [];
  if (!records.length) return { problems: [problem(null, null, null, 'import.noFeatures')] };
  for (const name of ['code', 'time'] as const) if (!column[name]) problems.push(problem(null, null, STATION_COLUMNS[name][0], 'field.required'));
  if (problems.length) return { problems };
  const seen = new Set<string>();
  const rows: Parameters<typeof byStation>[0] = [];
  records.forEach((r, i) => {
    const row = i + 1;
    const code = r[column.code!];
    if (!code) return void problems.push(problem(row, null, column.code!, 'field.required'));
    const time = stationTime(r[column.time!] ?? '', BEIJING_SECONDS);
    if (!time) return void problems.push(problem(row, code, column.time!, 'field.dateTime'));
    if (seen.has(`${code}|${time}`)) problems.push(problem(row, code, column.time!, 'weather.duplicateHour', { time }));
    seen.add(`${code}|${time}`);
    const hour: WeatherHour = { time, precipitation: null, temperature: null, windSpeed: null, windGust: null };
    const number = (name: keyof typeof STATION_COLUMNS) => {
      const raw = column[name] ? r[column[name]!] : '';
      if (!raw) return null;
      const n = Number(raw);
      if (!Number.isFinite(n)) problems.push(problem(row, code, column[name]!, 'weather.notNumber', { value: raw }));
      return Number.isFinite(n) ? n : null;
    };
    for (const name of ['precipitation', 'temperature', 'windSpeed', 'windGust'] as const) hour[name] = number(name);
    const lon = number('lon'), lat = number('lat');
    if (lon !== null && (lon < -180 || lon > 180)) problems.push(problem(row, code, column.lon!, 'weather.outOfRange', { min: -180, max: 180 }));
    if (lat !== null && (lat < -90 || lat > 90)) problems.push(problem(row, code, column.lat!, 'weather.outOfRange', { min: -90, max: 90 }));
    rows.push({ code, name: column.name ? r[column.name] || undefined : undefined, place: lon !== null && lat !== null ? { lon, lat } : null, hour });
  });
  if (problems.length) return { problems };
  return { stations: byStation(rows) };
}
