import { and, eq, gte, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { CONSEQUENCE_FACTORS, DEFAULT_RISK_WEIGHTS, LIKELIHOOD_FACTORS, type AreaGeometry, type RiskLevel, type RiskWeights } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { isServerDatabase } from '../../db/copy.ts';
import { buildIndexesLike, createLoadTable, dropLoadTable, swapPartition, swapPatiently } from '../../db/partitions.ts';
import { pipeRiskSettings, weatherWarnings } from '../../db/schema.ts';
import { pipeInsideArea } from '../pipelines/queries.ts';
import { SHALLOW_M } from '../weather/touches.ts';
import { nearestSiteSql, sensitiveScoreSql } from './sensitive.ts';

/** A 1-5 score from a warning's or an area's level I-IV. */
const levelScore = (level: SQL) => sql`(case ${level} when 'I' then 5 when 'II' then 4 when 'III' then 3 else 2 end)`;

export async function getRiskWeights(db: Db, enterpriseId: number): Promise<RiskWeights> {
  const [row] = await db.select({ weights: pipeRiskSettings.weights }).from(pipeRiskSettings).where(eq(pipeRiskSettings.enterpriseId, enterpriseId));
  // A factor added after the weights were set starts at its default weight.
  if (!row) return DEFAULT_RISK_WEIGHTS;
  return { likelihood: { ...DEFAULT_RISK_WEIGHTS.likelihood, ...row.weights.likelihood }, consequence: { ...DEFAULT_RISK_WEIGHTS.consequence, ...row.weights.consequence } };
}

/**
 * Each factor's 1-5 score as SQL over `pipes` (alias p) and the per-factor tables the statement
 * builds (l: leaks, s: settlement, w: works, a: areas, x: weather, n: the nearest sensitive site). Written once here; the list
 * shows the stored scores and the segment's page explains them from the same sources.
 */
const FACTOR_SQL = {
  // Age band (10/20/30/40 years), one up for grey cast iron and steel (brittle, corroding), one down for plastics.
  ageMaterial: (year: number) => sql`case when p.install_year is null then 3 else greatest(1, least(5,
      (case when ${year} - p.install_year >= 40 then 5 when ${year} - p.install_year >= 30 then 4 when ${year} - p.install_year >= 20 then 3 when ${year} - p.install_year >= 10 then 2 else 1 end)
      + coalesce(m.adjust, 0))) end`,
  // Small pipes break more often per kilometre.
  diameter: sql`case when p.diameter_mm is null then 3 when p.diameter_mm <= 50 then 5 when p.diameter_mm <= 100 then 4 when p.diameter_mm <= 200 then 3 when p.diameter_mm <= 400 then 2 else 1 end`,
  // Leaks found on it (two or more: 5), or POIs over it still being worked.
  leaks: sql`case when coalesce(l.found, 0) >= 2 then 5 when coalesce(l.found, 0) = 1 then 4 when coalesce(l.open, 0) > 0 then 2 else 1 end`,
  // The worst settlement judgement of the latest analyses: alarm 5, warning 3.
  settlement: sql`case s.level when 2 then 5 when 1 then 3 else 1 end`,
  construction: sql`coalesce(w.score, 1)`,
  riskAreas: sql`coalesce(a.score, 1)`,
  weather: sql`coalesce(x.score, 1)`,
  // Consequence: the medium, then the size (gas by pressure class, others by diameter).
  medium: sql`case p.network_type when 'gas' then 5 when 'heat' then 4 when 'water' then 3 when 'power' then 3 when 'drainage' then 2 else 1 end`,
  size: sql`case when p.network_type = 'gas' then (case
        when lower(coalesce(p.pressure_class, '')) ~ '^(subhigh|sub-high|次高压|shp)' then 4 when lower(coalesce(p.pressure_class, '')) ~ '^(high|高压|hp)' then 5
        when lower(coalesce(p.pressure_class, '')) ~ '^(low|低压|lp)' then 2 else 3 end)
      when p.diameter_mm is null then 2 when p.diameter_mm >= 1000 then 5 when p.diameter_mm >= 600 then 4 when p.diameter_mm >= 300 then 3 when p.diameter_mm >= 150 then 2 else 1 end`,
  // A school, hospital or station near it: 5 within 50 m, down to 2 within 500 m.
  sensitive: sensitiveScoreSql(sql`n.m`),
};

/** The weather warnings in force now whose kind puts pipes at risk, with the pipes each covers. */
async function weatherScores(db: Db, enterpriseId: number, now: Date): Promise<SQL> {
  const active = await db
    .select({ type: weatherWarnings.type, level: weatherWarnings.level, area: weatherWarnings.area })
    .from(weatherWarnings)
    .where(and(eq(weatherWarnings.enterpriseId, enterpriseId), lte(weatherWarnings.start, now), gte(weatherWarnings.end, now), isNull(weatherWarnings.cancelledAt)));
  const parts = active
    .filter((w) => w.type === 'rainstorm' || w.type === 'coldWave')
    .map((w) => {
      const which = w.type === 'rainstorm' ? sql`pipes.network_type = 'drainage'` : sql`pipes.network_type = 'water' and pipes.depth_m < ${SHALLOW_M}`;
      return sql`select pipes.id as pipe_row_id, ${levelScore(sql`${w.level ?? 'IV'}::text`)} as score from pipes where pipes.enterprise_id = ${enterpriseId} and ${pipeInsideArea(w.area as AreaGeometry)} and ${which}`;
    });
  if (!parts.length) return sql`select null::bigint as pipe_row_id, null::int as score where false`;
  return sql`select pipe_row_id, max(score) as score from (${sql.join(parts, sql` union all `)}) weather group by pipe_row_id`;
}

/** The weighted mean of factor columns as SQL (1-5, unrounded). */
function weightedMean(columns: readonly string[], weights: Record<string, number>) {
  const total = columns.reduce((s, c) => s + weights[c], 0);
  const sum = sql.join(columns.map((c) => sql`${sql.raw(snake(c))} * ${weights[c]}::numeric`), sql` + `);
  return sql`((${sum}) / ${total}::numeric)`;
}
/** A weighted mean rounded to a whole 1-5: L or C on the matrix. */
const rounded = (mean: SQL) => sql`greatest(1, least(5, round(${mean})))::smallint`;
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The advisory lock (an arbitrary key of ours) that one assessment at a time holds. */
const ASSESSMENT_LOCK = 0x70697065;
/** An enterprise's partition of the assessments, as pipe_risks_partition_add (migration 0043) names it. */
const riskPartition = (enterpriseId: number) => `pipe_risks_of_${Math.trunc(enterpriseId)}`;

export interface AssessmentFigures {
  segments: number;
  levels: Record<RiskLevel, number>;
  byNetwork: Record<string, Record<RiskLevel, number>>;
  masked: number;
  changed: number;
}

/**
 * Assesses every segment of the enterprise's network in SQL, in one transaction: the factors,
 * likelihood and consequence as weighted means, R on the matrix, the index within R (the unrounded
 * means' product) and the segment's percentile within its level, the masking flag; a segment whose
 * level changed gets a row in the changes with the day; the new assessment replaces the old.
 */
export async function assessNetwork(db: Db, enterpriseId: number, weights: RiskWeights, now = new Date()): Promise<AssessmentFigures> {
  const today = now.toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));
  const weather = await weatherScores(db, enterpriseId, now);
  const factors = [...LIKELIHOOD_FACTORS, ...CONSEQUENCE_FACTORS];
  const factorColumns = sql.raw(factors.map(snake).join(', '));
  // A set of ten 1-5 scores as one integer (base 5, under 5^10): what the grades are keyed by.
  const scoresCode = sql.raw(factors.map((f, i) => `(s.${snake(f)} - 1) * ${5 ** i}`).join(' + '));
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // The plan's cost is overestimated (the nearest-site subplan), which would JIT-compile and
    // optimise 160 functions for seconds on every run.
    await t.execute(sql`set local jit = off`);
    // Work in the background, on one core: parallel workers (scans, index builds) would take
    // the cores the users' requests are answered on while it runs.
    if (isServerDatabase(db)) await t.execute(sql`set local max_parallel_workers_per_gather = 0; set local max_parallel_maintenance_workers = 0`);
    // The previous levels are joined whole (hashed or merged), not looked up a segment at a time
    // (a million index probes were a third of step 1): in memory on a PostgreSQL server, with one
    // assessment at a time. Not on PGlite, whose memory, once grown, stays with the server's
    // process, and which assesses as fast without (a million segments: 7.5 s, 7.7 s with it).
    if (isServerDatabase(db)) await t.execute(sql`set local work_mem = '64MB'`);
    // One assessment at a time across enterprises: each ends by swapping its partition in, which
    // waits for every reader of pipe_risks, and two that each read it (their old levels) then
    // waited for the other's reads would deadlock. Taken before anything is read.
    await t.execute(sql`select pg_advisory_xact_lock(${ASSESSMENT_LOCK})`);
    // 1. Each segment's ten factor scores (OFFSET 0 keeps the planner from folding the step into
    // the next, which copied the factor expressions, regular expressions included, into every use),
    // with its previous level, and the code of its set of scores (base 5: one integer to join on).
    await t.execute(sql`create temp table risk_new on commit drop as
      with leaks as (
        select x.pipe_id, count(*) filter (where o.status in ('leakFound', 'repaired')) as found, count(*) filter (where o.status in ('new', 'assigned', 'investigating')) as open
        from pois o cross join lateral jsonb_array_elements_text(o.pipes -> 'pipeIds') as x(pipe_id) where o.enterprise_id = ${enterpriseId} group by x.pipe_id),
      settle as (
        select r.pipe_row_id, max(r.level) as level from settlement_results r join settlement_datasets d on d.id = r.dataset_id and r.run = d.analysis_run
        where d.enterprise_id = ${enterpriseId} group by r.pipe_row_id),
      works as (
        select pipe_row_id, max(score) as score from (
          select sp.pipe_row_id, case s.criticality when 'high' then 5 when 'medium' then 4 when 'low' then 3 else 2 end as score
          from construction_sites s join site_pipes sp on sp.site_id = s.id and sp.enterprise_id = ${enterpriseId}
          where s.enterprise_id = ${enterpriseId} and s.status not in ('closed', 'noThreat')
          union all
          select (s.measure -> 'gas' -> 'pipe' ->> 'pipeRowId')::bigint, 5 from construction_sites s
          where s.enterprise_id = ${enterpriseId} and s.status not in ('closed', 'noThreat') and s.measure -> 'gas' ->> 'zone' = 'protection') w group by pipe_row_id),
      areas as (
        select ap.pipe_row_id, max(${levelScore(sql.raw('a.level'))}) as score
        from risk_areas a join area_pipes ap on ap.area_id = a.id and ap.enterprise_id = ${enterpriseId}
        where a.enterprise_id = ${enterpriseId} and a.status <> 'remediated' group by 1),
      weather as (${weather}),
      near as (${nearestSiteSql(enterpriseId)}),
      -- A material's step up or down, judged once per material the network holds (not per segment).
      materials as (
        select material, case when material ~* '(cast iron|灰口|灰铸铁|^ci$)' and material !~* '(ductile|球墨)' then 1 when material ~* '(steel|钢)' then 1
              when material ~* '^(pe|hdpe|pe80|pe100|pvc|upvc)$|聚乙烯|塑料' then -1 else 0 end as adjust
        from (select distinct material from pipes where enterprise_id = ${enterpriseId} and material is not null) d),
      scored as (
        select p.id as pipe_row_id, p.network_type, ${sql.join(factors.map((f) => sql`(${typeof FACTOR_SQL[f] === 'function' ? (FACTOR_SQL[f] as (y: number) => SQL)(year) : FACTOR_SQL[f]})::smallint as ${sql.raw(snake(f))}`), sql`, `)}
        from pipes p
        left join leaks l on l.pipe_id = p.pipe_id
        left join settle s on s.pipe_row_id = p.id
        left join works w on w.pipe_row_id = p.id
        left join areas a on a.pipe_row_id = p.id
        left join weather x on x.pipe_row_id = p.id
        left join near n on n.pipe_row_id = p.id
        left join materials m on m.material = p.material
        where p.enterprise_id = ${enterpriseId}
        offset 0),
      -- Read whole (MATERIALIZED: never looked up per segment through its index).
      old as materialized (select pipe_row_id, level, since from pipe_risks where enterprise_id = ${enterpriseId})
      select s.*, ${scoresCode} as scores, o.level as old_level, o.since as old_since
      from scored s left join old o on o.pipe_row_id = s.pipe_row_id`);
    // The segments of each set of scores by network: a few hundred rows that the grades read
    // instead of the network's, and from which the figures by network and level come.
    await t.execute(sql`create temp table risk_sets on commit drop as
      select scores, network_type, count(*)::int as segments, ${sql.join(factors.map((f) => sql`min(${sql.raw(snake(f))}) as ${sql.raw(snake(f))}`), sql`, `)}
      from risk_new group by scores, network_type`);
    // 2. L, C, R, the index and the mask depend on the ten scores alone: worked out once per
    // distinct set of scores the network holds (a few hundred), not per segment (numeric means per
    // segment were a third of the assessment). The means stay numeric, so a mean of exactly x.5
    // rounds up as the matrix expects.
    await t.execute(sql`create temp table risk_grades on commit drop as
      with means as (
        select *, ${weightedMean(LIKELIHOOD_FACTORS, weights.likelihood)} as likelihood_mean, ${weightedMean(CONSEQUENCE_FACTORS, weights.consequence)} as consequence_mean
        from (select scores, sum(segments) as segments, ${sql.join(factors.map((f) => sql`min(${sql.raw(snake(f))}) as ${sql.raw(snake(f))}`), sql`, `)} from risk_sets group by scores) s),
      rated as (
        select scores, segments, ${rounded(sql.raw('likelihood_mean'))} as likelihood, ${rounded(sql.raw('consequence_mean'))} as consequence,
          round(likelihood_mean * consequence_mean, 2)::real as risk_index,
          greatest(${factorColumns}) = 5 as masked
        from means)
      select *, (likelihood * consequence)::smallint as score,
        case when likelihood * consequence >= 20 then 'I' when likelihood * consequence >= 9 then 'II' when likelihood * consequence >= 4 then 'III' else 'IV' end as level
      from rated`);
    // Known to be small, so each segment looks its grades up in a hash (in the network's order).
    await t.execute(sql`analyze risk_grades`);
    // A segment's percentile within its level is percent_rank() by (R, index): worked out once per
    // distinct (level, R, index) from the grades' counts, instead of by sorting the whole network.
    await t.execute(sql`create temp table risk_ranks on commit drop as
      select level, score, risk_index,
        (100 * coalesce((sum(sum(segments)) over (partition by level order by score, risk_index) - sum(segments))::float8 / nullif(sum(sum(segments)) over (partition by level) - 1, 0)::float8, 0))::real as percentile
      from risk_grades group by level, score, risk_index`);
    await t.execute(sql`analyze risk_ranks`);
    const [{ changed }] = await queryRows<{ changed: number }>(
      t,
      sql`with inserted as (insert into pipe_risk_changes (enterprise_id, pipe_row_id, changed_on, from_level, to_level)
            select ${enterpriseId}, n.pipe_row_id, ${today}::date, n.old_level, g.level from risk_new n join risk_grades g on g.scores = n.scores
            where n.old_level is not null and n.old_level <> g.level returning 1)
          select count(*)::int as changed from inserted`,
    );
    // 3. The new assessment goes into a table of its own, is indexed whole and takes the place of
    // the enterprise's partition as the transaction's last step (readers see the old one till then).
    const partition = riskPartition(enterpriseId);
    const load = `${partition}_new`;
    await dropLoadTable(t, load);
    await createLoadTable(t, 'pipe_risks', load, 'enterprise_id', enterpriseId);
    await t.execute(sql`insert into ${sql.identifier(load)} (pipe_row_id, enterprise_id, ${factorColumns}, likelihood, consequence, score, risk_index, percentile, level, masked, assessed_on, since)
      select n.pipe_row_id, ${enterpriseId}, ${sql.raw(factors.map((f) => `n.${snake(f)}`).join(', '))}, g.likelihood, g.consequence, g.score, g.risk_index, k.percentile, g.level, g.masked, ${today}::date,
        case when n.old_level = g.level then n.old_since else ${today}::date end
      from risk_new n join risk_grades g on g.scores = n.scores join risk_ranks k on k.level = g.level and k.score = g.score and k.risk_index = g.risk_index`);
    const rows = await queryRows<{ network_type: string; level: RiskLevel; segments: number; masked: number }>(
      t,
      sql`select n.network_type, g.level, sum(n.segments)::int as segments, coalesce(sum(n.segments) filter (where g.masked), 0)::int as masked from risk_sets n join risk_grades g on g.scores = n.scores group by 1, 2`,
    );
    await buildIndexesLike(t, 'pipe_risks', load, { inTransaction: true });
    // Its statistics before anyone plans against it (the tiles and the list read it at once).
    await t.execute(sql`analyze ${sql.identifier(load)}`);
    // A long reader (an export) is let by and the swap tried again from a savepoint.
    await swapPatiently(tx as unknown as Db, (savepoint) => swapPartition(savepoint as unknown as Db, 'pipe_risks', partition, load, enterpriseId));
    const figures: AssessmentFigures = { segments: 0, levels: { I: 0, II: 0, III: 0, IV: 0 }, byNetwork: {}, masked: 0, changed: Number(changed) };
    for (const r of rows) {
      figures.segments += Number(r.segments);
      figures.masked += Number(r.masked);
      figures.levels[r.level] += Number(r.segments);
      (figures.byNetwork[r.network_type] ??= { I: 0, II: 0, III: 0, IV: 0 })[r.level] += Number(r.segments);
    }
    return figures;
  });
}
