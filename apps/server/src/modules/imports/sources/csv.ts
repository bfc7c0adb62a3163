import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parse as parseSync } from 'csv-parse/sync';
import { wktToGeoJSON } from 'betterknown';
import type { Geometry } from 'geojson';
import type { MessageKey } from '@console/contract';
import { crsOfSrid } from '../crs.ts';
import { sniffEncoding } from './encoding.ts';
import { MAX_FIELDS, refuseNul, tooManyFields, UnreadableFile, type CsvLayout, type Source, type SourceFeature } from './types.ts';

const WKT_COLUMNS = /^(wkt|wkt_geom|geometry|geom|the_geom|shape)$/i;
const LON_COLUMNS = /^(lon|lng|long|longitude|x|经度)$/i;
const LAT_COLUMNS = /^(lat|latitude|y|纬度)$/i;
/** Projected coordinates by name (EGMS ortho products carry only these, in EPSG:3035). */
const EASTING_COLUMNS = /^(easting|east|东坐标)$/i;
const NORTHING_COLUMNS = /^(northing|north|北坐标)$/i;

/** Quotes in a text ("" inside a field counts twice: a quoted record is whole once they are even). */
const quoteCount = (text: string) => text.split('"').length - 1;

/**
 * The longest record (line, or the lines of a quoted field) read, in characters: real records are
 * kilobytes (a wide InSAR row) to a few megabytes (a WKT polygon); a file without line breaks is
 * refused at this length instead of being held whole.
 */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;
const recordTooLong = (row: number) => new UnreadableFile('import.lineTooLong', { row, mb: MAX_RECORD_CHARS / 1024 / 1024 });

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
 * Each character is copied once (an unfinished line is kept as pieces, joined when it ends), and
 * no record may pass MAX_RECORD_CHARS.
 */
async function* csvRecordTexts(path: string, encoding: string, onBytes: (n: number) => void, lastLine = Infinity): AsyncGenerator<string[]> {
  const decoder = new TextDecoder(encoding);
  let pieces: string[] = [];
  let piecesLength = 0;
  let pending: string[] | null = null;
  let pendingLength = 0;
  let pendingQuotes = 0;
  let lines = 0;
  let physicalLine = 0;
  const take = (raw: string, out: string[]) => {
    physicalLine++;
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lines === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (pending !== null) {
      pending.push(line);
      pendingLength += line.length + 1;
      pendingQuotes += quoteCount(line);
      if (pendingLength > MAX_RECORD_CHARS) throw recordTooLong(physicalLine);
      if (pendingQuotes % 2 === 0) out.push(pending.join('\n')), (pending = null), lines++;
    } else if (!line.trim()) return;
    else if (!opensQuotedField(line) || quoteCount(line) % 2 === 0) out.push(line), lines++;
    else (pending = [line]), (pendingLength = line.length), (pendingQuotes = quoteCount(line));
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    onBytes((chunk as Buffer).length);
    const text = decoder.decode(chunk as Buffer, { stream: true });
    const out: string[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0 && lines < lastLine; end = text.indexOf('\n', start)) {
      const part = text.slice(start, end);
      take(piecesLength ? pieces.join('') + part : part, out);
      (pieces = []), (piecesLength = 0), (start = end + 1);
    }
    if (lines >= lastLine) return yield out;
    if (start < text.length) pieces.push(text.slice(start)), (piecesLength += text.length - start);
    if (piecesLength > MAX_RECORD_CHARS) throw recordTooLong(physicalLine + 1);
    yield out;
  }
  const out: string[] = [];
  take(pieces.join('') + decoder.decode(), out);
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
  // Refused from the header, before its names are looked at or any row is read.
  if (header.length > MAX_FIELDS) throw tooManyFields(header.length);
  const nulColumn = header.findIndex((name) => name.includes('\0'));
  if (nulColumn >= 0) throw new UnreadableFile('import.nulColumn', { column: nulColumn + 1 });
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
      for await (const texts of readable(csvRecordTexts(path, encoding, onBytes))) {
        for (const text of texts) {
          if (row++ === 0) continue; // the header
          yield recordFeature(text, row - 1, layout);
        }
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

/** A record's feature from its text (U+0000 looked for once in the whole record, then named by field). */
export function recordFeature(text: string, row: number, layout: CsvLayout): SourceFeature {
  const feature = csvFeature(recordFields(text), row, layout);
  if (text.includes('\0')) refuseNul(row, feature.properties);
  return feature;
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
