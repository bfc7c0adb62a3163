import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, gte, isNull, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { CONSEQUENCE_FACTORS, DEFAULT_RISK_WEIGHTS, LIKELIHOOD_FACTORS, type AreaGeometry, type RiskFactor, type RiskLevel, type RiskWeights } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { isServerDatabase } from '../../db/copy.ts';
import { buildIndexesLike, createLoadTable, dropLoadTable, swapPartition, swapPatiently } from '../../db/partitions.ts';
import { pipePartition } from '../pipelines/import.ts';
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
 * Each factor's 1-5 score as SQL over `pipes` and the tables the assessment builds (i: the
 * segment's leaks, settlement, works and areas; n: the nearest sensitive site; m: the material's step). Written once here; the list shows the stored scores and the segment's page
 * explains them from the same sources.
 */
const factorSql = (year: number, weather: SQL): Record<RiskFactor, SQL> => ({
  // Age band (10/20/30/40 years), one up for grey cast iron and steel (brittle, corroding), one down for plastics.
  ageMaterial: sql`case when pipes.install_year is null then 3 else greatest(1, least(5,
      (case when ${year} - pipes.install_year >= 40 then 5 when ${year} - pipes.install_year >= 30 then 4 when ${year} - pipes.install_year >= 20 then 3 when ${year} - pipes.install_year >= 10 then 2 else 1 end)
      + coalesce(m.adjust, 0))) end`,
  // Small pipes break more often per kilometre.
  diameter: sql`case when pipes.diameter_mm is null then 3 when pipes.diameter_mm <= 50 then 5 when pipes.diameter_mm <= 100 then 4 when pipes.diameter_mm <= 200 then 3 when pipes.diameter_mm <= 400 then 2 else 1 end`,
  // Leaks found on it (two or more: 5), or POIs over it still being worked.
  leaks: sql`case when coalesce(i.found, 0) >= 2 then 5 when coalesce(i.found, 0) = 1 then 4 when coalesce(i.open, 0) > 0 then 2 else 1 end`,
  // The worst settlement judgement of the latest analyses: alarm 5, warning 3.
  settlement: sql`case i.settlement when 2 then 5 when 1 then 3 else 1 end`,
  construction: sql`coalesce(i.works, 1)`,
  riskAreas: sql`coalesce(i.areas, 1)`,
  weather,
  // Consequence: the medium, then the size (gas by pressure class, others by diameter).
  medium: sql`case pipes.network_type when 'gas' then 5 when 'heat' then 4 when 'water' then 3 when 'power' then 3 when 'drainage' then 2 else 1 end`,
  size: sql`case when pipes.network_type = 'gas' then (case
        when lower(coalesce(pipes.pressure_class, '')) ~ '^(subhigh|sub-high|次高压|shp)' then 4 when lower(coalesce(pipes.pressure_class, '')) ~ '^(high|高压|hp)' then 5
        when lower(coalesce(pipes.pressure_class, '')) ~ '^(low|低压|lp)' then 2 else 3 end)
      when pipes.diameter_mm is null then 2 when pipes.diameter_mm >= 1000 then 5 when pipes.diameter_mm >= 600 then 4 when pipes.diameter_mm >= 300 then 3 when pipes.diameter_mm >= 150 then 2 else 1 end`,
  // A school, hospital or station near it: 5 within 50 m, down to 2 within 500 m.
  sensitive: sensitiveScoreSql(sql`n.m`),
});

/**
 * The weather factor of a segment of `pipes`: the worst warning in force now whose kind puts it at
 * risk and whose area holds it, 1 without one. An expression over the segment's own row, so each
 * step reads only its range of pipes.
 */
