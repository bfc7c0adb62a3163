import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { AreaGeometry, WeatherHour } from '@console/contract';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { weatherHours, weatherPlaces, weatherWarnings, type ImportProblemRecord } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { circlePolygon } from '../../geo/geometry.ts';
import { assertProject, findProjectArea } from '../projects/service.ts';
import { problem } from '../imports/problems.ts';
import { open, readFile, stat } from 'node:fs/promises';
import { readIsdCsv, readOpenMeteoCsv, readOpenMeteoJson, readStationCsv, type ReadResult, type Refused } from './readers.ts';
import { deriveWarnings } from './signals.ts';
import { warningTouches } from './touches.ts';

/** A place without a project area is warned for this far around it. */
const PLACE_RADIUS_M = 10_000;
const HOURS_PER_WRITE = 1000;
/** A file read whole (Open-Meteo's JSON or CSV answer, a CAP feed) may be this large; station and NOAA files are streamed. */
export const WHOLE_FILE_MAX = 64 * 1024 * 1024;

/** The first line of a file (read from its first 64 KB). */
async function firstLineOf(path: string): Promise<string> {
  const handle = await open(path);
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('utf8').replace(/^\ufeff/, '').split(/\r?\n/, 1)[0].replaceAll('"', '').trim();
  } finally {
    await handle.close();
  }
}

type HoursFormat = 'openMeteoJson' | 'openMeteoCsv' | 'isdCsv' | 'stationCsv';

