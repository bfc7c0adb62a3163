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

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
const averageDays = (v: number | null) => (v === null ? null : round(Number(v), 1));

/** The finding's diameter class, in SQL, from DIAMETER_CLASSES. */
const diameterClassSql = sql.raw(
  `case when finding->>'pipeDiameterMm' is null then 'unknown' ${DIAMETER_CLASSES.filter((c) => c.max !== Infinity)
    .map((c) => `when (finding->>'pipeDiameterMm')::float8 <= ${c.max} then '${c.key}'`)
    .join(' ')} else '${DIAMETER_CLASSES.at(-1)!.key}' end`,
);

/** Counts by a key as a JSON object, over one of the statement's row sets. */
const countsBy = (rows: string, key: SQL) => sql`(select coalesce(jsonb_object_agg(k, n), '{}'::jsonb) from (select ${key} as k, count(*)::int as n from ${sql.raw(rows)} group by 1) c)`;

interface MetricsRow {
  delivered: number;
  investigated: number;
  confirmed: number;
  crewDays: number;
  surveyedM: number;
  withSurfacing: number;
  nonSurfacing: number;
  repairedFlow: number;
  daysToInvestigation: number | null;
  daysToRepair: number | null;
  byType: Record<string, number>;
  byMaterial: Record<string, number>;
  byDiameterClass: Record<string, number>;
  byStatus: Record<string, number>;
}

/**
 * The survey's results for the POIs delivered in a period (optionally one project): how many were
 * delivered, investigated and confirmed, the confirmation rate, leaks per crew-day (a crew-day is
 * one assignee recording findings on one calendar day), leaks per km of water pipe inside the
 * investigated POIs, the non-surfacing share, leaks by type, material and diameter class, the
 * water saved by repaired leaks, and the days from delivery to investigation and to repair.
 * Added up in one SQL statement: however many POIs a year of deliveries holds, none is read here.
 */
export async function leakMetrics(db: Db, enterpriseId: number, q: { projectId?: number; from?: string; to?: string }) {
  const where: SQL[] = [eq(pois.enterpriseId, enterpriseId)];
  if (q.projectId !== undefined) where.push(eq(pois.projectId, q.projectId));
  where.push(...deliveredWithin(q));
  const { rows } = (await db.execute(sql`
    with scope as (
      select ${pois.id} as id, ${pois.status} as status, ${pois.assigneeId} as assignee_id, ${pois.finding} as finding, ${pois.pipes} as pipes,
             ${deliveries.deliveredAt} as delivered_at, ${pois.investigatedAt} as investigated_at, ${pois.repairedAt} as repaired_at
      from ${pois} join ${deliveries} on ${deliveries.id} = ${pois.deliveryId}
      where ${and(...where)}
    ),
    investigated as (select * from scope where status in ('leakFound', 'noLeak', 'repaired')),
    leaks as (select * from investigated where status <> 'noLeak')
    select
      (select count(*) from scope)::int as "delivered",
      (select count(*) from investigated)::int as "investigated",
      (select count(*) from leaks)::int as "confirmed",
      (select count(distinct (coalesce(i.assignee_id, e.user_id), (e.at at time zone 'UTC')::date))
         from ${poiEvents} e join investigated i on i.id = e.poi_id where e.action = 'finding')::int as "crewDays",
      (select coalesce(sum((pipes->'lengthM'->>'water')::float8), 0) from investigated)::float8 as "surveyedM",
      (select count(*) from leaks where jsonb_typeof(finding->'surfacing') = 'boolean')::int as "withSurfacing",
      (select count(*) from leaks where finding->'surfacing' = 'false'::jsonb)::int as "nonSurfacing",
      (select coalesce(sum((finding->>'flowM3h')::float8), 0) from leaks where status = 'repaired')::float8 as "repairedFlow",
      (select avg(extract(epoch from investigated_at - delivered_at) / 86400) from scope where investigated_at is not null)::float8 as "daysToInvestigation",
      (select avg(extract(epoch from repaired_at - delivered_at) / 86400) from scope where repaired_at is not null)::float8 as "daysToRepair",
      ${countsBy('leaks', sql`coalesce(finding->>'leakType', 'unknown')`)} as "byType",
      ${countsBy('leaks', sql`coalesce(finding->>'pipeMaterial', 'unknown')`)} as "byMaterial",
      ${countsBy('leaks', diameterClassSql)} as "byDiameterClass",
      ${countsBy('scope', sql`status`)} as "byStatus"`)) as unknown as { rows: MetricsRow[] };
  const m = rows[0];
  const surveyedKm = Number(m.surveyedM) / 1000;
  const repairedFlow = Number(m.repairedFlow);
  return {
    delivered: m.delivered,
    investigated: m.investigated,
    confirmed: m.confirmed,
    confirmationRate: m.investigated ? round(m.confirmed / m.investigated, 3) : null,
    crewDays: m.crewDays,
    leaksPerCrewDay: m.crewDays ? round(m.confirmed / m.crewDays) : null,
    surveyedKm: round(surveyedKm, 2),
    leaksPerKm: surveyedKm ? round(m.confirmed / surveyedKm) : null,
    nonSurfacingShare: m.withSurfacing ? round(m.nonSurfacing / m.withSurfacing, 3) : null,
    byType: m.byType,
    byMaterial: m.byMaterial,
    byDiameterClass: m.byDiameterClass,
    waterSavedM3PerDay: round(repairedFlow * 24, 1),
    waterSavedM3PerYear: Math.round(repairedFlow * 24 * 365),
    daysToInvestigation: averageDays(m.daysToInvestigation),
    daysToRepair: averageDays(m.daysToRepair),
    byStatus: m.byStatus,
  };
}
