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

/**
 * The file's records as arrays of fields. A line without a quote is split at its commas (wide
 * numeric files, such as an InSAR delivery with a column per date, are almost all such lines);
 * a record with quotes, which may run over several lines, goes to csv-parse.
 */
async function* csvRecords(path: string, encoding: string, onBytes: (n: number) => void, lastLine = Infinity): AsyncGenerator<string[]> {
  const decoder = new TextDecoder(encoding);
  let rest = '';
  let pending: string | null = null;
  let lines = 0;
  function* record(raw: string): Generator<string[]> {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lines === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (pending !== null) {
      pending += `\n${line}`;
      if (quotesBalanced(pending)) {
        const whole = pending;
        pending = null;
        lines++;
        yield parseQuoted(whole);
      }
      return;
    }
    if (!line.trim()) return;
    // A quote only opens a quoted field at the field's start; elsewhere it is a character (relaxed).
    if (!line.includes('"') || !/(^|,)\s*"/.test(line)) {
      lines++;
      yield line.split(',');
    } else if (quotesBalanced(line)) {
      lines++;
      yield parseQuoted(line);
    } else pending = line;
  }
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    onBytes((chunk as Buffer).length);
    const parts = (rest + decoder.decode(chunk as Buffer, { stream: true })).split('\n');
    rest = parts.pop()!;
    for (const part of parts) {
      yield* record(part);
      if (lines >= lastLine) return;
    }
  }
  yield* record(rest + decoder.decode());
  if (pending !== null) throw new UnreadableFile('import.unreadable', { format: 'CSV', detail: 'a quoted field is not closed' });
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
  let bytesRead = 0;
  return {
    format: 'csv',
    crs,
    columns: header,
    progress: () => (size ? bytesRead / size : 1),
    async *features(): AsyncGenerator<SourceFeature> {
      let row = 0;
      try {
        for await (const values of csvRecords(path, encoding, (n) => (bytesRead += n))) {
          if (row++ === 0) continue; // the header
          const feature = (geometry: Geometry | null, problem?: MessageKey) => new CsvFeature(row - 1, geometry, values, attributes, problem);
          if (wktColumn >= 0) {
            const text = values[wktColumn]?.trim();
            if (!text) yield feature(null);
            else {
              const geometry = safeWkt(text);
              yield geometry ? feature(geometry) : feature(null, 'import.wkt');
            }
          } else {
            const lonText = values[lonColumn]?.trim() ?? '';
            const latText = values[latColumn]?.trim() ?? '';
            const lon = Number(lonText);
            const lat = Number(latText);
            if (lonText === '' || latText === '') yield feature(null);
            else if (!Number.isFinite(lon) || !Number.isFinite(lat)) yield feature(null, 'import.coordinates');
            else yield feature({ type: 'Point', coordinates: [lon, lat] });
          }
        }
      } catch (error) {
        if (error instanceof UnreadableFile) throw error;
        throw new UnreadableFile('import.unreadable', { format: 'CSV', detail: (error as Error).message });
      }
    },
  };
}

function safeWkt(text: string): Geometry | null {
  try {
    return (wktToGeoJSON(text) as Geometry | null) ?? null;
  } catch {
    return null;
  }
}
