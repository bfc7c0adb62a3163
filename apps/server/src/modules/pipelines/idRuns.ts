import { eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { pipeIdRuns, pipes } from '../../db/schema.ts';

/**
 * Pipe ids in a run of `pipe_id_runs` when the runs are cut afresh: a run walked whole reads
 * ~2,000 ids of the id index (~0.4 ms); 500 runs summarise a network of 1,000,000.
 */
export const RUN_IDS = 2_000;

export interface IdRun {
  enterprise_id: number;
  first_pipe_id: string;
  chars: string[];
}

/** Characters a run's walk takes out one by one before the rest is split (see cutRuns). */
const WALK_CHARS = 64;

/**
 * The runs of the pipe ids in `source` (any FROM item with enterprise_id and pipe_id: the network,
 * or an import's load table), cut every `runIds` ids in id order; each enterprise's first run
 * starts at '' so that every id has one. The same cut as migration 0048's.
 *
 * A run's characters come from its ids joined into one string: its first character is taken and
 * every copy of it removed, again and again (`replace` runs at memory speed), so a run of codes
 * like "W-0012345" (a dozen characters) takes a dozen passes instead of splitting 2,000 ids into
 * 20,000 characters to sort: 1.5 s instead of 9 s of PostgreSQL for 1,000,000 ids. After
 * WALK_CHARS passes (ids full of Chinese addresses) what is left is split as before.
 */
export const cutRuns = (source: SQL, runIds = RUN_IDS) => sql`
  with recursive runs as (
    select enterprise_id, run, min(pipe_id) as first_pipe_id, lower(string_agg(pipe_id, '')) as ids
    from (select enterprise_id, pipe_id, (row_number() over (partition by enterprise_id order by pipe_id) - 1) / ${runIds} as run from ${source}) numbered
    group by enterprise_id, run
  ), taken(enterprise_id, run, first_pipe_id, c, rest, passes) as (
    select enterprise_id, run, first_pipe_id, left(ids, 1), replace(ids, left(ids, 1), ''), 1 from runs
    union all
    select enterprise_id, run, first_pipe_id, left(rest, 1), replace(rest, left(rest, 1), ''), passes + 1 from taken where rest <> '' and passes < ${WALK_CHARS}
  )
  select enterprise_id, case when run = 0 then '' else first_pipe_id end as first_pipe_id, array_agg(distinct found.c order by found.c) as chars
  from taken cross join lateral (select taken.c union all select unnest(string_to_array(taken.rest, null)) where taken.passes = ${WALK_CHARS}) found(c)
  group by enterprise_id, run, first_pipe_id`;

/** The enterprise's runs made again from its network as it is (tests cut short runs to reach many). */
export async function recutRuns(db: Db, enterpriseId: number, runIds = RUN_IDS) {
  const runs = await queryRows<IdRun>(db, cutRuns(sql`(select enterprise_id, pipe_id from ${pipes} where ${eq(pipes.enterpriseId, enterpriseId)}) network`, runIds));
  await db.transaction(async (tx) => {
    await tx.delete(pipeIdRuns).where(eq(pipeIdRuns.enterpriseId, enterpriseId));
    await insertRuns(tx as unknown as Db, runs);
  });
}

/** Runs cut by cutRuns, written (the caller has removed the enterprise's old ones). */
export async function insertRuns(db: Db, runs: IdRun[]) {
  if (runs.length) await db.insert(pipeIdRuns).values(runs.map((run) => ({ enterpriseId: run.enterprise_id, firstPipeId: run.first_pipe_id, chars: run.chars })));
}

/**
 * FROM item `held`: the enterprise's runs whose ids may hold every character of `keyword`, any
 * case, in `order` (so a walk run by run in that order sorts only within each run): first_pipe_id,
 * next_pipe_id (where the next run starts, null for the last) and upper_pipe_id (the next run's
 * start, or the network's last id): `pipe_id between first_pipe_id and upper_pipe_id` is a range
 * the id index starts and stops a walk by, and `pipe_id < next_pipe_id` leaves out its end. With
 * `first`, only the first that many of them.
 */
export const runsHolding = (enterpriseId: number, keyword: string, order: 'asc' | 'desc', first?: number) => sql`(
  select first_pipe_id, next_pipe_id, coalesce(next_pipe_id, (select max(${pipes.pipeId}) from ${pipes} where ${eq(pipes.enterpriseId, enterpriseId)})) as upper_pipe_id from (
    select first_pipe_id, lead(first_pipe_id) over (order by first_pipe_id) as next_pipe_id, chars from ${pipeIdRuns} where ${eq(pipeIdRuns.enterpriseId, enterpriseId)}
  ) runs
  where chars @> string_to_array(lower(${keyword}), null)
  order by first_pipe_id ${sql.raw(order)}${first === undefined ? sql`` : sql` limit ${first}`}
) held`;

/** How many of the enterprise's runs may hold every character of `keyword`, of how many. */
export async function runsOfKeyword(db: Db, enterpriseId: number, keyword: string): Promise<{ held: number; runs: number }> {
  const [counts] = await queryRows<{ held: number; runs: number }>(
    db,
    sql`select count(*) filter (where chars @> string_to_array(lower(${keyword}), null))::int as held, count(*)::int as runs from ${pipeIdRuns} where ${eq(pipeIdRuns.enterpriseId, enterpriseId)}`,
  );
  return counts;
}
