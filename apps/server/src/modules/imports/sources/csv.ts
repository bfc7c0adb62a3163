import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, Transform, type Readable } from 'node:stream';
import { parse, type Options as CsvOptions } from 'csv-parse';
import { wktToGeoJSON } from 'betterknown';
import type { Geometry } from 'geojson';
import { crsOfSrid } from '../crs.ts';
import { sniffEncoding } from './encoding.ts';
import { UnreadableFile, type Source, type SourceFeature } from './types.ts';

const WKT_COLUMNS = /^(wkt|wkt_geom|geometry|geom|the_geom|shape)$/i;
const LON_COLUMNS = /^(lon|lng|long|longitude|x|经度)$/i;
const LAT_COLUMNS = /^(lat|latitude|y|纬度)$/i;
/** Projected coordinates by name (EGMS ortho products carry only these, in EPSG:3035). */
const EASTING_COLUMNS = /^(easting|east|东坐标)$/i;
const NORTHING_COLUMNS = /^(northing|north|北坐标)$/i;

/** The file as text records; read errors reach whoever iterates the result. */
function records(path: string, encoding: string, onBytes: (n: number) => void, options: CsvOptions): Readable {
  const decoder = new TextDecoder(encoding);
  return pipeline(
    createReadStream(path, { highWaterMark: 1 << 20 }),
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        onBytes(chunk.length);
        callback(null, decoder.decode(chunk, { stream: true }));
      },
      flush(callback) {
        callback(null, decoder.decode());
      },
    }),
    parse(options),
    () => {},
  );
}

/** The header row of the CSV. */
async function headerOf(path: string, encoding: string): Promise<string[]> {
  for await (const record of records(path, encoding, () => {}, { bom: true, to_line: 1, relax_quotes: true })) return (record as string[]).map((name) => name.trim());
  return [];
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
    throw new UnreadableFile('import.unreadable', { format: 'CSV', detail: (error as Error).message });
  }
  if (header.every((name) => !name.trim())) throw new UnreadableFile('import.emptyFile');
  const wktColumn = header.find((name) => WKT_COLUMNS.test(name));
  let lonColumn = header.find((name) => LON_COLUMNS.test(name));
  let latColumn = header.find((name) => LAT_COLUMNS.test(name));
  let crs = crsOfSrid(4326);
  if (!wktColumn && !(lonColumn && latColumn)) {
    lonColumn = header.find((name) => EASTING_COLUMNS.test(name));
    latColumn = header.find((name) => NORTHING_COLUMNS.test(name));
    // An EGMS point file says what it is by its columns; otherwise the user picks the system.
    crs = header.includes('mean_velocity') ? crsOfSrid(3035) : null;
  }
  if (!wktColumn && !(lonColumn && latColumn)) throw new UnreadableFile('import.noGeometryColumn');
  const geometryColumns = new Set(wktColumn ? [wktColumn] : [lonColumn!, latColumn!]);
  let bytesRead = 0;
  return {
    format: 'csv',
    crs,
    progress: () => (size ? bytesRead / size : 1),
    async *features(): AsyncGenerator<SourceFeature> {
      const rows = records(path, encoding, (n) => (bytesRead += n), {
        bom: true,
        columns: (names: string[]) => names.map((name) => name.trim()),
        skip_empty_lines: true,
        relax_column_count: true,
        relax_quotes: true,
      });
      let row = 0;
      try {
        for await (const record of rows as AsyncIterable<Record<string, string>>) {
          row++;
          const properties = Object.fromEntries(Object.entries(record).filter(([name]) => !geometryColumns.has(name)));
          if (wktColumn) {
            const text = record[wktColumn]?.trim();
            if (!text) {
              yield { row, geometry: null, properties };
              continue;
            }
            const geometry = safeWkt(text);
            yield geometry ? { row, geometry, properties } : { row, geometry: null, properties, problem: 'import.wkt' };
          } else {
            const lon = Number(record[lonColumn!]);
            const lat = Number(record[latColumn!]);
            const empty = record[lonColumn!]?.trim() === '' || record[latColumn!]?.trim() === '';
            if (empty) yield { row, geometry: null, properties };
            else if (!Number.isFinite(lon) || !Number.isFinite(lat)) yield { row, geometry: null, properties, problem: 'import.coordinates' };
            else yield { row, geometry: { type: 'Point', coordinates: [lon, lat] }, properties };
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
