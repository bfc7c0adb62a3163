import { and, asc, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { AreaGeometry, DerivedWarning, WeatherHour } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { bboxBox, constructionSites, pipes, projects, riskAreas, weatherHours, weatherPlaces, weatherWarnings, type ImportProblemRecord, type WarningTouches } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { bboxOf, circlePolygon, pointInArea } from '../../geo/geometry.ts';
import { boxSql } from '../../geo/sql.ts';
import { pipeInsideArea } from '../pipelines/queries.ts';
import { getProject } from '../projects/service.ts';
import { readOpenMeteoCsv, readOpenMeteoJson, type ReadResult } from './readers.ts';
import { deriveWarnings } from './signals.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A place without a project area is warned for this far around it. */
const PLACE_RADIUS_M = 10_000;
/** Water pipes laid shallower than this freeze first under a cold wave. */
const SHALLOW_M = 1.0;
const HOURS_PER_WRITE = 1000;

/** The reader for a file, told by its name. */
export function readWeatherFile(fileName: string, text: string): ReadResult {
  if (/\.json$/i.test(fileName)) return readOpenMeteoJson(text);
  if (/\.csv$/i.test(fileName)) return readOpenMeteoCsv(text);
  throw badRequest('weather.format', { name: fileName });
}

/** The area a place's warnings cover: its project's area, or a circle around it. */
async function placeArea(db: Db | Tx, enterpriseId: number, place: { projectId: number | null; lon: number; lat: number }): Promise<AreaGeometry> {
  if (place.projectId !== null) {
    const [project] = await db.select({ area: projects.area }).from(projects).where(and(eq(projects.id, place.projectId), eq(projects.enterpriseId, enterpriseId)));
    if (project?.area) return project.area as AreaGeometry;
  }
  return circlePolygon([place.lon, place.lat], PLACE_RADIUS_M);
}

/** The most rain of any `hours`-long window within a warning's period (for a waterlogging point's trigger). */
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

/**
 * What a warning touches inside its area: rain -> waterlogging points whose trigger the rain met,
 * and voids, collapses and subsidence zones (rain washes the ground out), with the drainage network's
 * length; cold wave -> water pipes laid shallower than 1 m; gale and heat -> construction sites at work.
 */
async function warningTouches(db: Db | Tx, enterpriseId: number, warning: DerivedWarning, area: AreaGeometry, hours: WeatherHour[]): Promise<WarningTouches> {
  const touches: WarningTouches = { pipes: [], riskAreas: [], sites: [] };
  const box = bboxOf(area);
  const inArea = (lon: number, lat: number) => pointInArea([lon, lat], area);
  const pipesWhere = async (condition: ReturnType<typeof sql>, why: WarningTouches['pipes'][number]['why']) => {
    const rows = await queryRows<{ network_type: string; count: number; length_m: number }>(
      db as Db,
      sql`select ${pipes.networkType} as network_type, count(*)::int as count, coalesce(sum(${pipes.lengthM}), 0)::float8 as length_m from ${pipes}
          where ${pipes.enterpriseId} = ${enterpriseId} and ${pipeInsideArea(area)} and ${condition} group by ${pipes.networkType}`,
    );
    for (const r of rows) touches.pipes.push({ networkType: r.network_type, count: Number(r.count), lengthM: Math.round(Number(r.length_m)), why });
  };
  if (warning.type === 'rainstorm') {
    const candidates = await db
      .select()
      .from(riskAreas)
      .where(and(eq(riskAreas.enterpriseId, enterpriseId), ne(riskAreas.status, 'remediated'), sql`${bboxBox(riskAreas)} && ${boxSql(box)}`));
    for (const a of candidates) {
      if (!inArea((a.minx + a.maxx) / 2, (a.miny + a.maxy) / 2)) continue;
      if (a.kind === 'waterlogging') {
        if (a.triggerRainMm === null || a.triggerHours === null) continue;
        const rain = wettest(hours, Date.parse(warning.start), Date.parse(warning.end), a.triggerHours);
        if (rain >= a.triggerRainMm) touches.riskAreas.push({ id: a.id, name: a.name, kind: a.kind, why: 'triggerMet', rainMm: rain, hours: a.triggerHours, triggerMm: a.triggerRainMm });
      } else if (a.kind !== 'geoHazard') touches.riskAreas.push({ id: a.id, name: a.name, kind: a.kind, why: 'washOut' });
    }
    await pipesWhere(sql`${pipes.networkType} = 'drainage'`, 'drainageUnderRain');
  }
  if (warning.type === 'coldWave') await pipesWhere(sql`${pipes.networkType} = 'water' and ${pipes.depthM} < ${SHALLOW_M}`, 'shallowWater');
  if (warning.type === 'gale' || warning.type === 'heat') {
    const sites = await db
      .select({ id: constructionSites.id, siteNo: constructionSites.siteNo, name: constructionSites.name, lon: constructionSites.centerLon, lat: constructionSites.centerLat })
      .from(constructionSites)
      .where(and(eq(constructionSites.enterpriseId, enterpriseId), eq(constructionSites.buildState, 'inProgress'), ne(constructionSites.status, 'closed'), sql`${bboxBox(constructionSites)} && ${boxSql(box)}`));
    touches.sites = sites.filter((s) => inArea(s.lon, s.lat)).map(({ id, siteNo, name }) => ({ id, siteNo, name }));
  }
  return touches;
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
      touches: await warningTouches(tx, enterpriseId, w, area, hours),
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
 * Keeps hours of one kind for a place (made, or found by its code), in one transaction, and
 * derives the place's warnings of that kind again. Answers the place, the hours and the warnings.
 */
export async function keepHours(db: Db, enterpriseId: number, input: PlaceInput, kind: 'observed' | 'forecast', hours: WeatherHour[]) {
  return db.transaction(async (tx) => {
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
  });
}

/** A file's hours for a place, all or nothing (the problems by row when any). */
export async function importWeather(
  db: Db,
  enterpriseId: number,
  input: { fileName: string; text: string; kind: 'observed' | 'forecast'; code?: string; name?: string; projectId?: number; lon?: number; lat?: number },
): Promise<{ placeId: number; hours: number; warnings: number } | { problems: ImportProblemRecord[] }> {
  if (input.projectId !== undefined) await getProject(db, enterpriseId, input.projectId);
  const read = readWeatherFile(input.fileName, input.text);
  if ('problems' in read) return read;
  const lon = input.lon ?? read.place?.lon, lat = input.lat ?? read.place?.lat;
  if (lon === undefined || lat === undefined) throw badRequest('weather.placeMissing');
  const code = input.code ?? `${lat.toFixed(3)},${lon.toFixed(3)}`;
  return keepHours(db, enterpriseId, { code, name: input.name, projectId: input.projectId, lon, lat }, input.kind, read.hours);
}

export const listPlaces = (db: Db, enterpriseId: number) => db.select().from(weatherPlaces).where(eq(weatherPlaces.enterpriseId, enterpriseId)).orderBy(asc(weatherPlaces.name));

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
