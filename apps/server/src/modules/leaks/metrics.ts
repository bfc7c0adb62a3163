import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deliveries, poiEvents, pois } from '../../db/schema.ts';
import { deliveredWithin } from './service.ts';

/** Diameter classes the metrics group leaks by (DOMAIN: most leaks are on pipes up to DN100). */
export const DIAMETER_CLASSES = [
  { key: '<=100', max: 100 },
  { key: '101-300', max: 300 },
  { key: '301-600', max: 600 },
  { key: '>600', max: Infinity },
] as const;

const DAY_MS = 86_400_000;
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
const average = (values: number[]) => (values.length ? round(values.reduce((s, v) => s + v, 0) / values.length, 1) : null);
const count = <K extends string>(keys: K[]) => keys.reduce<Record<string, number>>((m, k) => ((m[k] = (m[k] ?? 0) + 1), m), {});

/**
 * The survey's results for the POIs delivered in a period (optionally one project): how many were
 * delivered, investigated and confirmed, the confirmation rate, leaks per crew-day (a crew-day is
 * one assignee recording findings on one calendar day), leaks per km of water pipe inside the
 * investigated POIs, the non-surfacing share, leaks by type, material and diameter class, the
 * water saved by repaired leaks, and the days from delivery to investigation and to repair.
 */
export async function leakMetrics(db: Db, enterpriseId: number, q: { projectId?: number; from?: string; to?: string }) {
  const where: SQL[] = [eq(pois.enterpriseId, enterpriseId)];
  if (q.projectId !== undefined) where.push(eq(pois.projectId, q.projectId));
  where.push(...deliveredWithin(q));
  const rows = await db
    .select({ id: pois.id, status: pois.status, assigneeId: pois.assigneeId, finding: pois.finding, pipes: pois.pipes, deliveredAt: deliveries.deliveredAt, investigatedAt: pois.investigatedAt, repairedAt: pois.repairedAt })
    .from(pois)
    .innerJoin(deliveries, eq(deliveries.id, pois.deliveryId))
    .where(and(...where));
  const investigated = rows.filter((r) => r.status === 'leakFound' || r.status === 'noLeak' || r.status === 'repaired');
  const leaks = investigated.filter((r) => r.status !== 'noLeak');
  const ids = investigated.map((r) => r.id);
  const crewDays = ids.length
    ? Number(
        (
          (await db.execute(sql`
            select count(distinct (coalesce(p.assignee_id, e.user_id), (e.at at time zone 'UTC')::date))::int as "crewDays"
            from ${poiEvents} e join ${pois} p on p.id = e.poi_id
            where e.action = 'finding' and e.poi_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)) as unknown as { rows: { crewDays: number }[] }
        ).rows[0].crewDays,
      )
    : 0;
  const surveyedKm = investigated.reduce((s, r) => s + (r.pipes.lengthM.water ?? 0), 0) / 1000;
  const withSurfacing = leaks.filter((r) => typeof r.finding?.surfacing === 'boolean');
  const repairedFlow = leaks.filter((r) => r.status === 'repaired').reduce((s, r) => s + (r.finding?.flowM3h ?? 0), 0);
  const diameterClass = (d?: number) => (d === undefined ? 'unknown' : DIAMETER_CLASSES.find((c) => d <= c.max)!.key);
  return {
    delivered: rows.length,
    investigated: investigated.length,
    confirmed: leaks.length,
    confirmationRate: investigated.length ? round(leaks.length / investigated.length, 3) : null,
    crewDays,
    leaksPerCrewDay: crewDays ? round(leaks.length / crewDays) : null,
    surveyedKm: round(surveyedKm, 2),
    leaksPerKm: surveyedKm ? round(leaks.length / surveyedKm) : null,
    nonSurfacingShare: withSurfacing.length ? round(withSurfacing.filter((r) => r.finding!.surfacing === false).length / withSurfacing.length, 3) : null,
    byType: count(leaks.map((r) => r.finding?.leakType ?? 'unknown')),
    byMaterial: count(leaks.map((r) => r.finding?.pipeMaterial ?? 'unknown')),
    byDiameterClass: count(leaks.map((r) => diameterClass(r.finding?.pipeDiameterMm))),
    waterSavedM3PerDay: round(repairedFlow * 24, 1),
    waterSavedM3PerYear: Math.round(repairedFlow * 24 * 365),
    daysToInvestigation: average(rows.filter((r) => r.investigatedAt).map((r) => (r.investigatedAt!.getTime() - r.deliveredAt.getTime()) / DAY_MS)),
    daysToRepair: average(rows.filter((r) => r.repairedAt).map((r) => (r.repairedAt!.getTime() - r.deliveredAt.getTime()) / DAY_MS)),
    byStatus: count(rows.map((r) => r.status)),
  };
}