/** An hours file's format, told by its name and, for CSV, by its first line. */
async function formatOf(fileName: string, path: string): Promise<HoursFormat> {
  if (/\.json$/i.test(fileName)) return 'openMeteoJson';
  if (!/\.csv$/i.test(fileName)) throw badRequest('weather.format', { name: fileName });
  const firstLine = await firstLineOf(path);
  const columns = firstLine.toUpperCase().split(',');
  if (columns.includes('STATION') && columns.includes('DATE')) return 'isdCsv';
  // Open-Meteo's download starts with the place's line, or (without it) time and units in brackets.
  if (columns[0] === 'LATITUDE' || /^time,[a-z0-9_]+ \(/.test(firstLine)) return 'openMeteoCsv';
  return 'stationCsv';
}

/** Reads an hours file: station and NOAA CSVs streamed row by row, Open-Meteo's answers whole. */
export async function readWeatherFile(fileName: string, path: string, wholeMax: number): Promise<ReadResult> {
  const format = await formatOf(fileName, path);
  if (format === 'isdCsv') return readIsdCsv({ path });
  if (format === 'stationCsv') return readStationCsv({ path });
  if ((await stat(path)).size > wholeMax) throw new AppError(413, 'weather.tooLarge', { mb: wholeMax / 1024 / 1024 });
  const text = await readFile(path, 'utf8');
  return format === 'openMeteoJson' ? readOpenMeteoJson(text) : readOpenMeteoCsv(text);
}

/** The area a place's warnings cover: its project's area, or a circle around it. */
export async function placeArea(db: Db | Tx, enterpriseId: number, place: { projectId: number | null; lon: number; lat: number }): Promise<AreaGeometry> {
  const area = place.projectId !== null ? await findProjectArea(db, enterpriseId, place.projectId) : undefined;
  return area ?? circlePolygon([place.lon, place.lat], PLACE_RADIUS_M);
}

/** The most rain of any `window`-hour span within a warning's period (for a waterlogging point's trigger). */
function wettest(hours: WeatherHour[], from: number, to: number, window: number) {
  const inPeriod = hours.filter((h) => Date.parse(h.time) >= from - window * 3_600_000 && Date.parse(h.time) <= to);
  let best = 0;
  for (let i = 0; i < inPeriod.length; i++) {
    const end = Date.parse(inPeriod[i].time);
    let sum = 0;
    for (let j = i; j >= 0 && end - Date.parse(inPeriod[j].time) < window * 3_600_000; j--) sum += inPeriod[j].precipitation ?? 0;
    best = Math.max(best, sum);
  }
  return Math.round(best * 10) / 10;
}

/** Derives a place's warnings of one basis again from all its hours of that kind, with what each touches. */
async function rederive(tx: Tx, enterpriseId: number, place: typeof weatherPlaces.$inferSelect, kind: 'observed' | 'forecast') {
  const rows = await tx.select().from(weatherHours).where(and(eq(weatherHours.placeId, place.id), eq(weatherHours.kind, kind))).orderBy(asc(weatherHours.time));
  const hours: WeatherHour[] = rows.map((r) => ({ time: r.time.toISOString(), precipitation: r.precipitation, temperature: r.temperature, windSpeed: r.windSpeed, windGust: r.windGust }));
  await tx.delete(weatherWarnings).where(and(eq(weatherWarnings.placeId, place.id), eq(weatherWarnings.source, 'derived'), eq(weatherWarnings.basis, kind)));
  const area = await placeArea(tx, enterpriseId, place);
  const derived = deriveWarnings(hours);
  for (const w of derived) {
    await tx.insert(weatherWarnings).values({
      enterpriseId, placeId: place.id, source: 'derived', basis: kind, type: w.type, level: w.level, start: new Date(w.start), end: new Date(w.end), value: w.value, rule: w.rule, levels: w.levels, area,
      touches: await warningTouches(tx, enterpriseId, w.type, area, (window) => wettest(hours, Date.parse(w.start), Date.parse(w.end), window)),
    });
  }
  return derived.length;
}

/** A place to keep weather for: known by its code within the enterprise. */
export interface PlaceInput {
  code: string;
  name?: string;
  projectId?: number;
  lon: number;
  lat: number;
}

/**
 * Keeps hours of one kind for a place (made, or found by its code) and derives the place's warnings
 * of that kind again, inside the caller's transaction. Answers the place, the hours and the warnings.
 */
export async function keepHoursIn(tx: Tx, enterpriseId: number, input: PlaceInput, kind: 'observed' | 'forecast', hours: WeatherHour[]) {
  const [place] = await tx
    .insert(weatherPlaces)
    .values({ enterpriseId, code: input.code, name: input.name ?? input.code, lon: input.lon, lat: input.lat, projectId: input.projectId ?? null })
    // A place already known by its code keeps its name and project unless new ones are given.
    .onConflictDoUpdate({ target: [weatherPlaces.enterpriseId, weatherPlaces.code], set: { code: sql`excluded.code`, ...(input.name ? { name: input.name } : {}), ...(input.projectId !== undefined ? { projectId: input.projectId } : {}) } })
    .returning();
  for (let i = 0; i < hours.length; i += HOURS_PER_WRITE) {
    await tx
      .insert(weatherHours)
      .values(hours.slice(i, i + HOURS_PER_WRITE).map((h) => ({ placeId: place.id, kind, time: new Date(h.time), precipitation: h.precipitation, temperature: h.temperature, windSpeed: h.windSpeed, windGust: h.windGust })))
      .onConflictDoUpdate({
        target: [weatherHours.placeId, weatherHours.kind, weatherHours.time],
        set: { precipitation: sql`excluded.precipitation`, temperature: sql`excluded.temperature`, windSpeed: sql`excluded.wind_speed`, windGust: sql`excluded.wind_gust` },
      });
  }
  return { placeId: place.id, hours: hours.length, warnings: await rederive(tx, enterpriseId, place, kind) };
}

export const keepHours = (db: Db, enterpriseId: number, input: PlaceInput, kind: 'observed' | 'forecast', hours: WeatherHour[]) =>
  db.transaction((tx) => keepHoursIn(tx, enterpriseId, input, kind, hours));

/**
 * A file's hours, all or nothing (the problems by row when any): each station it holds is a place
 * known by its code. For a file of one place the form may give (or override) its code, name,
 * project and lon/lat; a file of several stations must say where each is.
 */
export async function importWeather(
  db: Db,
  enterpriseId: number,
  input: { fileName: string; path: string; kind: 'observed' | 'forecast'; code?: string; name?: string; projectId?: number; lon?: number; lat?: number },
): Promise<{ places: number; placeId: number; hours: number; warnings: number } | Refused> {
  if (input.projectId !== undefined) await assertProject(db, enterpriseId, input.projectId);
  const read = await readWeatherFile(input.fileName, input.path, WHOLE_FILE_MAX);
  if ('problems' in read) return read;
  const single = read.stations.length === 1;
  const places: PlaceInput[] = [];
  const problems: ImportProblemRecord[] = [];
  for (const station of read.stations) {
    const lon = (single ? input.lon : undefined) ?? station.place?.lon, lat = (single ? input.lat : undefined) ?? station.place?.lat;
    if (lon === undefined || lat === undefined) {
      if (single) throw badRequest('weather.placeMissing');
      problems.push(problem(null, station.code ?? null, 'lon/lat', 'weather.stationPlaceMissing', { code: station.code ?? '' }));
      continue;
    }
    const code = (single ? input.code : undefined) ?? station.code ?? `${lat.toFixed(3)},${lon.toFixed(3)}`;
    places.push({ code, name: (single ? input.name : undefined) ?? station.name, projectId: single ? input.projectId : undefined, lon, lat });
  }
  if (problems.length) return { problems };
  return db.transaction(async (tx) => {
    const total = { places: places.length, placeId: 0, hours: 0, warnings: 0 };
    for (const [i, place] of places.entries()) {
      const kept = await keepHoursIn(tx, enterpriseId, place, input.kind, read.stations[i].hours);
      total.placeId ||= kept.placeId;
      total.hours += kept.hours;
      total.warnings += kept.warnings;
    }
    return total;
  });
}

/** The places whose weather is kept, each with its latest observed hour (the map's current values). */
export async function listPlaces(db: Db, enterpriseId: number) {
  const rows = await queryRows<{ id: number; project_id: number | null; code: string; name: string; lon: number; lat: number; time: Date | string | null; precipitation: number | null; temperature: number | null; wind_speed: number | null; wind_gust: number | null }>(
    db,
    sql`select p.id, p.project_id, p.code, p.name, p.lon, p.lat, h.time, h.precipitation, h.temperature, h.wind_speed, h.wind_gust
        from ${weatherPlaces} p
        left join lateral (select * from ${weatherHours} where place_id = p.id and kind = 'observed' order by time desc limit 1) h on true
        where p.enterprise_id = ${enterpriseId} order by p.name`,
  );
  return rows.map((r) => ({
    id: r.id,
    projectId: r.project_id,
    code: r.code,
    name: r.name,
    lon: r.lon,
    lat: r.lat,
    latest: r.time === null ? null : { time: new Date(r.time).toISOString(), precipitation: r.precipitation, temperature: r.temperature, windSpeed: r.wind_speed, windGust: r.wind_gust },
  }));
}

/** A place's hours of one kind in a period (at most 31 days at a time). */
export async function placeHours(db: Db, enterpriseId: number, placeId: number, q: { kind: 'observed' | 'forecast'; from: string; to: string }) {
  const [place] = await db.select({ id: weatherPlaces.id }).from(weatherPlaces).where(and(eq(weatherPlaces.id, placeId), eq(weatherPlaces.enterpriseId, enterpriseId)));
  if (!place) throw notFound('notFound.weatherPlace');
  const from = new Date(q.from), to = new Date(q.to);
  if (to.getTime() - from.getTime() > 31 * 86_400_000) throw new AppError(400, 'weather.periodTooLong', { days: 31 });
  return db
    .select({ time: weatherHours.time, precipitation: weatherHours.precipitation, temperature: weatherHours.temperature, windSpeed: weatherHours.windSpeed, windGust: weatherHours.windGust })
    .from(weatherHours)
    .where(and(eq(weatherHours.placeId, placeId), eq(weatherHours.kind, q.kind), gte(weatherHours.time, from), lte(weatherHours.time, to)))
    .orderBy(asc(weatherHours.time));
}

/** Warnings overlapping a period (newest first), optionally of some places. */
export async function listWarnings(db: Db, enterpriseId: number, q: { from?: string; to?: string; placeIds?: number[] }) {
  const where = [eq(weatherWarnings.enterpriseId, enterpriseId)];
  if (q.from) where.push(gte(weatherWarnings.end, new Date(q.from)));
  if (q.to) where.push(lte(weatherWarnings.start, new Date(q.to)));
  if (q.placeIds?.length) where.push(inArray(weatherWarnings.placeId, q.placeIds));
  return db.select().from(weatherWarnings).where(and(...where)).orderBy(desc(weatherWarnings.start)).limit(500);
}

export async function getWarning(db: Db, enterpriseId: number, id: number) {
  const [warning] = await db.select().from(weatherWarnings).where(and(eq(weatherWarnings.id, id), eq(weatherWarnings.enterpriseId, enterpriseId)));
  if (!warning) throw notFound('notFound.weatherWarning');
  return warning;
}
