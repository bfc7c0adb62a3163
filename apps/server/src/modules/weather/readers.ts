import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { CsvError, parse as parseStream } from 'csv-parse';
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
export type ReadResult = { stations: StationReading[] } | Refused;
type HoursResult = { hours: WeatherHour[] } | Refused;
/** A file's problems: the first SHOWN_PROBLEMS of them, and how many there were in all. */
export type Refused = { problems: ImportProblemRecord[]; problemCount?: number };

/** Problems shown for a refused file; the others are counted only (a file of bad rows answers small and soon). */
export const SHOWN_PROBLEMS = 100;

/** A file's problems as they are found: the first SHOWN_PROBLEMS made (in both languages), the rest counted. */
export class Problems {
  private readonly shown: ImportProblemRecord[] = [];
  count = 0;
  add(...args: Parameters<typeof problem>) {
    this.count++;
    if (this.shown.length < SHOWN_PROBLEMS) this.shown.push(problem(...args));
  }
  result(): Refused {
    return { problems: this.shown, problemCount: this.count };
  }
}

/** Open-Meteo's variables and ours. */
const VARIABLES = { precipitation: 'precipitation', temperature_2m: 'temperature', wind_speed_10m: 'windSpeed', wind_gusts_10m: 'windGust' } as const;
type Variable = keyof typeof VARIABLES;
type Quantity = 'precipitation' | 'temperature' | 'windSpeed' | 'windGust';
type Convert = (value: number) => number;

/** The units a file may give each quantity in, each as a conversion to ours (mm, °C, m/s); matched without case or spaces. */
const RAIN_UNITS: Record<string, Convert> = { mm: (v) => v, 毫米: (v) => v, cm: (v) => v * 10, inch: (v) => v * 25.4, in: (v) => v * 25.4, inches: (v) => v * 25.4 };
const TEMPERATURE_UNITS: Record<string, Convert> = { '°c': (v) => v, c: (v) => v, '℃': (v) => v, degc: (v) => v, 摄氏度: (v) => v, '°f': (v) => ((v - 32) * 5) / 9, f: (v) => ((v - 32) * 5) / 9, '℉': (v) => ((v - 32) * 5) / 9, degf: (v) => ((v - 32) * 5) / 9, k: (v) => v - 273.15 };
const WIND_UNITS: Record<string, Convert> = { 'm/s': (v) => v, ms: (v) => v, '米/秒': (v) => v, 'km/h': (v) => v / 3.6, kmh: (v) => v / 3.6, kph: (v) => v / 3.6, mph: (v) => v * 0.44704, kn: (v) => v * 0.514444, kt: (v) => v * 0.514444, knots: (v) => v * 0.514444 };
const UNITS: Record<Quantity, Record<string, Convert>> = { precipitation: RAIN_UNITS, temperature: TEMPERATURE_UNITS, windSpeed: WIND_UNITS, windGust: WIND_UNITS };
const OUR_UNIT: Record<Quantity, string> = { precipitation: 'mm', temperature: '°C', windSpeed: 'm/s', windGust: 'm/s' };

/**
 * What a reading can physically be, in our units: no negative rain or wind; air between -80 and
 * 60 °C (the coldest and hottest ever measured lie inside); an hour's rain under 500 mm and wind
 * under 120 m/s (the records are about 305 mm and 113 m/s). A file beyond them is wrong, not weather.
 */
const POSSIBLE: Record<Quantity, [number, number]> = { precipitation: [0, 500], temperature: [-80, 60], windSpeed: [0, 120], windGust: [0, 120] };

/** The conversion for a unit a file names for a quantity; a unit it does not know is a problem naming it. */
function converter(quantity: Quantity, unit: string | undefined, field: string, problems: Problems): Convert | undefined {
  if (unit === undefined) return UNITS[quantity][OUR_UNIT[quantity].toLowerCase()];
  const convert = UNITS[quantity][unit.trim().toLowerCase().replace(/\s/g, '')];
  if (!convert) problems.add(null, null, field, 'weather.unit', { unit, known: Object.keys(UNITS[quantity]).join(', ') });
  return convert;
}

