import { sql, type SQL } from 'drizzle-orm';
import { RULE_SOURCE, SENSOR_UNITS, type AlertRule, type AlertSettings } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { levelOrder, OPEN_ALERT_SQL } from '../../db/schema.ts';

/**
 * The alert rules. Each is one SELECT of candidates over its source's kept figures, with the
 * columns of an alert; raising is one INSERT ... ON CONFLICT DO NOTHING over it, so the unique
 * indexes of `alerts` (one alert per occurrence ever, one open alert per object and rule) decide
 * what is new, atomically, however many servers check at once; escalating is one UPDATE of the
 * open alerts the candidates find graver. Nothing is read into Node.
 */
type Candidates = (enterpriseId: number, now: Date, leakRepairDays: number) => SQL;

/** At most this many alerts per rule and check, worst first: a flood waits for the next check. */
const RAISE_LIMIT = 500;

/** Bounding box of a GeoJSON polygon or multipolygon kept as jsonb (weather warning areas). */
const areaBox = (area: SQL) => {
  const positions = sql`jsonb_path_query(${area}, case when ${area}->>'type' = 'Polygon' then '$.coordinates[*][*]' else '$.coordinates[*][*][*]' end::jsonpath)`;
  const axis = (fn: 'min' | 'max', i: 0 | 1) => sql`(select ${sql.raw(fn)}((p->>${sql.raw(String(i))})::float8) from ${positions} p)`;
  return sql`${axis('min', 0)} as minx, ${axis('min', 1)} as miny, ${axis('max', 0)} as maxx, ${axis('max', 1)} as maxy`;
};

/** A site's place and every pipe in its corridor (its pipe set, nearest first), with how many. */
const SITE_PLACE = sql`s.geometry, s.center_lon as lon, s.center_lat as lat, s.minx, s.miny, s.maxx, s.maxy,
      array(select p.pipe_id from site_pipes sp join pipes p on p.id = sp.pipe_row_id and p.enterprise_id = s.enterprise_id
        where sp.site_id = s.id and sp.enterprise_id = s.enterprise_id order by sp.distance_m, sp.pipe_row_id) as pipe_ids,
      (select count(*) from site_pipes sp where sp.site_id = s.id and sp.enterprise_id = s.enterprise_id)::int as pipe_count`;
/** A warning with its place (its station, or its area's corner) and its area's box. */
const WARNING_FROM = sql`from weather_warnings w
    left join weather_places pl on pl.id = w.place_id
    cross join lateral (select ${areaBox(sql`w.area`)}) b`;
const WARNING_PLACE = sql`w.area as geometry, coalesce(pl.lon, b.minx) as lon, coalesce(pl.lat, b.miny) as lat, b.minx, b.miny, b.maxx, b.maxy,`;
const inForce = (now: Date) => sql`w.level is not null and w.cancelled_at is null and w.start <= ${now} and w."end" > ${now}`;

/** A device's place (a point in a well or on a main) and its pipe. */
const SENSOR_PLACE = sql`jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(d.lon, d.lat)) as geometry, d.lon, d.lat, d.lon as minx, d.lat as miny, d.lon as maxx, d.lat as maxy,
      case when d.pipe_id is null then array[]::text[] else array[d.pipe_id] end as pipe_ids, case when d.pipe_id is null then 0 else 1 end as pipe_count`;
const SENSOR_DETAILS = sql`jsonb_build_object('code', d.code, 'name', d.name, 'kind', d.kind, 'gateway', d.gateway, 'state', d.state, 'since', d.state_since, 'lastAt', d.last_at, 'pipeId', d.pipe_id)`;
/** The kept unit of a device's kind (SENSOR_UNITS). */
const SENSOR_UNIT = sql.raw(`case d.kind ${Object.entries(SENSOR_UNITS).map(([kind, unit]) => `when '${kind}' then '${unit}'`).join(' ')} end`);

