import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { DatavOverview } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { pipeCounts, pipes, settlementDatasets, weatherWarnings } from '../../db/schema.ts';
import { incidentSummary, latestIncidents } from '../alerts/incidents.ts';
import { siteSummary } from '../construction/service.ts';
import { leakMetrics } from '../leaks/metrics.ts';
import { latestRun } from '../pipeRisk/service.ts';
import { listPlaces } from '../weather/service.ts';
import { sensorSummary } from '../sensors/service.ts';

/** Diameter classes of the big screen's share chart (mm, upper bounds). */
const DIAMETER_CLASSES = [
  { key: '<DN200', below: 200 },
  { key: 'DN200-499', below: 500 },
  { key: 'DN500-999', below: 1000 },
  { key: '≥DN1000', below: Infinity },
];
const diameterClassSql = sql.raw(
  `case when diameter_mm is null then 'unknown' ${DIAMETER_CLASSES.filter((c) => c.below !== Infinity).map((c) => `when diameter_mm < ${c.below} then '${c.key}'`).join(' ')} else '${DIAMETER_CLASSES.at(-1)!.key}' end`,
);

/**
 * Everything the big screen shows, each figure counted in SQL: network length by type and
 * material from the kept counts, diameter shares grouped in one statement, the leak survey, the
 * settlement datasets' kept figures, construction sites by state, the weather now and the warnings
 * in force, incidents by level and state with the on-time rate, the latest risk levels and the newest
 * incidents for the rolling board.
 */
export async function datavOverview(db: Db, enterpriseId: number, now = new Date()): Promise<DatavOverview> {
  const [byTypeMaterial, byDiameter, leaks, datasets, sites, places, warnings, alertFigures, risk, recent, sensors] = await Promise.all([
    db.select({ networkType: pipeCounts.networkType, material: pipeCounts.material, pipes: pipeCounts.pipes, lengthM: pipeCounts.lengthM }).from(pipeCounts).where(eq(pipeCounts.enterpriseId, enterpriseId)),
    queryRows<{ class: string; length_m: number }>(db, sql`select ${diameterClassSql} as class, sum(${pipes.lengthM})::float8 as length_m from ${pipes} where ${pipes.enterpriseId} = ${enterpriseId} group by 1`),
    leakMetrics(db, enterpriseId, {}),
    db
      .select({ pointCount: settlementDatasets.pointCount, summary: settlementDatasets.analysisSummary })
      .from(settlementDatasets)
      .where(and(eq(settlementDatasets.enterpriseId, enterpriseId), eq(settlementDatasets.status, 'ready'))),
    siteSummary(db, enterpriseId),
    listPlaces(db, enterpriseId),
    db
      .select({ id: weatherWarnings.id, type: weatherWarnings.type, level: weatherWarnings.level, source: weatherWarnings.source, headline: weatherWarnings.headline, end: weatherWarnings.end, area: weatherWarnings.area })
      .from(weatherWarnings)
      .where(and(eq(weatherWarnings.enterpriseId, enterpriseId), lte(weatherWarnings.start, now), gt(weatherWarnings.end, now), isNull(weatherWarnings.cancelledAt)))
      .orderBy(weatherWarnings.level)
      .limit(50),
    incidentSummary(db, enterpriseId),
    latestRun(db, enterpriseId),
    latestIncidents(db, enterpriseId, 20),
    sensorSummary(db, enterpriseId),
  ]);

  const byType: Record<string, { pipes: number; lengthM: number }> = {};
  const byMaterial: Record<string, number> = {};
  for (const row of byTypeMaterial) {
    const t = (byType[row.networkType] ??= { pipes: 0, lengthM: 0 });
    t.pipes += Number(row.pipes);
    t.lengthM += Number(row.lengthM);
    byMaterial[row.material || 'unknown'] = (byMaterial[row.material || 'unknown'] ?? 0) + Number(row.lengthM);
  }
  const settlement = { datasets: datasets.length, points: 0, segments: 0, warn: 0, alarm: 0 };
  for (const d of datasets) {
    settlement.points += d.pointCount;
    settlement.segments += d.summary?.segments ?? 0;
    settlement.warn += d.summary?.warn ?? 0;
    settlement.alarm += d.summary?.alarm ?? 0;
  }
  return {
    network: {
      byType: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, { pipes: v.pipes, km: Math.round(v.lengthM / 100) / 10 }])),
      byMaterialKm: Object.fromEntries(Object.entries(byMaterial).map(([k, v]) => [k, Math.round(v / 100) / 10])),
      byDiameterKm: Object.fromEntries(byDiameter.map((r) => [r.class, Math.round(Number(r.length_m) / 100) / 10])),
    },
    leaks: { delivered: leaks.delivered, investigated: leaks.investigated, confirmed: leaks.confirmed, repaired: leaks.byStatus?.repaired ?? 0, waterSavedM3PerDay: leaks.waterSavedM3PerDay, surveyedKm: leaks.surveyedKm },
    settlement,
    construction: { total: sites.total, openThreats: sites.openThreats, insideGasProtection: sites.insideGasProtection, byStatus: sites.byStatus },
    weather: {
      places: places.map((p) => ({ name: p.name, lon: p.lon, lat: p.lat, latest: p.latest })),
      warnings: warnings.map((w) => ({ ...w, end: w.end.toISOString() })),
    },
    alerts: alertFigures,
    sensors,
    risk: risk ? { assessedAt: (risk.finishedAt ?? risk.startedAt).toISOString(), segments: risk.segments ?? 0, levels: risk.levels ?? { I: 0, II: 0, III: 0, IV: 0 }, masked: risk.masked ?? 0 } : null,
    board: recent,
  };
}
