import type { Geometry } from 'geojson';
import { exportFeatures, type ExportFormat } from '../exports/features.ts';
import type { PoiExportRow } from './service.ts';

/** Columns of a POI export: the POI, its work and its finding. */
const FIELDS = [
  'poiNo', 'delivery', 'status', 'priority', 'assignee', 'dueDate', 'centerLon', 'centerLat', 'radiusM', 'estimatedLeakM3h',
  'waterPipeM', 'leakType', 'surfacing', 'pipeMaterial', 'pipeDiameterMm', 'flowM3h', 'depthM', 'notes', 'investigatedAt', 'foundAt', 'repairedAt',
] as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function exportPois(pages: AsyncIterable<PoiExportRow[]>, format: ExportFormat) {
  return exportFeatures(pages, (p) => ({
    id: p.poiNo,
    geometry: p.geometry as Geometry,
    properties: {
      poiNo: p.poiNo,
      delivery: p.deliveryName,
      status: p.status,
      priority: p.priority,
      assignee: p.assigneeName,
      dueDate: p.dueDate,
      centerLon: p.centerLon,
      centerLat: p.centerLat,
      radiusM: p.radiusM,
      estimatedLeakM3h: p.estimatedLeakM3h,
      waterPipeM: p.pipes.lengthM.water ?? 0,
      leakType: p.finding?.leakType ?? null,
      surfacing: p.finding?.surfacing ?? null,
      pipeMaterial: p.finding?.pipeMaterial ?? null,
      pipeDiameterMm: p.finding?.pipeDiameterMm ?? null,
      flowM3h: p.finding?.flowM3h ?? null,
      depthM: p.finding?.depthM ?? null,
      notes: p.finding?.notes ?? null,
      investigatedAt: iso(p.investigatedAt),
      foundAt: iso(p.foundAt),
      repairedAt: iso(p.repairedAt),
    },
  }), FIELDS, 'pois', format);
}