const RULES: Record<Exclude<AlertRule, 'manual'>, Candidates> = {
  // A segment whose settlement crossed its project's alarm thresholds in a dataset's current
  // analysis (the warning band stays the settlement screen's watch list); the worst crossing is the value.
  settlementThreshold: (enterpriseId) => sql`
    select distinct on (p.pipe_id)
      'pipe:' || p.pipe_id as object_key, 'dataset:' || d.id as occurrence, p.id as object_id, p.pipe_id as subject,
      'II' as level,
      (c.crossing->>'value')::float8 as value,
      case c.crossing->>'metric' when 'velocity' then 'mm/yr' when 'cumulative' then 'mm' else 'mm/yr/100m' end as unit,
      (c.crossing->>'threshold')::float8 as threshold,
      jsonb_build_object('datasetId', d.id, 'datasetName', d.name, 'metric', c.crossing->>'metric', 'crossed', r.crossed, 'pointCount', r.point_count,
        'meanVelocity', r.mean_velocity, 'networkType', p.network_type, 'lastDate', d.dates->>-1) as details,
      p.geometry, (p.minx + p.maxx) / 2 as lon, (p.miny + p.maxy) / 2 as lat, p.minx, p.miny, p.maxx, p.maxy,
      array[p.pipe_id] as pipe_ids, 1 as pipe_count
    from settlement_datasets d
    join settlement_results r on r.dataset_id = d.id and r.run = d.analysis_run and r.level = 2
    join pipes p on p.id = r.pipe_row_id and p.enterprise_id = d.enterprise_id
    cross join lateral (select x as crossing from jsonb_array_elements(r.crossed) x where x->>'level' = 'alarm' limit 1) c
    where d.enterprise_id = ${enterpriseId} and d.status = 'ready'
    order by p.pipe_id, r.min_velocity`,

  // Works inside a gas pipe's protection range: the gravest, whatever the case says yet.
  gasProtection: (enterpriseId) => sql`
    select 'site:' || s.id as object_key, '' as occurrence, s.id as object_id, s.site_no as subject, 'I' as level,
      (s.measure->'gas'->'pipe'->>'distanceM')::float8 as value, 'm' as unit, (s.measure->'gas'->>'rangeM')::float8 as threshold,
      jsonb_build_object('siteName', s.name, 'buildType', s.build_type, 'pressure', s.measure->'gas'->>'pressure', 'gasPipeId', s.measure->'gas'->'pipe'->>'pipeId') as details,
      ${SITE_PLACE}
    from construction_sites s
    where s.enterprise_id = ${enterpriseId} and s.inside_gas_protection and s.status <> 'closed'`,

  // A site judged a threat (and still being worked): graver the more critical it was measured.
  constructionThreat: (enterpriseId) => sql`
    select 'site:' || s.id as object_key, '' as occurrence, s.id as object_id, s.site_no as subject,
      case s.criticality when 'high' then 'II' when 'medium' then 'III' else 'IV' end as level,
      s.nearest_m as value, 'm' as unit, null::float8 as threshold,
      jsonb_build_object('siteName', s.name, 'buildType', s.build_type, 'criticality', s.criticality, 'status', s.status) as details,
      ${SITE_PLACE}
    from construction_sites s
    where s.enterprise_id = ${enterpriseId} and s.status in ('threat', 'briefed', 'guarded')`,

  // A warning in force over risk-prone areas it puts at risk (a waterlogging point's trigger met, voids washed out).
  weatherRiskArea: (enterpriseId, now) => sql`
    select 'warning:' || w.id as object_key, '' as occurrence, w.id as object_id, coalesce(w.headline, pl.name, w.type) as subject, w.level,
      w.value, case w.type when 'rainstorm' then 'mm' when 'gale' then 'm/s' when 'other' then null else '°C' end as unit, null::float8 as threshold,
      jsonb_build_object('type', w.type, 'source', w.source, 'basis', w.basis, 'riskAreas', w.touches->'riskAreas', 'end', w."end") as details,
      ${WARNING_PLACE}
      array[]::text[] as pipe_ids,
      coalesce((select sum((x->>'count')::int) from jsonb_array_elements(w.touches->'pipes') x), 0)::int as pipe_count
    ${WARNING_FROM}
    where w.enterprise_id = ${enterpriseId} and ${inForce(now)}
      and jsonb_array_length(w.touches->'riskAreas') > 0`,

  // A cold wave in force over water pipes laid shallow.
  weatherShallowPipes: (enterpriseId, now) => sql`
    select 'warning:' || w.id as object_key, '' as occurrence, w.id as object_id, coalesce(w.headline, pl.name, w.type) as subject, w.level,
      w.value, '°C' as unit, null::float8 as threshold,
      jsonb_build_object('type', w.type, 'source', w.source, 'basis', w.basis, 'pipes', w.touches->'pipes', 'end', w."end") as details,
      ${WARNING_PLACE}
      array[]::text[] as pipe_ids, s.count as pipe_count
    ${WARNING_FROM}
    cross join lateral (select coalesce(sum((x->>'count')::int), 0)::int as count from jsonb_array_elements(w.touches->'pipes') x where x->>'why' = 'shallowWater') s
    where w.enterprise_id = ${enterpriseId} and ${inForce(now)} and s.count > 0`,

  // A leak the crew found and nobody has repaired after the enterprise's allowed days.
  leakNotRepaired: (enterpriseId, now, days) => sql`
    select 'poi:' || o.id as object_key, extract(epoch from o.found_at)::bigint::text as occurrence, o.id as object_id, o.poi_no as subject, 'II' as level,
      floor(extract(epoch from (${now}::timestamptz - o.found_at)) / 86400)::float8 as value, 'd' as unit, ${days}::float8 as threshold,
      jsonb_build_object('projectId', o.project_id, 'foundAt', o.found_at, 'finding', o.finding, 'estimatedLeakM3h', o.estimated_leak_m3h) as details,
      o.geometry, o.center_lon as lon, o.center_lat as lat, o.minx, o.miny, o.maxx, o.maxy,
      array(select jsonb_array_elements_text(coalesce(o.pipes->'pipeIds', '[]')) limit 50) as pipe_ids, coalesce((o.pipes->>'count')::int, 0) as pipe_count
    from pois o
    where o.enterprise_id = ${enterpriseId} and o.status = 'leakFound' and o.found_at < ${now}::timestamptz - make_interval(days => ${days})`,

  // A segment whose composite risk rose to I or II at its latest change of level.
  pipeRiskRise: (enterpriseId) => sql`
    select 'pipe:' || p.pipe_id as object_key, r.since::text as occurrence, p.id as object_id, p.pipe_id as subject, r.level,
      r.score::float8 as value, 'R' as unit, case r.level when 'I' then 20 else 9 end::float8 as threshold,
      jsonb_build_object('fromLevel', c.from_level, 'since', r.since, 'networkType', p.network_type, 'likelihood', r.likelihood, 'consequence', r.consequence) as details,
      p.geometry, (p.minx + p.maxx) / 2 as lon, (p.miny + p.maxy) / 2 as lat, p.minx, p.miny, p.maxx, p.maxy,
      array[p.pipe_id] as pipe_ids, 1 as pipe_count
    from pipe_risks r
    join pipe_risk_changes c on c.pipe_row_id = r.pipe_row_id and c.changed_on = r.since and c.to_level = r.level
    join pipes p on p.enterprise_id = r.enterprise_id and p.id = r.pipe_row_id
    -- Levels I and II are R >= 9: the list's (enterprise, score) index finds them among a million.
    where r.enterprise_id = ${enterpriseId} and r.score >= 9 and ${levelOrder(sql`c.to_level`)} < ${levelOrder(sql`c.from_level`)}`,
  // A device past its thresholds (with hysteresis, kept by the ingest): one alert per episode, graver as it goes from warning to alarm.
  sensorThreshold: (enterpriseId) => sql`
    select 'sensor:' || d.id as object_key, extract(epoch from d.state_since)::bigint::text as occurrence, d.id as object_id, d.code as subject,
      case when d.state = 'alarm' and d.kind = 'gas' then 'I' when d.state = 'alarm' then 'II' else 'III' end as level,
      d.last_value as value, ${SENSOR_UNIT} as unit,
      case when d.state = 'alarm' then coalesce((d.thresholds->>'aboveAlarm')::float8, (d.thresholds->>'belowAlarm')::float8)
           else coalesce((d.thresholds->>'aboveWarning')::float8, (d.thresholds->>'belowWarning')::float8) end as threshold,
      ${SENSOR_DETAILS} as details, ${SENSOR_PLACE}
    from sensor_devices d
    where d.enterprise_id = ${enterpriseId} and d.state in ('warning', 'alarm')`,

  // A reading falling faster than the device's dropPerMinute (a pressure drop on a main: a burst), in the last half hour.
  sensorDrop: (enterpriseId, now) => sql`
    select 'sensor:' || d.id as object_key, extract(epoch from d.drop_at)::bigint::text as occurrence, d.id as object_id, d.code as subject, 'II' as level,
      d.drop_per_minute as value, ${SENSOR_UNIT} || '/min' as unit, (d.thresholds->>'dropPerMinute')::float8 as threshold,
      ${SENSOR_DETAILS} as details, ${SENSOR_PLACE}
    from sensor_devices d
    where d.enterprise_id = ${enterpriseId} and d.drop_at > ${now}::timestamptz - interval '30 minutes'`,

  // A device that missed three reports in a row.
  sensorSilent: (enterpriseId, now) => sql`
    select 'sensor:' || d.id as object_key, extract(epoch from d.state_since)::bigint::text as occurrence, d.id as object_id, d.code as subject, 'IV' as level,
      floor(extract(epoch from ${now}::timestamptz - coalesce(d.last_at, d.created_at)) / 60)::float8 as value, 'min' as unit, (3 * d.interval_seconds / 60.0)::float8 as threshold,
      ${SENSOR_DETAILS} as details, ${SENSOR_PLACE}
    from sensor_devices d
    where d.enterprise_id = ${enterpriseId} and d.state = 'silent'`,

  // A device whose newest reading its kind cannot make: the device, not the ground, needs a visit.
  sensorFault: (enterpriseId) => sql`
    select 'sensor:' || d.id as object_key, extract(epoch from d.state_since)::bigint::text as occurrence, d.id as object_id, d.code as subject, 'IV' as level,
      d.last_value as value, ${SENSOR_UNIT} as unit, null::float8 as threshold,
      ${SENSOR_DETAILS} as details, ${SENSOR_PLACE}
    from sensor_devices d
    where d.enterprise_id = ${enterpriseId} and d.state = 'fault'`,
};

