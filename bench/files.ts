import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { DemoPipe } from '../apps/server/src/demo/city.ts';
import { toWkt } from '../apps/server/src/modules/exports/features.ts';

async function writeLines(path: string, lines: Iterable<string>) {
  const out = createWriteStream(path);
  for (const line of lines) if (!out.write(line)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/** The pipes as a GeoJSON FeatureCollection, one feature per line as GDAL writes it. */
export function writeGeoJson(path: string, pipes: DemoPipe[]) {
  return writeLines(
    path,
    (function* () {
      yield '{"type":"FeatureCollection","features":[\n';
      for (const [i, p] of pipes.entries()) {
        const { geometry, ...properties } = p;
        yield `${i ? ',\n' : ''}${JSON.stringify({ type: 'Feature', properties, geometry })}`;
      }
      yield '\n]}\n';
    })(),
  );
}

/** The pipes as CSV with a WKT column, as GDAL and QGIS write it. */
export function writeCsv(path: string, pipes: DemoPipe[]) {
  return writeLines(
    path,
    (function* () {
      yield 'WKT,pipeId,networkType,material,diameterMm,pressureClass,installYear,depthM\n';
      for (const p of pipes) yield `"${toWkt(p.geometry)}",${p.pipeId},${p.networkType},${p.material},${p.diameterMm},${p.pressureClass ?? ''},${p.installYear},${p.depthM}\n`;
    })(),
  );
}
