import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { JSONParser } from '@streamparser/json';
import type { Feature, Geometry } from 'geojson';
import { crsFromName, crsOfSrid } from '../crs.ts';
import { UnreadableFile, type Source, type SourceFeature } from './types.ts';

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
export async function openGeoJson(path: string): Promise<Source> {
  const size = (await stat(path)).size;
  const crs = await crsMember(path);
  let bytesRead = 0;
  return {
    format: 'geojson',
    crs,
    progress: () => (size ? bytesRead / size : 1),
    async *features(): AsyncGenerator<SourceFeature> {
      // The parser pushes each element of "features" as it completes; the loop hands them on per chunk.
      const parser = new JSONParser({ paths: ['$.features.*'], keepStack: false });
      let ready: Feature[] = [];
      parser.onValue = ({ value }) => void ready.push(value as unknown as Feature);
      let row = 0;
      const input = createReadStream(path, { highWaterMark: 1 << 20 });
      try {
        for await (const chunk of input) {
          bytesRead += chunk.length;
          try {
            parser.write(chunk);
          } catch (error) {
            throw new UnreadableFile('import.unreadable', { format: 'GeoJSON', detail: (error as Error).message });
          }
          const features = ready;
          ready = [];
          for (const value of features) {
            row++;
            const geometry = value && typeof value === 'object' ? ((value.geometry ?? null) as Geometry | null) : null;
            const properties = value && typeof value.properties === 'object' && value.properties ? value.properties : {};
            if (value && value.id !== undefined && properties.id === undefined) properties.id = value.id;
            yield { row, geometry, properties };
          }
        }
        if (!parser.isEnded) throw new UnreadableFile('import.unreadable', { format: 'GeoJSON', detail: 'the file ends too early' });
      } finally {
        input.destroy();
      }
    },
  };
}
