import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Feature, Geometry } from 'geojson';
import { crsFromName, crsOfSrid } from '../crs.ts';
import { JsonArraySplitter, JsonSyntaxError } from './jsonArraySplitter.ts';
import { refuseNul, UnreadableFile, type Source, type SourceFeature } from './types.ts';

/** The legacy "crs" member, read from the head of the file (it comes before the features). */
async function crsMember(path: string) {
  const handle = await open(path);
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const name = /"crs"\s*:\s*\{[^}]*?"name"\s*:\s*"([^"]+)"/.exec(head.subarray(0, bytesRead).toString('utf8'))?.[1];
    return name ? crsFromName(name) : crsOfSrid(4326)!;
  } finally {
    await handle.close();
  }
}

/**
 * A GeoJSON FeatureCollection, streamed feature by feature (files of hundreds of MB never sit in
 * memory whole). Without a crs member it is WGS 84, as RFC 7946 says.
 */
const unreadable = (detail: string) => new UnreadableFile('import.unreadable', { format: 'GeoJSON', detail });

/** A feature's text as it stands in the file (row: its number, from 1) as the feature a reader takes. */
export function geoJsonFeature(text: string, row: number): SourceFeature {
  let value: Feature;
  try {
    value = JSON.parse(text) as Feature;
  } catch (error) {
    throw unreadable(`feature ${row}: ${(error as Error).message}`);
  }
  const geometry = value && typeof value === 'object' ? ((value.geometry ?? null) as Geometry | null) : null;
  const properties = value && typeof value === 'object' && typeof value.properties === 'object' && value.properties ? value.properties : {};
  if (value && typeof value === 'object' && value.id !== undefined && properties.id === undefined) properties.id = value.id;
  // An escaped \u0000 is the only way U+0000 gets into JSON text (a raw one does not parse).
  if (text.includes('\\u0000')) refuseNul(row, properties);
  return { row, geometry, properties };
}

export async function openGeoJson(path: string): Promise<Source> {
  const size = (await stat(path)).size;
  const crs = await crsMember(path);
  let bytesRead = 0;
  // Each feature's text as it stands in the file, in batches: a reader that spreads the work over
  // threads parses them there (geoJsonFeature).
  async function* recordBatches(batchSize: number) {
    const splitter = new JsonArraySplitter('features');
    const input = createReadStream(path, { highWaterMark: 1 << 20 });
    let row = 0;
    let batch: string[] = [];
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        bytesRead += chunk.length;
        let texts: string[];
        try {
          texts = splitter.write(chunk);
        } catch (error) {
          if (error instanceof JsonSyntaxError) throw unreadable(error.message);
          throw error;
        }
        for (const text of texts) {
          row++;
          batch.push(text);
          if (batch.length === batchSize) yield { firstRow: row - batchSize + 1, records: batch }, (batch = []);
        }
      }
      if (!splitter.isEnded) throw unreadable('the file ends too early');
      if (batch.length) yield { firstRow: row - batch.length + 1, records: batch };
    } finally {
      input.destroy();
    }
  }
  return {
    format: 'geojson',
    crs,
    progress: () => (size ? bytesRead / size : 1),
    async *features(): AsyncGenerator<SourceFeature> {
      for await (const { firstRow, records } of recordBatches(1000)) {
        for (let i = 0; i < records.length; i++) yield geoJsonFeature(records[i], firstRow + i);
      }
    },
    recordBatches,
  };
}