/** A reading in our units, or a problem when it cannot be. */
function possible(quantity: Quantity, value: number, row: number, id: string | null, field: string, problems: Problems): number | null {
  const rounded = Math.round(value * 100) / 100;
  const [min, max] = POSSIBLE[quantity];
  if (rounded >= min && rounded <= max) return rounded;
  problems.add(row, id, field, 'weather.impossible', { value: rounded, unit: OUR_UNIT[quantity], min, max });
  return null;
}

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
function hoursFrom(times: unknown[], columns: Partial<Record<Variable, unknown[]>>, convert: Partial<Record<Variable, Convert>>, offsetSeconds: number, rowOf: (i: number) => number): HoursResult {
  const problems = new Problems();
  const hours: WeatherHour[] = [];
  times.forEach((time, i) => {
    const at = typeof time === 'string' ? utcTime(time, offsetSeconds) : null;
    if (!at) problems.add(rowOf(i), String(time), 'time', 'field.dateTime');
    const hour: WeatherHour = { time: at ?? '', precipitation: null, temperature: null, windSpeed: null, windGust: null };
    for (const [name, values] of Object.entries(columns) as [Variable, unknown[]][]) {
      const raw = values[i];
      if (raw === null || raw === undefined || raw === '') continue;
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(n)) problems.add(rowOf(i), String(time), name, 'weather.notNumber', { value: String(raw) });
      else hour[VARIABLES[name]] = possible(VARIABLES[name], convert[name]!(n), rowOf(i), String(time), name, problems);
    }
    hours.push(hour);
  });
  if (!hours.length) problems.add(null, null, null, 'import.noFeatures');
  return problems.count ? problems.result() : { hours };
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
  const problems = new Problems();
  for (const name of Object.keys(VARIABLES) as Variable[]) {
    const values = hourly[name];
    if (values === undefined) continue;
    if (!Array.isArray(values) || values.length !== hourly.time.length) problems.add(null, null, `hourly.${name}`, 'weather.lengths', { n: hourly.time.length });
    else columns[name] = values;
  }
  const convert = converters((name) => body.hourly_units?.[name], problems);
  if (problems.count) return problems.result();
  const result = hoursFrom(hourly.time, columns, convert, body.utc_offset_seconds ?? 0, (i) => i + 1);
  if ('problems' in result) return result;
  return { stations: [{ hours: result.hours, place: typeof body.latitude === 'number' && typeof body.longitude === 'number' ? { lon: body.longitude, lat: body.latitude } : null }] };
}

/** Open-Meteo's units when an answer does not name them (its defaults). */
const OPEN_METEO_DEFAULT_UNITS: Record<Variable, string> = { precipitation: 'mm', temperature_2m: '°C', wind_speed_10m: 'km/h', wind_gusts_10m: 'km/h' };