async function weatherScore(db: Db, enterpriseId: number, now: Date): Promise<SQL> {
  const active = await db
    .select({ type: weatherWarnings.type, level: weatherWarnings.level, area: weatherWarnings.area })
    .from(weatherWarnings)
    .where(and(eq(weatherWarnings.enterpriseId, enterpriseId), lte(weatherWarnings.start, now), gte(weatherWarnings.end, now), isNull(weatherWarnings.cancelledAt)));
  const scores = active
    .filter((w) => w.type === 'rainstorm' || w.type === 'coldWave')
    .map((w) => {
      const which = w.type === 'rainstorm' ? sql`pipes.network_type = 'drainage'` : sql`pipes.network_type = 'water' and pipes.depth_m < ${SHALLOW_M}`;
      return sql`case when ${which} and ${pipeInsideArea(w.area as AreaGeometry)} then ${levelScore(sql`${w.level ?? 'IV'}::text`)} end`;
    });
  return scores.length ? sql`coalesce(greatest(${sql.join(scores, sql`, `)}), 1)` : sql`1`;
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

/** The advisory lock (an arbitrary key of ours) that one swap of an assessment at a time holds. */
const ASSESSMENT_LOCK = 0x70697065;
/** An enterprise's partition of the assessments, as pipe_risks_partition_add (migration 0043) names it. */
const riskPartition = (enterpriseId: number) => `pipe_risks_of_${Math.trunc(enterpriseId)}`;
const WORK_PARTS = ['inputs', 'near', 'scores', 'sets', 'grades', 'ranks', 'changes'] as const;
/** The work tables of an enterprise's assessment (one runs at a time per enterprise: the run row). */
const workTable = (enterpriseId: number, part: (typeof WORK_PARTS)[number]) => sql.identifier(`pipe_risk_work_${Math.trunc(enterpriseId)}_${part}`);

/**
 * How each kind of database is stepped through. The embedded one answers nothing else during a
 * step, so a request that comes meanwhile waits for it (the goal: p99 < 100 ms): steps of ~30 ms,
 * each followed by a rest of half its time, so that a request of several statements (each queues
 * behind a step) finishes between two; the load table is indexed before it is filled (an index
 * built whole is one long statement). On a server readers never wait for a step: longer steps
 * cost less (each is planned anew), the rests leave the cores to the requests a fifth of the
 * time, and the load table is indexed once filled (sorted builds, cheaper than inserts through
 * the indexes).
 */
const PACE = {
  pglite: { stepMs: 30, rest: 0.5, indexFirst: true },
  postgres: { stepMs: 500, rest: 0.25, indexFirst: false },
};
const paceOf = (db: Db) => (isServerDatabase(db) ? PACE.postgres : PACE.pglite);
/** Rows in the first step and the bounds of a step; each next step's size follows the time the last one took. */
const SEGMENT_STEPS = { first: 4_000, min: 500, max: 250_000 };
/** A sensitive site measures its distance to every pipe within 500 m of it: a few at a time. */
const SITE_STEPS = { first: 2, min: 1, max: 1_000 };
/** A network replaced while it was being assessed is assessed again, this many times at most. */
const TRIES = 3;

export interface AssessmentFigures {
  segments: number;
  levels: Record<RiskLevel, number>;
  byNetwork: Record<string, Record<RiskLevel, number>>;
  masked: number;
  changed: number;
}

/**
 * One short statement of the assessment in a transaction of its own: no JIT (the plan's cost is
 * overestimated, and compiling 160 functions took seconds), no parallel workers (the users'
 * requests keep the other core).
 */
async function step(db: Db, statement: SQL) {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.execute(sql`set local jit = off`);
    if (isServerDatabase(db)) await t.execute(sql`set local max_parallel_workers_per_gather = 0; set local max_parallel_maintenance_workers = 0`);
    await t.execute(statement);
  });
}

/**
 * Runs `work(rows)` over `table`'s rows of the enterprise in ranges of `key`, each sized to take
 * about the pace's step and followed by a rest, so that what users ask meanwhile is answered between them.
 */
