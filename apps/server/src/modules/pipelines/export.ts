import type { Geometry } from 'geojson';
import { exportFeatures, type ExportFormat } from '../exports/features.ts';
import type { PipeRow } from './service.ts';

/** Attribute columns of a pipe export, in order. */
const FIELDS = ['pipeId', 'networkType', 'material', 'diameterMm', 'pressureClass', 'installYear', 'depthM', 'owner', 'lengthM'] as const;

export function exportPipes(pages: AsyncIterable<PipeRow[]>, format: ExportFormat) {
  return exportFeatures(pages, (row) => ({ id: row.pipeId, geometry: row.geometry as Geometry, properties: Object.fromEntries(FIELDS.map((f) => [f, row[f]])) }), FIELDS, 'pipes', format);
}