export const RULE_NAMES = Object.keys(RULES) as Exclude<AlertRule, 'manual'>[];

/**
 * Raises what one rule finds: new alerts with their first timeline entry, in one statement.
 * Answers the ids raised (already-open objects and past occurrences are skipped by the indexes).
 */
export async function raiseRule(db: Db, rule: Exclude<AlertRule, 'manual'>, enterpriseId: number, now: Date, leakRepairDays: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with candidates as (${RULES[rule](enterpriseId, now, leakRepairDays)}),
        raised as (
          insert into alerts (enterprise_id, source, rule, object_key, occurrence, object_id, subject, level, value, unit, threshold, details, geometry, lon, lat, minx, miny, maxx, maxy, pipe_ids, pipe_count, raised_at, updated_at)
          select ${enterpriseId}, ${RULE_SOURCE[rule]}, ${rule}, object_key, occurrence, object_id, subject, level, value, unit, threshold, details, geometry, lon, lat, minx, miny, maxx, maxy, pipe_ids, pipe_count, ${now}, ${now}
          from candidates c
          -- Known objects are left out before the limit, so they never crowd out new ones.
          where not exists (
            select 1 from alerts a where a.enterprise_id = ${enterpriseId} and a.rule = ${rule} and a.object_key = c.object_key
              and (a.occurrence = c.occurrence or ${OPEN_ALERT_SQL}))
          order by ${levelOrder(sql`level`)}, object_key
          limit ${RAISE_LIMIT}
          on conflict do nothing
          returning id
        ),
        timeline as (insert into alert_events (alert_id, at, action, to_state) select id, ${now}, 'raise', 'new' from raised)
        select id from raised order by id`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Raises the level of the open alerts whose object the rule now finds graver (a site measured more
 * critical, a warning updated from yellow to orange, a pipe's risk risen from II to I while its
 * alert is open): level, value, threshold and facts follow the finding, and the timeline says from
 * which level to which. Its incident follows when grouped (its level, its deadline). The level is
 * compared again on the row the update locks, so two servers checking at once escalate an alert
 * once. Answers the ids escalated.
 */
export async function escalateRule(db: Db, rule: Exclude<AlertRule, 'manual'>, enterpriseId: number, now: Date, settings: AlertSettings): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with candidates as (${RULES[rule](enterpriseId, now, settings.leakRepairDays)}),
        graver as (
          select distinct on (a.id) a.id, a.level as from_level, c.level, c.value, c.threshold, c.details
          from alerts a join candidates c on c.object_key = a.object_key
          where a.enterprise_id = ${enterpriseId} and a.rule = ${rule} and ${OPEN_ALERT_SQL}
            and ${levelOrder(sql`c.level`)} < ${levelOrder(sql`a.level`)}
          order by a.id, ${levelOrder(sql`c.level`)}
        ),
        escalated as (
          update alerts a set level = g.level, value = g.value, threshold = g.threshold, details = g.details, updated_at = ${now}
          from graver g
          where a.id = g.id and ${levelOrder(sql`g.level`)} < ${levelOrder(sql`a.level`)}
          returning a.id, a.state, g.from_level, g.level
        ),
        timeline as (
          insert into alert_events (alert_id, at, action, from_state, to_state, details)
          select id, ${now}, 'escalate', state, state, jsonb_build_object('fromLevel', from_level, 'toLevel', level)
          from escalated
        )
        select id from escalated order by id`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Marks the open alerts of a rule whose object the rule no longer finds (a site closed, a warning
 * over, a leak repaired, a segment back under its alarm in a newer analysis) as cleared, and those
 * it finds again as not; each with a "clear" entry on its timeline. A cleared alert stays open in
 * its incident: people close what they have seen to. Answers the ids, cleared and found again.
 */
export async function clearRule(db: Db, rule: Exclude<AlertRule, 'manual'>, enterpriseId: number, now: Date, settings: AlertSettings): Promise<{ cleared: number[]; recurred: number[] }> {
  const rows = await queryRows<{ id: number; cleared: boolean }>(
    db,
    sql`with candidates as (${RULES[rule](enterpriseId, now, settings.leakRepairDays)}),
        changed as (
          update alerts a set cleared_at = case when a.cleared_at is null then ${now}::timestamptz end, updated_at = ${now}
          where a.enterprise_id = ${enterpriseId} and a.rule = ${rule} and ${OPEN_ALERT_SQL}
            and (a.cleared_at is null) = not exists (select 1 from candidates c where c.object_key = a.object_key)
          returning a.id, a.state, a.cleared_at is not null as cleared
        ),
        timeline as (
          insert into alert_events (alert_id, at, action, from_state, to_state, details)
          select id, ${now}, 'clear', state, state, jsonb_build_object('cleared', cleared) from changed
        )
        select id, cleared from changed order by id`,
  );
  return { cleared: rows.filter((r) => r.cleared).map((r) => Number(r.id)), recurred: rows.filter((r) => !r.cleared).map((r) => Number(r.id)) };
}
