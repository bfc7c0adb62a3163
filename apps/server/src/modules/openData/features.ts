import { sql, type SQL } from 'drizzle-orm';
import { PERSONAL_TOKEN_QUERY_KEY } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { badRequest } from '../../http/errors.ts';
import type { CollectionSource, Property } from './collections.ts';
import { CRS84, CRS_URIS, crsOf, reprojectGeometry, type Crs } from './crs.ts';

/** Features a page holds at most, and when `limit` is not given. */
export const MAX_LIMIT = 10_000;
export const DEFAULT_LIMIT = 100;
/** Rows read from the database at a time while a page is written out. */
const CHUNK = 1_000;
/** A count past this is not worth its time: numberMatched is left out (it is optional). */
const COUNT_CAP = 100_000;

/** Query parameters every items request may carry besides the collection's queryables. */
const COMMON_PARAMETERS = new Set(['limit', 'bbox', 'bbox-crs', 'crs', 'datetime', 'cursor', 'f', PERSONAL_TOKEN_QUERY_KEY]);

export interface ItemsQuery {
  limit: number;
  crs: Crs;
  /** [minlon, minlat, maxlon, maxlat] windows, any of which a feature meets (two when bbox crosses the antimeridian). */
  boxes: Box[] | null;
  datetime: { start: string | null; end: string | null } | null;
  after: number | null;
  filters: { property: Property; values: (string | number | boolean)[] }[];
}

type Box = [number, number, number, number];

/**
 * The windows of a bbox, in storage lon/lat: its lower corner comes first in the CRS's own axis
 * order. A west edge east of the east edge crosses the antimeridian (OGC API Features 7.15.3):
 * two windows, one on each side.
 */
function parseBox(text: string, crs: Crs): Box[] {
  const numbers = text.split(',').map((v) => (v.trim() === '' ? Number.NaN : Number(v)));
  if ((numbers.length !== 4 && numbers.length !== 6) || numbers.some((n) => !Number.isFinite(n))) throw badRequest('openData.bbox');
  const [a0, b0, a1, b1] = numbers.length === 4 ? numbers : [numbers[0], numbers[1], numbers[3], numbers[4]];
  const [west, south] = crs.toStorage(a0, b0);
  const [east, north] = crs.toStorage(a1, b1);
  if (![west, south, east, north].every(Number.isFinite) || south > north) throw badRequest('openData.bbox');
  return west <= east ? [[west, south, east, north]] : [[west, south, 180, north], [-180, south, east, north]];
}

const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function parseInstant(text: string): string | null {
  if (text === '..' || text === '') return null;
  if (!INSTANT.test(text) || Number.isNaN(Date.parse(text))) throw badRequest('openData.datetime');
  return text;
}

function parseDatetime(text: string): ItemsQuery['datetime'] {
  const parts = text.split('/');
  if (parts.length > 2) throw badRequest('openData.datetime');
  if (parts.length === 1) {
    const instant = parseInstant(parts[0]);
    if (!instant) throw badRequest('openData.datetime');
    return { start: instant, end: instant };
  }
  const [start, end] = parts.map(parseInstant);
  if (start && end && Date.parse(start) > Date.parse(end)) throw badRequest('openData.datetime');
  return { start, end };
}

function parseValue(property: Property, text: string): string | number | boolean {
  if (property.type === 'integer' || property.type === 'number') {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || (property.type === 'integer' && !Number.isInteger(value))) {
      throw badRequest('openData.filter', { name: property.name, reason: { 'en-US': property.type === 'integer' ? 'must be a whole number' : 'must be a number', 'zh-CN': property.type === 'integer' ? '须为整数' : '须为数字' } });
    }
    return value;
  }
  if (property.type === 'boolean') {
    if (text !== 'true' && text !== 'false') throw badRequest('openData.filter', { name: property.name, reason: { 'en-US': 'must be true or false', 'zh-CN': '须为 true 或 false' } });
    return text === 'true';
  }
  return text;
}

