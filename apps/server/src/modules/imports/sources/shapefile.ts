import { existsSync } from 'node:fs';
import { open as openFile, readFile } from 'node:fs/promises';
import * as shapefile from 'shapefile';
import type { Geometry } from 'geojson';
import { crsFromPrj, type DetectedCrs } from '../crs.ts';
import { sniffEncoding } from './encoding.ts';
import { refuseNul, UnreadableFile, type Source, type SourceFeature } from './types.ts';

/** Encoding names .cpg files hold, as TextDecoder labels. */
function encodingOfCpg(text: string): string {
  const name = text.trim().toLowerCase();
  if (/^(cp)?936$|^gbk$|^gb2312$|^gb18030$/.test(name)) return 'gb18030';
  if (/^(utf-?8|65001)$/.test(name)) return 'utf-8';
  try {
    new TextDecoder(name);
    return name;
  } catch {
    return 'utf-8';
  }
}

/**
 * DBF Date fields (type D, YYYYMMDD) arrive from the reader as Date objects at local midnight:
 * they become "YYYY-MM-DD" text, as the file holds them, so dates map like any date column.
 */
function withDatesAsText(properties: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(properties)) {
    if (value instanceof Date) {
      properties[key] = Number.isNaN(value.getTime())
        ? null
        : `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`;
    }
  }
  return properties;
}

/** Records in the .dbf (its header says). */
async function recordCount(dbf: string): Promise<number> {
  const handle = await openFile(dbf);
  try {
    const head = Buffer.alloc(12);
    await handle.read(head, 0, 12, 0);
    return head.readUInt32LE(4);
  } finally {
    await handle.close();
  }
}

/**
 * An Esri Shapefile (the .shp path; .dbf beside it, .prj and .cpg when present), streamed record by
 * record. Without a .prj the coordinate system is unknown; without a .cpg the attribute encoding is
 * sniffed (UTF-8 or GBK).
 */
export async function openShapefile(shp: string): Promise<Source> {
  const base = shp.slice(0, -4);
  const sibling = (ext: string) => [`${base}.${ext}`, `${base}.${ext.toUpperCase()}`].find((p) => existsSync(p));
  const dbf = sibling('dbf');
  if (!dbf) throw new UnreadableFile('import.shpWithoutDbf', { name: base.split('/').pop()! });
  const prj = sibling('prj');
  const cpg = sibling('cpg');
  const crs: DetectedCrs | null = prj ? crsFromPrj(await readFile(prj, 'utf8')) : null;
  const encoding = cpg ? encodingOfCpg(await readFile(cpg, 'utf8')) : await sniffEncoding(dbf);
  const total = await recordCount(dbf);
  let done = 0;
  return {
    format: 'shapefile',
    crs,
    progress: () => (total ? done / total : 1),
    async *features(): AsyncGenerator<SourceFeature> {
      let source;
      try {
        source = await shapefile.open(shp, dbf, { encoding });
      } catch (error) {
        throw new UnreadableFile('import.unreadable', { format: 'Shapefile', detail: (error as Error).message });
      }
      try {
        for (;;) {
          let next;
          try {
            next = await source.read();
          } catch (error) {
            throw new UnreadableFile('import.unreadable', { format: 'Shapefile', detail: (error as Error).message });
          }
          if (next.done) return;
          done++;
          const properties = withDatesAsText((next.value.properties ?? {}) as Record<string, unknown>);
          refuseNul(done, properties);
          yield { row: done, geometry: (next.value.geometry as Geometry | null) ?? null, properties };
        }
      } finally {
        await source.cancel().catch(() => {});
      }
    },
  };
}