/** The conversion of each Open-Meteo variable from the unit the file names (`hourly_units`, a CSV header); unknown units are problems. */
function converters(unitOf: (name: string) => string | undefined, problems: Problems): Partial<Record<Variable, Convert>> {
  const convert: Partial<Record<Variable, Convert>> = {};
  for (const name of Object.keys(VARIABLES) as Variable[]) convert[name] = converter(VARIABLES[name], unitOf(name) ?? OPEN_METEO_DEFAULT_UNITS[name], name, problems);
  return convert;
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
  const problems = new Problems();
  const convert = converters((name) => units[name], problems);
  if (problems.count) return problems.result();
  // Rows are counted from the header line of the data, as a spreadsheet shows them.
  const result = hoursFrom(body.map((r) => r[timeIndex]), columns, convert, Number(meta?.utc_offset_seconds ?? 0), (i) => i + 1);
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

/** A weather CSV: its text (a test, a service's answer) or the uploaded file, streamed. */
export type CsvInput = string | { path: string };
/** A weather row is a few hundred characters (NOAA's widest, a few thousand): a longer one is not weather. */
const MAX_ROW_CHARS = 64 * 1024;

/**
 * A CSV's header and its rows as records by header, streamed from the file (never the whole file
 * in memory), or the reason it cannot be read. A parse error part way is thrown as CsvError.
 */
async function openCsvRecords(input: CsvInput, format: string): Promise<{ headers: string[]; records: AsyncGenerator<Record<string, string>> } | Refused> {
  let headers: string[] = [];
  const parser = parseStream({
    bom: true,
    columns: (header: string[]) => (headers = header.map((h) => h.trim())),
    skip_empty_lines: true,
    trim: true,
    max_record_size: MAX_ROW_CHARS,
  });
  const source = typeof input === 'string' ? Readable.from([input]) : createReadStream(input.path);
  source.on('error', (error: Error) => parser.destroy(error));
  source.pipe(parser);
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<Record<string, string>>;
  let first: IteratorResult<Record<string, string>>;
  try {
    first = await iterator.next();
  } catch (error) {
    source.destroy();
    return unreadableCsv(format, error);
  }
  async function* records() {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      source.destroy();
      parser.destroy();
    }
  }
  return { headers, records: records() };
}

/**
 * Hands each record to `take`, numbered from 1: a parse error part way is the file's one problem,
 * a file without records one too. Answers the file's problems, or null when it has none.
 */
async function readRecords(records: AsyncIterable<Record<string, string>>, format: string, problems: Problems, take: (record: Record<string, string>, row: number) => void): Promise<Refused | null> {
  let count = 0;
  try {
    for await (const record of records) {
      const row = ++count;
      // PostgreSQL text holds no U+0000: a value with one is the row's problem, not the server's.
      const nul = Object.keys(record).find((field) => record[field]?.includes('\0'));
      if (nul !== undefined) problems.add(row, null, nul, 'field.nul');
      else take(record, row);
    }
  } catch (error) {
    return unreadableCsv(format, error);
  }
  if (!count) problems.add(null, null, null, 'import.noFeatures');
  return problems.count ? problems.result() : null;
}