async function inSteps(db: Db, table: SQLWrapper, key: string, enterpriseId: number | null, steps: typeof SEGMENT_STEPS, work: (rows: (column: string) => SQL) => Promise<void>) {
  const pace = paceOf(db);
  const K = sql.identifier(key);
  const ofEnterprise = enterpriseId === null ? sql`true` : sql`enterprise_id = ${enterpriseId}`;
  let after = 0;
  let size = steps.first;
  for (;;) {
    const upto = await db.transaction(async (tx) => {
      // Along the key's index whatever the statistics say (a network not analysed yet was read
      // whole and sorted: 0.4-1 s a step for a million segments).
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await tx.execute(sql.raw(`set local ${setting} = off`));
      const [{ upto }] = await queryRows<{ upto: number | null }>(tx as unknown as Db, sql`select max(${K})::float8 as upto from (select ${K} from ${table} where ${ofEnterprise} and ${K} > ${after} order by ${K} limit ${size}) s`);
      return upto;
    });
    if (upto === null) return;
    const started = performance.now();
    const from = after;
    const to = Number(upto);
    await work((column) => sql`${sql.raw(column)} > ${from} and ${sql.raw(column)} <= ${to}`);
    const took = performance.now() - started;
    after = to;
    // Half-way to the size that would have taken a step's time: steady on a machine whose speed wanders.
    const next = size * Math.sqrt(pace.stepMs / Math.max(took, 1));
    size = Math.round(Math.min(steps.max, Math.max(steps.min, next)));
    await sleep(took * pace.rest);
  }
}

async function dropWorkTables(db: Db, enterpriseId: number) {
  for (const part of WORK_PARTS) await db.execute(sql`drop table if exists ${workTable(enterpriseId, part)}`);
}

/**
 * Assesses every segment of the enterprise's network in SQL: the factors, likelihood and
 * consequence as weighted means, R on the matrix, the index within R (the unrounded means' product)
 * and the segment's percentile within its level, the masking flag; a segment whose level changed
 * gets a row in the changes with the day; the new assessment replaces the old whole, in one short
 * transaction at the end (readers see the old one till then, and nothing of a failed one).
 *
 * The work goes in steps of a few thousand segments with rests between (see PACE), into work
 * tables of the enterprise's: on the embedded database, one statement over a million segments held
 * every request for seconds.
 */
export async function assessNetwork(db: Db, enterpriseId: number, weights: RiskWeights, now = new Date()): Promise<AssessmentFigures> {
  for (let attempt = 1; ; attempt++) {
    const figures = await assessOnce(db, enterpriseId, weights, now, attempt === TRIES);
    if (figures) return figures;
  }
}

/** The partition holding the enterprise's pipes: a new table once a network is replaced. */
async function pipesTable(db: Db, enterpriseId: number) {
  const [{ oid }] = await queryRows<{ oid: number | null }>(db, sql`select to_regclass(${pipePartition(enterpriseId)})::oid::int8::float8 as oid`);
  return oid;
}

