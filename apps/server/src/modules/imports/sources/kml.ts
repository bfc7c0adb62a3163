import { readFile } from 'node:fs/promises';
import { DOMParser } from '@xmldom/xmldom';
import { kml } from '@tmcw/togeojson';
import { crsOfSrid } from '../crs.ts';
import { UnreadableFile, type Source } from './types.ts';

/** Style members togeojson adds to properties: not attributes of the features. */
const STYLE_KEYS = new Set(['styleUrl', 'styleHash', 'styleMapHash', 'stroke', 'stroke-opacity', 'stroke-width', 'fill', 'fill-opacity', 'icon', 'visibility']);

/** A KML document (always WGS 84). KML is read whole: it is the format of small hand-made layers. */
export async function openKml(path: string): Promise<Source> {
  const text = await readFile(path, 'utf8');
  let features;
  try {
    const document = new DOMParser({ onError: (level, message) => { if (level === 'fatalError') throw new Error(message); } }).parseFromString(text, 'text/xml');
    features = kml(document as never).features;
  } catch (error) {
    throw new UnreadableFile('import.unreadable', { format: 'KML', detail: (error as Error).message.split('\n')[0] });
  }
  let done = 0;
  return {
    format: 'kml',
    crs: crsOfSrid(4326),
    progress: () => (features.length ? done / features.length : 1),
    async *features() {
      for (const feature of features) {
        done++;
        const properties = Object.fromEntries(Object.entries(feature.properties ?? {}).filter(([key]) => !STYLE_KEYS.has(key)));
        yield { row: done, geometry: feature.geometry, properties };
      }
    },
  };
}
