import { parse } from 'csv-parse/sync';
import type { WeatherHour } from '@console/contract';
import type { ImportProblemRecord } from '../../db/schema.ts';
import { problem } from '../imports/problems.ts';

/** What a weather file holds: where (when it says), and its hours in UTC. */
export interface WeatherReading {
  place: { lon: number; lat: number } | null;
  hours: WeatherHour[];
}
export type ReadResult = WeatherReading | { problems: ImportProblemRecord[] };

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
function hoursFrom(times: unknown[], columns: Partial<Record<Variable, unknown[]>>, scale: Partial<Record<Variable, number>>, offsetSeconds: number, rowOf: (i: number) => number): ReadResult {
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
  return problems.length ? { problems } : { place: null, hours };
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
  return { ...result, place: typeof body.latitude === 'number' && typeof body.longitude === 'number' ? { lon: body.longitude, lat: body.latitude } : null };
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
  return { ...result, place: Number.isFinite(lat) && Number.isFinite(lon) ? { lon, lat } : null };
}
