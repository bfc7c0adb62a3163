import type { Geometry } from 'geojson';
import { exportFeatures, type ExportFormat } from '../exports/features.ts';
import type { allPipes } from './service.ts';

type Pipe = Awaited<ReturnType<typeof allPipes>>[number];

/** Attribute columns of a pipe export, in order. */
const FIELDS = ['pipeId', 'networkType', 'material', 'diameterMm', 'pressureClass', 'installYear', 'depthM', 'owner', 'lengthM'] as const;

export function exportPipes(rows: Pipe[], format: ExportFormat) {
  const features = rows.map((row) => ({ id: row.pipeId, geometry: row.geometry as Geometry, properties: Object.fromEntries(FIELDS.map((f) => [f, row[f]])) }));
  return exportFeatures(features, FIELDS, 'pipes', format);
}