/** The CRS a request names in `crs` or `bbox-crs` (CRS84 when it names none). */
export function crsParameter(query: Record<string, unknown>, name: 'crs' | 'bbox-crs'): Crs {
  const value = query[name];
  if (value === undefined) return crsOf(CRS84)!;
  const crs = typeof value === 'string' ? crsOf(value) : undefined;
  if (!crs) throw badRequest('openData.crs', { name, list: CRS_URIS.join(', ') });
  return crs;
}

/** Reads an items request's parameters; anything the collection does not offer is refused by name. */
export function parseItemsQuery(source: CollectionSource, query: Record<string, unknown>): ItemsQuery {
  const text = (name: string) => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw badRequest('openData.filter', { name, reason: { 'en-US': 'given more than once', 'zh-CN': '重复给出' } });
    return value;
  };
  const queryables = new Map(source.properties.filter((p) => p.queryable).map((p) => [p.name, p]));
  for (const name of Object.keys(query)) {
    if (!COMMON_PARAMETERS.has(name) && !queryables.has(name)) {
      throw badRequest('openData.unknownParameter', { name, list: [...queryables.keys()].join(', ') || '-' });
    }
  }
  const limitText = text('limit');
  const asked = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(asked) || asked < 1) throw badRequest('openData.limit', { max: MAX_LIMIT });
  // More than the most a page holds is served as the most (OGC API Features, requirement 22C).
  const limit = Math.min(asked, MAX_LIMIT);
  const crs = crsParameter(query, 'crs');
  const bboxText = text('bbox');
  const boxes = bboxText === undefined ? null : parseBox(bboxText, crsParameter(query, 'bbox-crs'));
  const datetimeText = text('datetime');
  const datetime = datetimeText === undefined ? null : parseDatetime(datetimeText);
  const cursorText = text('cursor');
  const after = cursorText === undefined ? null : Number(cursorText);
  if (after !== null && (!/^\d{1,18}$/.test(cursorText!) || !Number.isSafeInteger(after))) throw badRequest('openData.cursor');
  const filters = [...queryables.values()]
    .filter((property) => text(property.name) !== undefined)
    .map((property) => ({ property, values: text(property.name)!.split(',').map((v) => parseValue(property, v)) }));
  return { limit, crs, boxes, datetime, after, filters };
}

/** The WHERE of a request: the source's own (the enterprise) and each of the request's conditions. */
function conditionsOf(source: CollectionSource, query: Omit<ItemsQuery, 'limit' | 'crs' | 'after'>): SQL[] {
  const conditions = [source.where];
  // The box index finds the rows whose envelope meets a window; the geometry itself must meet it.
  // A feature whose envelope lies within the window needs no more (most, for a map's view).
  const exact = (box: Box) => sql`geometry_meets_box(${source.shape}, ${box[0]}::float8, ${box[1]}::float8, ${box[2]}::float8, ${box[3]}::float8)`;
  const meets = (box: Box) => (source.shape ? sql`(${source.inBox(box)} and (${source.envelopeWithin ? sql`${source.envelopeWithin(box)} or ` : sql``}${exact(box)}))` : source.inBox(box));
  if (query.boxes) conditions.push(sql`(${sql.join(query.boxes.map(meets), sql` or `)})`);
  // A layer without time (pipes, settlement points) has no feature whose time meets the period
  // (OGC API Features 7.15.4): the document offers datetime on every layer, and it is answered.
  if (query.datetime && !source.time) conditions.push(sql`false`);
  if (query.datetime && source.time) {
    const cast = source.time.type === 'date' ? sql`::date` : sql`::timestamptz`;
    const { start: from, end: to } = source.time;
    const last = to ? sql`coalesce(${to}, ${from})` : from;
    if (query.datetime.end !== null) conditions.push(sql`${from} <= ${query.datetime.end}${cast}`);
    if (query.datetime.start !== null) conditions.push(sql`${last} >= ${query.datetime.start}${cast}`);
    if (query.datetime.start === null && query.datetime.end === null) conditions.push(sql`${from} is not null`);
  }
  for (const { property, values } of query.filters) conditions.push(sql`${property.value} in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`);
  return conditions;
}

