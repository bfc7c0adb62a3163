import { sql } from 'drizzle-orm';
import { INCIDENT_KINDS, REPORT_TABLE_ROWS, RISK_LEVELS, type IncidentKind, type ReportBowl, type ReportIncidentRow, type ReportMap, type RiskLevel, type RiskReportFigures } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { basemapFeatures, constructionSites, enterprises, incidents, pipeRiskChanges, pipeRisks, pois, weatherWarnings } from '../../db/schema.ts';
import { levelOrder } from '../../db/schema/alerts.ts';
import { getAlertSettings } from '../alerts/service.ts';
import { incidentCode } from '../alerts/grouping.ts';

const LIMIT = REPORT_TABLE_ROWS;
/** The report's map holds at most this many streets (the bowls' surroundings, main streets first). */
const MAP_STREETS = 400;
const hours = (value: number | string | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);
const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * The figures of one enterprise's month, counted in SQL over everything the month holds (the
 * tables of the report show the first rows; their figures never read those tables). The month runs
 * from its first midnight to the next month's in the enterprise's time zone (its alert settings).
 */
export async function reportFigures(db: Db, enterpriseId: number, month: string): Promise<RiskReportFigures> {
  const { timeZone } = await getAlertSettings(db, enterpriseId);
  const [bounds] = await queryRows<{ from: Date; to: Date; first_day: string; last_day: string; name: string }>(
    db,
    sql`select (${month} || '-01')::timestamp at time zone ${timeZone} as from,
               ((${month} || '-01')::date + interval '1 month')::timestamp at time zone ${timeZone} as to,
               (${month} || '-01')::date::text as first_day,
               ((${month} || '-01')::date + interval '1 month' - interval '1 day')::date::text as last_day,
               (select name from ${enterprises} where id = ${enterpriseId}) as name`,
  );
  const { from, to } = bounds;
  const [incidentFigures, network, settlement, works, leaks, weather] = await Promise.all([
    incidentsOf(db, enterpriseId, from, to),
    networkOf(db, enterpriseId, bounds.first_day, bounds.last_day),
    settlementOf(db, enterpriseId, from, to),
    worksOf(db, enterpriseId, bounds.first_day, bounds.last_day, to),
    leaksOf(db, enterpriseId, from, to),
    weatherOf(db, enterpriseId, from, to),
  ]);
  return { enterprise: bounds.name, month, from: iso(from), to: iso(to), timeZone, incidents: incidentFigures, network, settlement, works, leaks, weather };
}

interface IncidentSqlRow {
  id: number;
  kind: IncidentKind;
  subject: string;
  pipe_count: number;
  member_count: number;
  level: RiskLevel;
  state: string;
  raised_at: Date;
  handled_hours: number | null;
}
const incidentRow = (r: IncidentSqlRow): ReportIncidentRow => ({
  code: incidentCode(r.id),
  kind: r.kind,
  subject: r.subject,
  pipeCount: r.pipe_count,
  memberCount: r.member_count,
  level: r.level,
  state: r.state,
  raisedAt: iso(r.raised_at),
  handledHours: hours(r.handled_hours),
});
const incidentColumns = (to: Date) =>
  sql`i.id, split_part(i.group_key, ':', 1) as kind, i.subject, i.pipe_count, i.member_count, i.level, i.state, i.raised_at,
      case when i.handled_at < ${to} then extract(epoch from i.handled_at - i.raised_at) / 3600 end as handled_hours`;

