import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parse as parseSync } from 'csv-parse/sync';
import { wktToGeoJSON } from 'betterknown';
import type { Geometry } from 'geojson';
import type { MessageKey } from '@console/contract';
import { crsOfSrid } from '../crs.ts';
import { sniffEncoding } from './encoding.ts';
import { UnreadableFile, type Source, type SourceFeature } from './types.ts';

const WKT_COLUMNS = /^(wkt|wkt_geom|geometry|geom|the_geom|shape)$/i;
const LON_COLUMNS = /^(lon|lng|long|longitude|x|经度)$/i;
const LAT_COLUMNS = /^(lat|latitude|y|纬度)$/i;
/** Projected coordinates by name (EGMS ortho products carry only these, in EPSG:3035). */
const EASTING_COLUMNS = /^(easting|east|东坐标)$/i;
const NORTHING_COLUMNS = /^(northing|north|北坐标)$/i;

/** A quoted record's quotes are balanced once it is whole ("" inside a field counts twice). */
const quotesBalanced = (text: string) => (text.split('"').length - 1) % 2 === 0;

function parseQuoted(text: string): string[] {
  try {
    return (parseSync(text, { relax_quotes: true, relax_column_count: true }) as string[][])[0] ?? [];
  } catch (error) {
    throw new UnreadableFile('import.unreadable', { format: 'CSV', detail: (error as Error).message });
  }
}

/** A quote only opens a quoted field at the field's start; elsewhere it is a character (relaxed). */
const opensQuotedField = (text: string) => text.includes('"') && /(^|,)\s*"/.test(text);

/** A record's fields: a line without a quote at a field's start is split at its commas, any other goes to csv-parse. */
export function recordFields(text: string): string[] {
  return opensQuotedField(text) ? parseQuoted(text) : text.split(',');
}

/**
 * The file's records as their text, a file chunk's worth at a time: a record is a line, or the
 * lines of a record whose quoted field runs over several. Empty lines are skipped; a BOM goes.
 */
async function* csvRecordTexts(path: string, encoding: string, onBytes: (n: number) => void, lastLine = Infinity): AsyncGenerator<string[]> {
  const decoder = new TextDecoder(encoding);
  let rest = '';
  let pending: string | null = null;
  let lines = 0;
  const take = (raw: string, out: string[]) => {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lines === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (pending !== null) {
      pending += `\n${line}`;
      if (quotesBalanced(pending)) out.push(pending), (pending = null), lines++;
    } else if (!line.trim()) return;
    else if (!opensQuotedField(line) || quotesBalanced(line)) out.push(line), lines++;
    else pending = line;
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    onBytes((chunk as Buffer).length);
    const parts = (rest + decoder.decode(chunk as Buffer, { stream: true })).split('\n');
    rest = parts.pop()!;
    const out: string[] = [];
    for (let i = 0; i < parts.length && lines < lastLine; i++) take(parts[i], out);
    yield out;
    if (lines >= lastLine) return;
  }
  const out: string[] = [];
  take(rest + decoder.decode(), out);
  yield out;
  if (pending !== null) throw new UnreadableFile('import.unreadable', { format: 'CSV', detail: 'a quoted field is not closed' });
}

/**
 * The file's records as arrays of fields. Wide numeric files, such as an InSAR delivery with a
 * column per date, are almost all lines without quotes, split at their commas.
 */
async function* csvRecords(path: string, encoding: string, onBytes: (n: number) => void, lastLine = Infinity): AsyncGenerator<string[]> {
  for await (const texts of csvRecordTexts(path, encoding, onBytes, lastLine)) for (const text of texts) yield recordFields(text);
}

/** The header row of the CSV. */
async function headerOf(path: string, encoding: string): Promise<string[]> {
  for await (const record of csvRecords(path, encoding, () => {}, 1)) return record.map((name) => name.trim());
  return [];
}

/**
 * A row of the file. Its attributes by name are made on first use only: a reader of a wide file
 * (hundreds of columns) takes `values` by position instead.
 */
class CsvFeature implements SourceFeature {
  private named: Record<string, unknown> | null = null;
  constructor(
    readonly row: number,
    readonly geometry: Geometry | null,
    readonly values: readonly string[],
    private readonly attributes: readonly [name: string, index: number][],
    readonly problem?: MessageKey,
  ) {}
  get properties(): Record<string, unknown> {
    if (!this.named) {
      this.named = {};
      for (const [name, index] of this.attributes) this.named[name] = this.values[index];
    }
    return this.named;
  }
}