interface FeatureRow {
  k: string | number;
  g: string;
  p: string;
}

const propertiesJson = (source: CollectionSource) =>
  sql`json_build_object(${sql.join(
    source.properties.map((property) => sql`${sql.raw(`'${property.name}'`)}, ${property.value}`),
    sql`, `,
  )})::text`;

async function readRows(db: Db, source: CollectionSource, conditions: SQL[], after: number | null, count: number): Promise<FeatureRow[]> {
  const where = sql.join(after === null ? conditions : [...conditions, sql`${source.key} > ${after}`], sql` and `);
  return queryRows<FeatureRow>(
    db,
    sql`select ${source.key} as k, ${source.geometry} as g, ${propertiesJson(source)} as p from ${source.from} where ${where} order by ${source.key} limit ${count}`,
  );
}

/** A feature as GeoJSON text: the stored geometry as it is for CRS84, taken into another CRS otherwise. */
function featureText(row: FeatureRow, crs: Crs) {
  const geometry = crs.uri === CRS84 ? row.g : JSON.stringify(reprojectGeometry(JSON.parse(row.g), crs));
  return `{"type":"Feature","id":${Number(row.k)},"geometry":${geometry},"properties":${row.p}}`;
}

/** How many features match: the kept figure for a whole layer, a capped count otherwise (null past the cap). */
export async function numberMatched(db: Db, source: CollectionSource, query: ItemsQuery): Promise<number | null> {
  const whole = !query.boxes && !query.datetime && !query.filters.length;
  if (whole && source.summary) {
    const [row] = await queryRows<{ count: number | null }>(db, source.summary());
    return Number(row?.count ?? 0);
  }
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${source.from} where ${sql.join(conditionsOf(source, query), sql` and `)} limit ${COUNT_CAP + 1}) c`,
  );
  return row.n > COUNT_CAP ? null : row.n;
}

/** One feature by its key, as GeoJSON text, or null. */
export async function readFeature(db: Db, source: CollectionSource, key: number, crs: Crs): Promise<string | null> {
  const [row] = await queryRows<FeatureRow>(
    db,
    sql`select ${source.key} as k, ${source.geometry} as g, ${propertiesJson(source)} as p from ${source.from} where ${source.where} and ${source.key} = ${key}`,
  );
  return row ? featureText(row, crs) : null;
}

/**
 * A page of features written out as it is read, CHUNK rows at a time in key order (each read an
 * index range after the last key, never an offset): a page of 10,000 features is never held
 * whole, and the next page starts after the last key. `run` reads through the request's
 * database (stopped when its client goes away). The links come last, once it is known whether
 * there is a next page.
 */
export async function* itemsPage(
  run: <T>(work: (db: Db) => Promise<T>) => Promise<T>,
  source: CollectionSource,
  query: ItemsQuery,
  matched: number | null,
  links: (next: number | null) => object[],
  /** Told how many features went out once the page is written (or the client left: `complete` false). */
  onEnd?: (returned: number, complete: boolean) => void,
): AsyncGenerator<string> {
  const conditions = conditionsOf(source, query);
  yield '{"type":"FeatureCollection","features":[';
  let after = query.after;
  let remaining = query.limit;
  let returned = 0;
  let next: number | null = null;
  let complete = false;
  try {
    while (remaining > 0) {
      const want = Math.min(CHUNK, remaining);
      const rows = await run((db) => readRows(db, source, conditions, after, want + 1));
      const page = rows.slice(0, want);
      if (page.length) yield (returned ? ',' : '') + page.map((row) => featureText(row, query.crs)).join(',');
      returned += page.length;
      remaining -= page.length;
      if (rows.length <= want) break;
      after = Number(page[page.length - 1].k);
      if (remaining === 0) next = after;
    }
    const tail: Record<string, unknown> = { numberReturned: returned, timeStamp: new Date().toISOString(), links: links(next) };
    if (matched !== null) tail.numberMatched = matched;
    yield `],${JSON.stringify(tail).slice(1)}`;
    complete = true;
  } finally {
    onEnd?.(returned, complete);
  }
}