const unreadableCsv = (format: string, error: unknown): Refused => {
  if (!(error instanceof CsvError)) throw error;
  return { problems: [problem(null, null, 'file', 'import.unreadable', { format, detail: error.message })] };
};

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
export async function readIsdCsv(input: CsvInput): Promise<ReadResult> {
  const format = 'NOAA ISD CSV';
  const opened = await openCsvRecords(input, format);
  if ('problems' in opened) return opened;
  const { headers, records } = opened;
  const problems = new Problems();
  for (const column of ['STATION', 'DATE']) if (headers.length && !headers.includes(column)) problems.add(null, null, column, 'field.required');
  if (problems.count) return problems.result();
  // Per station and whole hour: each value with how far from the hour its report was.
  const merged = new Map<string, { code: string; name?: string; place: { lon: number; lat: number } | null; hour: WeatherHour; distance: Partial<Record<keyof WeatherHour, number>> }>();
  const take = (r: Record<string, string>, row: number) => {
    const at = stationTime(r.DATE ?? '', 0);
    if (!at) return void problems.add(row, r.STATION, 'DATE', 'field.dateTime');
    const ms = Date.parse(at);
    const whole = Math.round(ms / 3_600_000) * 3_600_000;
    const distance = Math.abs(ms - whole);
    const values: Partial<Record<'precipitation' | 'temperature' | 'windSpeed' | 'windGust', number | null>> = {};
    const field = (name: string, pattern: RegExp) => {
      const raw = r[name];
      if (raw === undefined || raw === '') return null;
      const m = pattern.exec(raw);
      if (!m) problems.add(row, r.STATION, name, 'weather.isdField', { value: raw });
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
    const column = { windSpeed: 'WND', temperature: 'TMP', windGust: 'OC1', precipitation: 'AA1' } as const;
    for (const [name, value] of Object.entries(values) as [Quantity, number | null][]) if (value !== null) values[name] = possible(name, value, row, r.STATION, column[name], problems);
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
  };
  const refused = await readRecords(records, format, problems, take);
  if (refused) return refused;
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
export async function readStationCsv(input: CsvInput): Promise<ReadResult> {
  const format = 'station CSV';
  const opened = await openCsvRecords(input, format);
  if ('problems' in opened) return opened;
  const { headers, records } = opened;
  // A header may carry its unit: "temperature (°F)", "降水量（mm）", "风速[km/h]".
  const named = headers.map((h) => {
    const m = /^(.*?)\s*[(（[]\s*([^)）\]]+?)\s*[)）\]]$/.exec(h.trim());
    return { header: h, name: (m ? m[1] : h).trim().toLowerCase(), unit: m?.[2] };
  });
  const found = (aliases: readonly string[]) => named.find((n) => aliases.includes(n.name));
  const column = Object.fromEntries(Object.entries(STATION_COLUMNS).map(([name, aliases]) => [name, found(aliases)?.header])) as Record<keyof typeof STATION_COLUMNS, string | undefined>;
  const problems = new Problems();
  const convert = Object.fromEntries(
    (['precipitation', 'temperature', 'windSpeed', 'windGust'] as const).map((q) => {
      const at = found(STATION_COLUMNS[q]);
      return [q, at ? converter(q, at.unit, at.header, problems) : undefined];
    }),
  ) as Partial<Record<Quantity, Convert>>;
  for (const name of ['code', 'time'] as const) if (!column[name]) problems.add(null, null, STATION_COLUMNS[name][0], 'field.required');
  if (problems.count) return problems.result();
  const seen = new Set<string>();
  const rows: Parameters<typeof byStation>[0] = [];
  const take = (r: Record<string, string>, row: number) => {
    const code = r[column.code!];
    if (!code) return void problems.add(row, null, column.code!, 'field.required');
    const time = stationTime(r[column.time!] ?? '', BEIJING_SECONDS);
    if (!time) return void problems.add(row, code, column.time!, 'field.dateTime');
    if (seen.has(`${code}|${time}`)) problems.add(row, code, column.time!, 'weather.duplicateHour', { time });
    seen.add(`${code}|${time}`);
    const hour: WeatherHour = { time, precipitation: null, temperature: null, windSpeed: null, windGust: null };
    const number = (name: keyof typeof STATION_COLUMNS) => {
      const raw = column[name] ? r[column[name]!] : '';
      if (!raw) return null;
      const n = Number(raw);
      if (!Number.isFinite(n)) problems.add(row, code, column[name]!, 'weather.notNumber', { value: raw });
      return Number.isFinite(n) ? n : null;
    };
    for (const name of ['precipitation', 'temperature', 'windSpeed', 'windGust'] as const) {
      const value = number(name);
      hour[name] = value === null || !convert[name] ? null : possible(name, convert[name]!(value), row, code, column[name]!, problems);
    }
    const lon = number('lon'), lat = number('lat');
    if (lon !== null && (lon < -180 || lon > 180)) problems.add(row, code, column.lon!, 'weather.outOfRange', { min: -180, max: 180 });
    if (lat !== null && (lat < -90 || lat > 90)) problems.add(row, code, column.lat!, 'weather.outOfRange', { min: -90, max: 90 });
    rows.push({ code, name: column.name ? r[column.name] || undefined : undefined, place: lon !== null && lat !== null ? { lon, lat } : null, hour });
  };
  const refused = await readRecords(records, format, problems, take);
  if (refused) return refused;
  return { stations: byStation(rows) };
}