/** One assessment; null when the network was replaced meanwhile (unless `last`: then what was read stands). */
async function assessOnce(db: Db, enterpriseId: number, weights: RiskWeights, now: Date, last: boolean): Promise<AssessmentFigures | null> {
  const today = now.toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));
  const factorOf = factorSql(year, await weatherScore(db, enterpriseId, now));
  const factors = [...LIKELIHOOD_FACTORS, ...CONSEQUENCE_FACTORS];
  const factorColumns = sql.raw(factors.map(snake).join(', '));
  // A set of ten 1-5 scores as one integer (base 5, under 5^10): what the grades are keyed by.
  const scoresCode = sql.raw(factors.map((f, i) => `(s.${snake(f)} - 1) * ${5 ** i}`).join(' + '));
  const [inputs, near, scores, sets, grades, ranks, changes] = WORK_PARTS.map((part) => workTable(enterpriseId, part));
  const partition = riskPartition(enterpriseId);
  const load = `${partition}_new`;
  const network = await pipesTable(db, enterpriseId);
  await dropWorkTables(db, enterpriseId);
  await dropLoadTable(db, load);
  let swapped = false;
  try {
    // 1. What the small registers say of each segment, once: leaks and open POIs, the worst
    // settlement judgement of the latest analyses, the works and the risk-prone areas near it.
    await step(db, sql`create unlogged table ${inputs} as
      select pipe_row_id, max(found) as found, max(open) as open, max(settlement) as settlement, max(works) as works, max(areas) as areas from (
        select p.id as pipe_row_id, l.found, l.open, null::int as settlement, null::int as works, null::int as areas
        from (select x.pipe_id, count(*) filter (where o.status in ('leakFound', 'repaired')) as found, count(*) filter (where o.status in ('new', 'assigned', 'investigating')) as open
              from pois o cross join lateral jsonb_array_elements_text(o.pipes -> 'pipeIds') as x(pipe_id) where o.enterprise_id = ${enterpriseId} group by x.pipe_id) l
        join pipes p on p.enterprise_id = ${enterpriseId} and p.pipe_id = l.pipe_id
        union all
        select r.pipe_row_id, null, null, r.level, null, null from settlement_results r join settlement_datasets d on d.id = r.dataset_id and r.run = d.analysis_run
        where d.enterprise_id = ${enterpriseId}
        union all
        select sp.pipe_row_id, null, null, null, case s.criticality when 'high' then 5 when 'medium' then 4 when 'low' then 3 else 2 end, null
        from construction_sites s join site_pipes sp on sp.site_id = s.id and sp.enterprise_id = ${enterpriseId}
        where s.enterprise_id = ${enterpriseId} and s.status not in ('closed', 'noThreat')
        union all
        select (s.measure -> 'gas' -> 'pipe' ->> 'pipeRowId')::bigint, null, null, null, 5, null from construction_sites s
        where s.enterprise_id = ${enterpriseId} and s.status not in ('closed', 'noThreat') and s.measure -> 'gas' ->> 'zone' = 'protection'
        union all
        select ap.pipe_row_id, null, null, null, null, ${levelScore(sql.raw('a.level'))}
        from risk_areas a join area_pipes ap on ap.area_id = a.id and ap.enterprise_id = ${enterpriseId}
        where a.enterprise_id = ${enterpriseId} and a.status <> 'remediated') registers
      where pipe_row_id is not null group by pipe_row_id`);
    await db.execute(sql`alter table ${inputs} add primary key (pipe_row_id)`);
    await db.execute(sql`analyze ${inputs}`);
    // The metres from each segment within reach of a sensitive site to the nearest, a few sites a step.
    await db.execute(sql`create unlogged table ${near} (pipe_row_id bigint not null, m float8 not null)`);
    await inSteps(db, sql`sensitive_sites`, 'id', enterpriseId, SITE_STEPS, (sites) => step(db, sql`insert into ${near} ${nearestSiteSql(enterpriseId, sites('k.id'))}`));
    await db.execute(sql`create index on ${near} (pipe_row_id)`);
    await db.execute(sql`analyze ${near}`);
    await db.execute(sql`create unlogged table ${scores} (pipe_row_id bigint primary key, network_type text not null,
      ${sql.raw(factors.map((f) => `${snake(f)} smallint not null`).join(', '))}, scores int not null, old_level text, old_since date)`);
    await db.execute(sql`create unlogged table ${sets} (scores int not null, network_type text not null, segments int not null, ${sql.raw(factors.map((f) => `${snake(f)} smallint not null`).join(', '))})`);
    // 2. Each segment's ten factor scores with its previous level, a range of segments a step
    // (OFFSET 0 keeps the planner from folding the scoring into the insert, which copied the
    // factor expressions, regular expressions included, into every use); each step also counts
    // its segments by set of scores and network: a few hundred rows that the grades and the
    // figures read instead of the network's.
    await inSteps(db, sql`pipes`, 'id', enterpriseId, SEGMENT_STEPS, (rows) =>
      step(db, sql`with
        nearest as (select pipe_row_id, min(m) as m from ${near} where ${rows('pipe_row_id')} group by pipe_row_id),
        -- A material's step up or down, judged once per material of the range (not per segment).
        materials as (
          select material, case when material ~* '(cast iron|灰口|灰铸铁|^ci$)' and material !~* '(ductile|球墨)' then 1 when material ~* '(steel|钢)' then 1
                when material ~* '^(pe|hdpe|pe80|pe100|pvc|upvc)$|聚乙烯|塑料' then -1 else 0 end as adjust
          from (select distinct material from pipes where enterprise_id = ${enterpriseId} and ${rows('id')} and material is not null) d),
        scored as (
          select pipes.id as pipe_row_id, pipes.network_type, ${sql.join(factors.map((f) => sql`(${factorOf[f]})::smallint as ${sql.raw(snake(f))}`), sql`, `)}
          from pipes
          left join ${inputs} i on i.pipe_row_id = pipes.id
          left join nearest n on n.pipe_row_id = pipes.id
          left join materials m on m.material = pipes.material
          where pipes.enterprise_id = ${enterpriseId} and ${rows('pipes.id')}
          offset 0),
        added as (
          insert into ${scores}
          select s.*, ${scoresCode} as scores, o.level, o.since
          from scored s left join pipe_risks o on o.enterprise_id = ${enterpriseId} and o.pipe_row_id = s.pipe_row_id and ${rows('o.pipe_row_id')}
          returning *)
        insert into ${sets} select scores, network_type, count(*)::int, ${sql.join(factors.map((f) => sql`min(${sql.raw(snake(f))})`), sql`, `)} from added group by scores, network_type`),
    );
    // 3. L, C, R, the index and the mask depend on the ten scores alone: worked out once per
    // distinct set of scores the network holds (a few hundred), not per segment. The means stay
    // numeric, so a mean of exactly x.5 rounds up as the matrix expects.
    await step(db, sql`create unlogged table ${grades} as
      with means as (
        select *, ${weightedMean(LIKELIHOOD_FACTORS, weights.likelihood)} as likelihood_mean, ${weightedMean(CONSEQUENCE_FACTORS, weights.consequence)} as consequence_mean
        from (select scores, sum(segments) as segments, ${sql.join(factors.map((f) => sql`min(${sql.raw(snake(f))}) as ${sql.raw(snake(f))}`), sql`, `)} from ${sets} group by scores) s),
      rated as (
        select scores, segments, ${rounded(sql.raw('likelihood_mean'))} as likelihood, ${rounded(sql.raw('consequence_mean'))} as consequence,
          round(likelihood_mean * consequence_mean, 2)::real as risk_index,
          greatest(${factorColumns}) = 5 as masked
        from means)
      select *, (likelihood * consequence)::smallint as score,
        case when likelihood * consequence >= 20 then 'I' when likelihood * consequence >= 9 then 'II' when likelihood * consequence >= 4 then 'III' else 'IV' end as level
      from rated`);
    await db.execute(sql`analyze ${grades}`);
    // A segment's percentile within its level is percent_rank() by (R, index): worked out once per
    // distinct (level, R, index) from the grades' counts, instead of by sorting the whole network.
    await step(db, sql`create unlogged table ${ranks} as
      select level, score, risk_index,
        (100 * coalesce((sum(sum(segments)) over (partition by level order by score, risk_index) - sum(segments))::float8 / nullif(sum(sum(segments)) over (partition by level) - 1, 0)::float8, 0))::real as percentile
      from ${grades} group by level, score, risk_index`);
    await db.execute(sql`analyze ${ranks}`);
    await db.execute(sql`create unlogged table ${changes} (pipe_row_id bigint not null, from_level text not null, to_level text not null)`);
    // 4. The new assessment goes into a table of its own, a range of segments a step, with the changes of level.
    const { indexFirst } = paceOf(db);
    const buildIndexes = () =>
      db.transaction(async (tx) => {
        // On one core, as the steps (the users' requests keep the other).
        if (isServerDatabase(db)) await tx.execute(sql`set local max_parallel_maintenance_workers = 0`);
        await buildIndexesLike(tx as unknown as Db, 'pipe_risks', load, { inTransaction: true });
      });
    await createLoadTable(db, 'pipe_risks', load, 'enterprise_id', enterpriseId);
    if (indexFirst) await buildIndexes();
    await inSteps(db, scores, 'pipe_row_id', null, SEGMENT_STEPS, (rows) =>
      step(db, sql`with graded as (
          select n.*, g.likelihood, g.consequence, g.score, g.risk_index, k.percentile, g.level, g.masked
          from ${scores} n join ${grades} g on g.scores = n.scores join ${ranks} k on k.level = g.level and k.score = g.score and k.risk_index = g.risk_index
          where ${rows('n.pipe_row_id')}),
        changed as (insert into ${changes} select pipe_row_id, old_level, level from graded where old_level is not null and old_level <> level)
        insert into ${sql.identifier(load)} (pipe_row_id, enterprise_id, ${factorColumns}, likelihood, consequence, score, risk_index, percentile, level, masked, assessed_on, since)
        select pipe_row_id, ${enterpriseId}, ${factorColumns}, likelihood, consequence, score, risk_index, percentile, level, masked, ${today}::date,
          case when old_level = level then old_since else ${today}::date end
        from graded`),
    );
    if (!indexFirst) await buildIndexes();
    // Its statistics before anyone plans against it (the tiles and the list read it at once), from
    // a small sample: a full one reads every page of a million rows in one statement.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local default_statistics_target = 20`);
      await tx.execute(sql`analyze ${sql.identifier(load)}`);
    });
    const rows = await queryRows<{ network_type: string; level: RiskLevel; segments: number; masked: number }>(
      db,
      sql`select n.network_type, g.level, sum(n.segments)::int as segments, coalesce(sum(n.segments) filter (where g.masked), 0)::int as masked from ${sets} n join ${grades} g on g.scores = n.scores group by 1, 2`,
    );
    // 5. The changes and the swap, in one short transaction: one swap at a time across enterprises
    // (each waits for every reader of pipe_risks; two that each held reads the other waited for
    // would deadlock), taken before anything is read.
    const changed = await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await t.execute(sql`select pg_advisory_xact_lock(${ASSESSMENT_LOCK})`);
      // The network replaced meanwhile: some ranges were read from the old one, so again.
      if (!last && (await pipesTable(t, enterpriseId)) !== network) return null;
      const [{ count }] = await queryRows<{ count: number }>(
        t,
        sql`with inserted as (insert into pipe_risk_changes (enterprise_id, pipe_row_id, changed_on, from_level, to_level)
              select ${enterpriseId}, pipe_row_id, ${today}::date, from_level, to_level from ${changes} returning 1)
            select count(*)::int as count from inserted`,
      );
      // A long reader (an export) is let by and the swap tried again from a savepoint.
      await swapPatiently(tx as unknown as Db, (savepoint) => swapPartition(savepoint as unknown as Db, 'pipe_risks', partition, load, enterpriseId));
      return Number(count);
    });
    if (changed === null) return null;
    swapped = true;
    const figures: AssessmentFigures = { segments: 0, levels: { I: 0, II: 0, III: 0, IV: 0 }, byNetwork: {}, masked: 0, changed };
    for (const r of rows) {
      figures.segments += Number(r.segments);
      figures.masked += Number(r.masked);
      figures.levels[r.level] += Number(r.segments);
      (figures.byNetwork[r.network_type] ??= { I: 0, II: 0, III: 0, IV: 0 })[r.level] += Number(r.segments);
    }
    return figures;
  } finally {
    await dropWorkTables(db, enterpriseId).catch(() => {});
    if (!swapped) await dropLoadTable(db, load).catch(() => {});
  }
}
