import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { isDiskFull } from '../../../http/uploads.ts';
import { openCsv } from './csv.ts';
import { openGeoJson } from './geojson.ts';
import { openKml } from './kml.ts';
import { openShapefile } from './shapefile.ts';
import { UnreadableFile, type Source } from './types.ts';

export { UnreadableFile, type Source, type SourceFeature } from './types.ts';


const LAYER_KINDS = [
  { ext: '.shp', open: openShapefile },
  { ext: '.kml', open: openKml },
  { ext: '.geojson', open: openGeoJson },
  { ext: '.json', open: openGeoJson },
  { ext: '.csv', open: openCsv },
] as const;

function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  // Bit 11 says UTF-8; Chinese tools write GBK names without it.
  if (entry.generalPurposeBitFlag & 0x800) return raw.toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return new TextDecoder('gb18030').decode(raw);
  }
}

/** Unpacks a zip into `dir` (flat: folders dropped), refusing more than maxBytes in all. */
async function unzip(path: string, dir: string, maxBytes: number): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, decodeStrings: false }, (error, file) => (error ? reject(error) : resolve(file))),
  ).catch(() => {
    throw new UnreadableFile('import.badZip');
  });
  const names: string[] = [];
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', () => reject(new UnreadableFile('import.badZip')));
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entryName(entry);
        // Extensions in lower case: GIS tools write PIPES.SHP as well as pipes.shp.
        const base = name.split('/').pop()!.replace(/\.[^.]+$/, (ext) => ext.toLowerCase());
        if (name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('.') || !base) return zip.readEntry();
        total += entry.uncompressedSize;
        if (total > maxBytes) return reject(new UnreadableFile('import.zipTooLarge', { mb: Math.round(maxBytes / 1024 / 1024) }));
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(new UnreadableFile('import.badZip'));
          pipeline(stream, createWriteStream(join(dir, base)))
            .then(() => {
              names.push(base);
              zip.readEntry();
            })
            // A full disk is the server's state (507), not a broken zip.
            .catch((error) => reject(isDiskFull(error) ? error : new UnreadableFile('import.badZip')));
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return names;
}

/** The one layer of an unpacked zip. */
async function openLayerIn(dir: string, names: string[]): Promise<Source> {
  for (const kind of LAYER_KINDS) {
    let layers = names.filter((name) => name.toLowerCase().endsWith(kind.ext));
    // A KMZ's root document is doc.kml; the other KML files are what its network links load.
    if (kind.ext === '.kml' && layers.includes('doc.kml')) layers = ['doc.kml'];
    if (layers.length > 1) throw new UnreadableFile('import.severalLayers', { names: layers.join(', ') });
    if (layers.length === 1) return kind.open(join(dir, layers[0]));
  }
  throw new UnreadableFile('import.noLayer');
}

async function startsWithZipMagic(path: string): Promise<boolean> {
  const handle = await open(path);
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50;
  } finally {
    await handle.close();
  }
}

/**
 * Opens an uploaded import file by its name: .geojson/.json, .kml, .csv, or a .zip/.kmz unpacked
 * into workDir (a zipped Shapefile, or one KML, GeoJSON or CSV inside).
 */
export async function openImportFile(path: string, fileName: string, workDir: string, maxUnzippedBytes: number): Promise<Source> {
  if ((await stat(path)).size === 0) throw new UnreadableFile('import.emptyFile');
  const ext = /\.[^.]+$/.exec(fileName.toLowerCase())?.[0] ?? '';
  if (ext === '.zip' || ext === '.kmz') {
    if (!(await startsWithZipMagic(path))) throw new UnreadableFile('import.badZip');
    // Unpacked once, at analysis; the job run reads the same files.
    const names = existsSync(workDir) ? await readdir(workDir) : await unzip(path, workDir, maxUnzippedBytes);
    return openLayerIn(workDir, names);
  }
  const kind = LAYER_KINDS.find((k) => k.ext === ext && k.ext !== '.shp');
  if (!kind) throw new UnreadableFile('import.format', { name: fileName });
  return kind.open(path);
}
