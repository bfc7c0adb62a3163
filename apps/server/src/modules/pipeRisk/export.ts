import type { Geometry } from 'geojson';
import { CONSEQUENCE_FACTORS, LIKELIHOOD_FACTORS, type PipeRiskRow } from '@console/contract';
import type { StoredGeometry } from '../../db/schema.ts';
import { exportFeatures, type ExportFormat } from '../exports/features.ts';

/** Columns of the risk list's export: the segment, each factor's score, L, C, R, level, the masking flag. */
const FIELDS = ['pipeId', 'networkType', 'material', 'diameterMm', 'installYear', 'lengthM', ...LIKELIHOOD_FACTORS, ...CONSEQUENCE_FACTORS, 'likelihood', 'consequence', 'score', 'riskIndex', 'percentile', 'level', 'masked', 'assessedOn', 'since'] as const;

export function exportPipeRisks(pages: AsyncIterable<{ row: PipeRiskRow; geometry: StoredGeometry }[]>, format: ExportFormat) {
  return exportFeatures(
    pages,
    ({ row: { factors, pipeRowId, ...r }, geometry }) => ({ id: r.pipeId, geometry: geometry as Geometry, properties: { ...r, ...factors, lengthM: Math.round(r.lengthM * 10) / 10 } }),
    FIELDS,
    'pipe-risk',
    format,
  );
}