/**
 * A CSV file with a WKT geometry column (as GDAL and QGIS write it) or longitude/latitude columns
 * for points (or easting/northing: EPSG:3035 in an EGMS file, otherwise the user's choice); UTF-8
 * or GBK. Coordinates are taken as WGS 84 unless the user says otherwise.
 */
export async function openCsv(path: string): Promise<Source> {
  const size = (await stat(path)).size;
  const encoding = await sniffEncoding(path);
  let header: string[];
  try {
    header = await headerOf(path, encoding);
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw new UnreadableFile('import.unreadable', { format: 'CSV', detail: (error as Error).message });
  }
  if (header.every((name) => !name.trim())) throw new UnreadableFile('import.emptyFile');
  const wktColumn = header.findIndex((name) => WKT_COLUMNS.test(name));
  let lonColumn = header.findIndex((name) => LON_COLUMNS.test(name));
  let latColumn = header.findIndex((name) => LAT_COLUMNS.test(name));
  let crs = crsOfSrid(4326);
  if (wktColumn < 0 && (lonColumn < 0 || latColumn < 0)) {
    lonColumn = header.findIndex((name) => EASTING_COLUMNS.test(name));
    latColumn = header.findIndex((name) => NORTHING_COLUMNS.test(name));
    // An EGMS point file says what it is by its columns; otherwise the user picks the system.
    crs = header.includes('mean_velocity') ? crsOfSrid(3035) : null;
  }
  if (wktColumn < 0 && (lonColumn < 0 || latColumn < 0)) throw new UnreadableFile('import.noGeometryColumn');
  const geometryColumns = new Set(wktColumn >= 0 ? [wktColumn] : [lonColumn, latColumn]);
  // Later columns of the same name win, as they did when rows were read as objects.
  const attributes = [...new Map(header.map((name, index) => [name, index] as const).filter(([, index]) => !geometryColumns.has(index))).entries()];
  const layout: CsvLayout = { wktColumn, lonColumn, latColumn, attributes };
  let bytesRead = 0;
  const onBytes = (n: number) => (bytesRead += n);
  const readable = async function* <T>(records: AsyncGenerator<T>): AsyncGenerator<T> {
    try {
      yield* records;
    } catch (error) {
      if (error instanceof UnreadableFile) throw error;
      throw new UnreadableFile('import.unreadable', { format: 'CSV', detail: (error as Error).message });
    }
  };
  return {
    format: 'csv',
    crs,
    columns: header,
    layout,
    progress: () => (size ? bytesRead / size : 1),
    async *features(): AsyncGenerator<SourceFeature> {
      let row = 0;
      for await (const values of readable(csvRecords(path, encoding, onBytes))) {
        if (row++ === 0) continue; // the header
        yield csvFeature(values, row - 1, layout);
      }
    },
    async *recordBatches(size: number) {
      let row = 0;
      let batch: string[] = [];
      for await (const texts of readable(csvRecordTexts(path, encoding, onBytes))) {
        for (const text of texts) {
          if (row++ === 0) continue; // the header
          batch.push(text);
          if (batch.length === size) yield { firstRow: row - size, records: batch }, (batch = []);
        }
      }
      if (batch.length) yield { firstRow: row - batch.length, records: batch };
    },
  };
}

/** Where a CSV keeps its geometry and attributes (plain data: a worker thread gets it too). */
export interface CsvLayout {
  wktColumn: number;
  lonColumn: number;
  latColumn: number;
  attributes: [name: string, index: number][];
}

/** A record's feature: its geometry from the WKT or coordinate columns, or why there is none. */
export function csvFeature(values: string[], row: number, layout: CsvLayout): SourceFeature {
  const feature = (geometry: Geometry | null, problem?: MessageKey) => new CsvFeature(row, geometry, values, layout.attributes, problem);
  if (layout.wktColumn >= 0) {
    const text = values[layout.wktColumn]?.trim();
    if (!text) return feature(null);
    const geometry = safeWkt(text);
    return geometry ? feature(geometry) : feature(null, 'import.wkt');
  }
  const lonText = values[layout.lonColumn]?.trim() ?? '';
  const latText = values[layout.latColumn]?.trim() ?? '';
  const lon = Number(lonText);
  const lat = Number(latText);
  if (lonText === '' || latText === '') return feature(null);
  if (!Number.isFinite(lon) || !Number.isFinite(lat)) return feature(null, 'import.coordinates');
  return feature({ type: 'Point', coordinates: [lon, lat] });
}

function safeWkt(text: string): Geometry | null {
  try {
    return (wktToGeoJSON(text) as Geometry | null) ?? null;
  } catch {
    return null;
  }
}
