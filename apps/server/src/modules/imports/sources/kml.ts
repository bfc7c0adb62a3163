import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { kml } from '@tmcw/togeojson';
import type { Feature } from 'geojson';
import { crsOfSrid } from '../crs.ts';
import { refuseNul, UnreadableFile, type Source } from './types.ts';

/** Style members togeojson adds to properties: not attributes of the features. */
const STYLE_KEYS = new Set(['styleUrl', 'styleHash', 'styleMapHash', 'stroke', 'stroke-opacity', 'stroke-width', 'fill', 'fill-opacity', 'icon', 'visibility']);
/** Network links followed, at most this deep (a link may point back). */
const MAX_LINK_DEPTH = 4;

/** Whether XML text declares a document type (refused before any parser sees it). */
export const hasDoctype = (text: string) => /<!DOCTYPE/i.test(text);

/** The XML document of a KML file; an empty or broken one is refused in the user's words, not the parser's. */
function parseKml(text: string) {
  if (!text.trim()) throw new UnreadableFile('import.emptyFile');
  // A document type declaration can define entities (external files, billion laughs): KML needs none.
  if (hasDoctype(text)) throw new UnreadableFile('import.doctype');
  let line = 1;
  try {
    return new DOMParser({
      onError: (level, message, context) => {
        if (level !== 'fatalError') return;
        line = (context as { locator?: { lineNumber?: number } } | undefined)?.locator?.lineNumber ?? line;
        throw new Error(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch {
    throw new UnreadableFile('import.notXml', { line });
  }
}

/**
 * The features of a KML file and of the files its network links name in the same folder (GDAL's
 * LIBKML driver writes a KMZ as doc.kml linking layers/x.kml; the zip is unpacked flat).
 */
async function readKmlFeatures(path: string, depth: number, seen: Set<string>): Promise<Feature[]> {
  seen.add(basename(path).toLowerCase());
  const document = parseKml(await readFile(path, 'utf8'));
  const all = kml(document as never).features as Feature[];
  // A network link comes as a feature without geometry naming the file it loads.
  const isLink = (f: Feature) => f.properties?.['@geometry-type'] === 'networklink';
  const features = all.filter((f) => !isLink(f));
  if (depth >= MAX_LINK_DEPTH) return features;
  for (const href of all.filter(isLink).map((f) => String(f.properties?.href ?? '').trim())) {
    // Only files inside the upload: a link to a web address or outside the folder is not followed.
    if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    const name = basename(href.replace(/\\/g, '/')).replace(/\.[^.]+$/, (ext) => ext.toLowerCase());
    const linked = join(dirname(path), name);
    if (seen.has(name.toLowerCase()) || !name.endsWith('.kml') || !existsSync(linked)) continue;
    features.push(...(await readKmlFeatures(linked, depth + 1, seen)));
  }
  return features;
}

/** A KML document (always WGS 84). KML is read whole: it is the format of small hand-made layers. */
export async function openKml(path: string): Promise<Source> {
  const features = await readKmlFeatures(path, 0, new Set());
  let done = 0;
  return {
    format: 'kml',
    crs: crsOfSrid(4326),
    progress: () => (features.length ? done / features.length : 1),
    async *features() {
      for (const feature of features) {
        done++;
        const properties = Object.fromEntries(Object.entries(feature.properties ?? {}).filter(([key]) => !STYLE_KEYS.has(key)));
        refuseNul(done, properties);
        yield { row: done, geometry: feature.geometry, properties };
      }
    },
  };
}
