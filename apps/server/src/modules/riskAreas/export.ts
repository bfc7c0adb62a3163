import type { Geometry } from 'geojson';
import { exportFeatures, type ExportFormat } from '../exports/features.ts';
import type { RiskAreaExportRow } from './service.ts';

const FIELDS = [
  'name', 'kind', 'level', 'status', 'cause', 'triggerRainMm', 'triggerHours', 'voidAreaM2', 'burialDepthM', 'clearHeightM', 'source', 'responsibleUnit', 'responsiblePerson',
  'responsiblePhone', 'bufferM', 'pipesInside', 'waterPipes', 'waterM', 'gasPipes', 'gasM', 'drainagePipes', 'drainageM',
] as const;

export function exportRiskAreas(pages: AsyncIterable<RiskAreaExportRow[]>, format: ExportFormat) {
  return exportFeatures(pages, (a) => ({
    id: String(a.id),
    geometry: a.geometry as Geometry,
    properties: {
      name: a.name,
      kind: a.kind,
      level: a.level,
      status: a.status,
      cause: a.cause,
      triggerRainMm: a.triggerRainMm,
      triggerHours: a.triggerHours,
      voidAreaM2: a.voidAreaM2,
      burialDepthM: a.burialDepthM,
      clearHeightM: a.clearHeightM,
      source: a.source,
      responsibleUnit: a.responsibleUnit,
      responsiblePerson: a.responsiblePerson,
      responsiblePhone: a.responsiblePhone,
      bufferM: a.bufferM,
      pipesInside: a.pipes?.inside ?? 0,
      waterPipes: a.pipes?.count.water ?? 0,
      waterM: a.pipes?.lengthM.water ?? 0,
      gasPipes: a.pipes?.count.gas ?? 0,
      gasM: a.pipes?.lengthM.gas ?? 0,
      drainagePipes: a.pipes?.count.drainage ?? 0,
      drainageM: a.pipes?.lengthM.drainage ?? 0,
    },
  }), FIELDS, 'risk-areas', format);
}
