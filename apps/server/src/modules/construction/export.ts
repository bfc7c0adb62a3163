import type { Geometry } from 'geojson';
import { exportFeatures, type ExportFormat } from '../exports/features.ts';
import type { SiteExportRow } from './service.ts';

/** Columns of a site export: the site, its case and what it threatens. */
const FIELDS = [
  'siteNo', 'name', 'buildType', 'status', 'criticality', 'nearestM', 'nearestWaterM', 'nearestGasM', 'nearestDrainageM', 'corridorPipes', 'gasRange', 'gasPipeId',
  'insideGasProtection', 'address', 'district', 'source', 'detectedAt', 'changeType', 'buildState', 'plannedStart', 'plannedEnd', 'actualStart', 'actualEnd',
  'constructionUnit', 'constructionContact', 'constructionPhone', 'supervisingUnit', 'supervisingContact', 'supervisingPhone', 'briefedBy', 'briefedAt', 'guard',
] as const;

export function exportSites(pages: AsyncIterable<SiteExportRow[]>, format: ExportFormat) {
  return exportFeatures(pages, ({ site: s }) => {
    const m = s.measure;
    return {
      id: s.siteNo,
      geometry: s.geometry as Geometry,
      properties: {
        siteNo: s.siteNo,
        name: s.name,
        buildType: s.buildType,
        status: s.status,
        criticality: s.criticality,
        nearestM: s.nearestM,
        nearestWaterM: m?.nearest.water?.distanceM ?? null,
        nearestGasM: m?.nearest.gas?.distanceM ?? null,
        nearestDrainageM: m?.nearest.drainage?.distanceM ?? null,
        corridorPipes: m ? Object.values(m.corridorCount).reduce((a, b) => a + (b ?? 0), 0) : 0,
        gasRange: m?.gas ? `${m.gas.zone} ${m.gas.rangeM} m (${m.gas.pressure})` : null,
        gasPipeId: m?.gas?.pipe.pipeId ?? null,
        insideGasProtection: s.insideGasProtection,
        address: s.address,
        district: s.district,
        source: s.source,
        detectedAt: s.detectedAt,
        changeType: s.changeType,
        buildState: s.buildState,
        plannedStart: s.plannedStart,
        plannedEnd: s.plannedEnd,
        actualStart: s.actualStart,
        actualEnd: s.actualEnd,
        constructionUnit: s.constructionUnit,
        constructionContact: s.constructionContact,
        constructionPhone: s.constructionPhone,
        supervisingUnit: s.supervisingUnit,
        supervisingContact: s.supervisingContact,
        supervisingPhone: s.supervisingPhone,
        briefedBy: s.briefedBy,
        briefedAt: s.briefedAt ? s.briefedAt.toISOString() : null,
        guard: s.guard,
      },
    };
  }, FIELDS, 'sites', format);
}