async function incidentsOf(db: Db, enterpriseId: number, from: Date, to: Date): Promise<RiskReportFigures['incidents']> {
  const inMonth = sql`i.enterprise_id = ${enterpriseId} and i.raised_at >= ${from} and i.raised_at < ${to}`;
  const handledHours = sql`extract(epoch from i.handled_at - i.raised_at) / 3600`;
  // One pass: each kind and level, and (the grouping set ()) the month's totals.
  const groups = await queryRows<{ kind: IncidentKind | null; level: RiskLevel | null; count: number; handled: number; closed: number; false_alarms: number; median: number | null }>(
    db,
    sql`select split_part(i.group_key, ':', 1) as kind, i.level, count(*)::int as count,
               count(*) filter (where i.handled_at < ${to})::int as handled,
               count(*) filter (where i.state = 'closed' and i.closed_at < ${to})::int as closed,
               count(*) filter (where i.state = 'falseAlarm')::int as false_alarms,
               percentile_cont(0.5) within group (order by ${handledHours}) filter (where i.handled_at < ${to}) as median
        from ${incidents} i where ${inMonth}
        group by grouping sets ((split_part(i.group_key, ':', 1), i.level), ())`,
  );
  const total = groups.find((g) => g.kind === null && g.level === null);
  const [open] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from ${incidents} i
        where i.enterprise_id = ${enterpriseId} and i.raised_at < ${to} and i.state <> 'falseAlarm' and (i.closed_at is null or i.closed_at >= ${to})`,
  );
  const gravest = await queryRows<IncidentSqlRow>(
    db,
    sql`select ${incidentColumns(to)} from ${incidents} i where ${inMonth} and i.state <> 'falseAlarm'
        order by ${levelOrder(sql`i.level`)}, i.pipe_count desc, i.id limit ${LIMIT}`,
  );
  return {
    raised: total?.count ?? 0,
    handled: total?.handled ?? 0,
    closed: total?.closed ?? 0,
    falseAlarms: total?.false_alarms ?? 0,
    openAtEnd: open.count,
    medianHandledHours: hours(total?.median ?? null),
    byKind: groups
      .filter((g) => g.kind !== null)
      .map((g) => ({ kind: g.kind!, level: g.level!, count: g.count, handled: g.handled, medianHandledHours: hours(g.median) }))
      .sort((a, b) => INCIDENT_KINDS.indexOf(a.kind) - INCIDENT_KINDS.indexOf(b.kind) || RISK_LEVELS.indexOf(a.level) - RISK_LEVELS.indexOf(b.level)),
    gravest: gravest.map(incidentRow),
  };
}

async function networkOf(db: Db, enterpriseId: number, firstDay: string, lastDay: string): Promise<RiskReportFigures['network']> {
  const levels = await queryRows<{ level: RiskLevel; count: number; assessed_on: string | null }>(
    db,
    sql`select level, count(*)::int as count, max(assessed_on)::text as assessed_on from ${pipeRisks} where enterprise_id = ${enterpriseId} group by level`,
  );
  const changes = await queryRows<{ from: RiskLevel; to: RiskLevel; count: number }>(
    db,
    sql`select from_level as from, to_level as to, count(*)::int as count from ${pipeRiskChanges}
        where enterprise_id = ${enterpriseId} and changed_on between ${firstDay}::date and ${lastDay}::date
        group by from_level, to_level order by count(*) desc`,
  );
  const rank = (level: RiskLevel) => RISK_LEVELS.indexOf(level);
  const byLevel = Object.fromEntries(RISK_LEVELS.map((level) => [level, levels.find((l) => l.level === level)?.count ?? 0])) as Record<RiskLevel, number>;
  return {
    segments: levels.reduce((sum, l) => sum + l.count, 0),
    assessedOn: levels.map((l) => l.assessed_on).filter(Boolean).sort().at(-1) ?? null,
    levels: byLevel,
    changes,
    // I is the gravest: a move to a lower index is a rise in risk.
    worse: changes.filter((c) => rank(c.to) < rank(c.from)).reduce((sum, c) => sum + c.count, 0),
    better: changes.filter((c) => rank(c.to) > rank(c.from)).reduce((sum, c) => sum + c.count, 0),
  };
}

async function settlementOf(db: Db, enterpriseId: number, from: Date, to: Date): Promise<RiskReportFigures['settlement']> {
  const bowlsInMonth = sql`i.enterprise_id = ${enterpriseId} and i.group_key like 'bowl:%' and i.raised_at >= ${from} and i.raised_at < ${to}`;
  const [totals] = await queryRows<{ bowls: number; pipes: number }>(
    db,
    sql`select count(*)::int as bowls, coalesce(sum(i.pipe_count), 0)::int as pipes from ${incidents} i where ${bowlsInMonth}`,
  );
  const shown = await queryRows<IncidentSqlRow & { geometry: ReportBowl['geometry']; minx: number; miny: number; maxx: number; maxy: number }>(
    db,
    sql`select ${incidentColumns(to)}, i.geometry, i.minx, i.miny, i.maxx, i.maxy from ${incidents} i where ${bowlsInMonth}
        order by ${levelOrder(sql`i.level`)}, i.pipe_count desc, i.id limit ${LIMIT}`,
  );
  return { bowls: totals.bowls, pipes: totals.pipes, shown: shown.map((r) => ({ ...incidentRow(r), geometry: r.geometry })), map: shown.length ? await mapAround(db, shown) : null };
}

/** The box of the bowls with a margin, and the map's streets inside it. */
async function mapAround(db: Db, boxes: { minx: number; miny: number; maxx: number; maxy: number }[]): Promise<ReportMap> {
  let [minx, miny, maxx, maxy] = [Math.min(...boxes.map((b) => b.minx)), Math.min(...boxes.map((b) => b.miny)), Math.max(...boxes.map((b) => b.maxx)), Math.max(...boxes.map((b) => b.maxy))];
  // A margin of a fifth each side, and at least ~500 m across, so a single small bowl shows its streets.
  const margin = Math.max((maxx - minx) * 0.2, (maxy - miny) * 0.2, 0.0025);
  [minx, miny, maxx, maxy] = [minx - margin, miny - margin, maxx + margin, maxy + margin];
  const streets = await queryRows<{ kind: 'street' | 'mainStreet'; name: string; geometry: { type: string; coordinates: number[][] | number[][][] } }>(
    db,
    sql`select kind, name, geometry from ${basemapFeatures}
        where kind in ('street', 'mainStreet') and minx <= ${maxx} and maxx >= ${minx} and miny <= ${maxy} and maxy >= ${miny}
        order by kind = 'mainStreet' desc, id limit ${MAP_STREETS}`,
  );
  return {
    box: [minx, miny, maxx, maxy],
    streets: streets.flatMap((s) => (s.geometry.type === 'MultiLineString' ? (s.geometry.coordinates as number[][][]) : [s.geometry.coordinates as number[][]]).map((coordinates) => ({ kind: s.kind, name: s.name, coordinates }))),
  };
}

async function worksOf(db: Db, enterpriseId: number, firstDay: string, lastDay: string, to: Date): Promise<RiskReportFigures['works']> {
  // Active in the month: begun by its end (or, not dated, known by then) and not finished before it began.
  const active = sql`s.enterprise_id = ${enterpriseId}
    and coalesce(s.actual_start, s.planned_start, (s.created_at at time zone 'UTC')::date) <= ${lastDay}::date and s.created_at < ${to}
    and coalesce(s.actual_end, s.planned_end, ${lastDay}::date) >= ${firstDay}::date`;
  const threat = sql`(s.criticality in ('high', 'medium') or s.status in ('threat', 'briefed', 'guarded'))`;
  const [totals] = await queryRows<{ active: number; threatening: number; high: number; medium: number; low: number; none: number }>(
    db,
    sql`select count(*)::int as active, count(*) filter (where ${threat})::int as threatening,
               count(*) filter (where s.criticality = 'high')::int as high, count(*) filter (where s.criticality = 'medium')::int as medium,
               count(*) filter (where s.criticality = 'low')::int as low, count(*) filter (where s.criticality = 'none')::int as none
        from ${constructionSites} s where ${active}`,
  );
  const rows = await queryRows<{ site_no: string; name: string; build_type: string; nearest_m: number | null; criticality: string; status: string }>(
    db,
    sql`select s.site_no, s.name, s.build_type, s.nearest_m, s.criticality, s.status from ${constructionSites} s where ${active}
        order by array_position(array['high','medium','low','none'], s.criticality), s.nearest_m nulls last, s.id limit ${LIMIT}`,
  );
  return {
    active: totals.active,
    threatening: totals.threatening,
    byCriticality: { high: totals.high, medium: totals.medium, low: totals.low, none: totals.none },
    rows: rows.map((r) => ({ siteNo: r.site_no, name: r.name, buildType: r.build_type, nearestM: r.nearest_m === null ? null : Math.round(r.nearest_m * 10) / 10, criticality: r.criticality, status: r.status })),
  };
}

async function leaksOf(db: Db, enterpriseId: number, from: Date, to: Date): Promise<RiskReportFigures['leaks']> {
  const within = (column: ReturnType<typeof sql>) => sql`${column} >= ${from} and ${column} < ${to}`;
  const [totals] = await queryRows<{ delivered: number; investigated: number; leak_found: number; no_leak: number; repaired: number; m3h: number }>(
    db,
    sql`select count(*) filter (where ${within(sql`p.created_at`)})::int as delivered,
               count(*) filter (where ${within(sql`p.investigated_at`)})::int as investigated,
               count(*) filter (where ${within(sql`p.found_at`)})::int as leak_found,
               count(*) filter (where p.status = 'noLeak' and ${within(sql`p.investigated_at`)})::int as no_leak,
               count(*) filter (where ${within(sql`p.repaired_at`)})::int as repaired,
               coalesce(sum(p.estimated_leak_m3h) filter (where ${within(sql`p.found_at`)}), 0)::float8 as m3h
        from ${pois} p where p.enterprise_id = ${enterpriseId}`,
  );
  const rows = await queryRows<{ poi_no: string; status: string; priority: string; estimated_leak_m3h: number | null; found_at: Date | null }>(
    db,
    sql`select p.poi_no, p.status, p.priority, p.estimated_leak_m3h, p.found_at from ${pois} p
        where p.enterprise_id = ${enterpriseId} and (${within(sql`p.found_at`)} or ${within(sql`p.repaired_at`)})
        order by p.estimated_leak_m3h desc nulls last, p.id limit ${LIMIT}`,
  );
  return {
    delivered: totals.delivered,
    investigated: totals.investigated,
    leakFound: totals.leak_found,
    noLeak: totals.no_leak,
    repaired: totals.repaired,
    estimatedM3h: Math.round(totals.m3h * 10) / 10,
    rows: rows.map((r) => ({ poiNo: r.poi_no, status: r.status, priority: r.priority, estimatedLeakM3h: r.estimated_leak_m3h, foundAt: r.found_at && iso(r.found_at) })),
  };
}

async function weatherOf(db: Db, enterpriseId: number, from: Date, to: Date): Promise<RiskReportFigures['weather']> {
  const inMonth = sql`w.enterprise_id = ${enterpriseId} and w.start < ${to} and w.end >= ${from}`;
  const [totals] = await queryRows<{ warnings: number; official: number }>(
    db,
    sql`select count(*)::int as warnings, count(*) filter (where w.source = 'official')::int as official from ${weatherWarnings} w where ${inMonth}`,
  );
  const rows = await queryRows<{ type: string; level: RiskLevel | null; start: Date; end: Date; headline: string | null; pipes: number; risk_areas: number; sites: number }>(
    db,
    sql`select w.type, w.level, w.start, w.end, w.headline,
               (select coalesce(sum((p->>'count')::int), 0) from jsonb_array_elements(w.touches->'pipes') p)::int as pipes,
               jsonb_array_length(w.touches->'riskAreas') as risk_areas, jsonb_array_length(w.touches->'sites') as sites
        from ${weatherWarnings} w where ${inMonth}
        order by ${levelOrder(sql`w.level`)} nulls last, w.start, w.id limit ${LIMIT}`,
  );
  return { warnings: totals.warnings, official: totals.official, rows: rows.map((r) => ({ type: r.type, level: r.level, start: iso(r.start), end: iso(r.end), headline: r.headline, pipes: r.pipes, riskAreas: r.risk_areas, sites: r.sites })) };
}
