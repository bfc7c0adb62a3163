import { and, asc, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import { EXACT_LIST_LIMIT, NETWORK_TYPES, type NetworkType, type ListPage, type PipeFilters, type PipeInput, type PipeListQuery } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { pipeCounts, pipes } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { pipeIdContains, pipeInsideArea } from './queries.ts';
import { projectArea } from '../projects/service.ts';
import { bumpPipesVersion } from '../tiles/service.ts';
import { EXPORT_PAGE, keysetPages } from '../exports/features.ts';
import { containsText } from '../../db/like.ts';
import { pipeRow } from './rows.ts';
import { RUN_IDS, runsHolding, runsOfKeyword } from './idRuns.ts';

const columns = {
  id: pipes.id,
  pipeId: pipes.pipeId,
  networkType: pipes.networkType,
  material: pipes.material,
  diameterMm: pipes.diameterMm,
  pressureClass: pipes.pressureClass,
  installYear: pipes.installYear,
  depthM: pipes.depthM,
  owner: pipes.owner,
  lengthM: pipes.lengthM,
  geometry: pipes.geometry,
  updatedAt: pipes.updatedAt,
};

/** Filters the pipe table understands, all scoped to one enterprise. */
async function conditions(db: Db, enterpriseId: number, q: PipeFilters) {
  const where: SQL[] = [eq(pipes.enterpriseId, enterpriseId)];
  if (q.keyword) where.push(pipeIdContains(q.keyword));
  if (q.networkType) where.push(eq(pipes.networkType, q.networkType));
  if (q.material) where.push(eq(pipes.material, q.material));
  if (q.diameterMin !== undefined) where.push(gte(pipes.diameterMm, q.diameterMin));
  if (q.diameterMax !== undefined) where.push(lte(pipes.diameterMm, q.diameterMax));
  if (q.installYearMin !== undefined) where.push(gte(pipes.installYear, q.installYearMin));
  if (q.installYearMax !== undefined) where.push(lte(pipes.installYear, q.installYearMax));
  if (q.projectId !== undefined) where.push(pipeInsideArea(await projectArea(db, enterpriseId, q.projectId)));
  return and(...where)!;
}

type PipeListRow = Awaited<ReturnType<typeof selectPipes>>[number];

const selectPipes = (db: Db, where: SQL | undefined, order: 'asc' | 'desc', limit: number, offset = 0) =>
  db
    .select(columns)
    .from(pipes)
    .where(where)
    .orderBy(order === 'asc' ? asc(pipes.pipeId) : desc(pipes.pipeId))
    .limit(limit)
    .offset(offset);

/** How many pipes the enterprise has (of a network type, of a material), from the kept counts: one small read at any size. */
export async function keptPipeCount(db: Db, enterpriseId: number, only: { networkType?: string; material?: string } = {}): Promise<number> {
  const groups: SQL[] = [eq(pipeCounts.enterpriseId, enterpriseId)];
  if (only.networkType) groups.push(eq(pipeCounts.networkType, only.networkType));
  if (only.material) groups.push(eq(pipeCounts.material, only.material));
  const [{ total }] = await db.select({ total: sql<number>`coalesce(sum(${pipeCounts.pipes}), 0)::float8` }).from(pipeCounts).where(and(...groups));
  return Number(total);
}

/**
 * A keyword with no other filter: its matches are found by walking the pipe id index in order
 * (that index alone, no row read, only the runs of ids that hold the keyword's characters), which
 * stops as soon as it has enough when matches are common ("1", "G-", "W-00"), and by the keyword's
 * index (grams up to two characters, trigrams from three) when they are rare ("ab", "滨江",
 * "0012345"). An index's bitmap alone would read and sort every match to find the first page in
 * pipe id order: 90-600 ms for a keyword in a third of a million pipes.
 */
/** No filter a maintained count or the id walk cannot answer (a range, a project's area). */
const noRangeOrArea = (q: PipeListQuery) =>
  q.diameterMin === undefined && q.diameterMax === undefined && q.installYearMin === undefined && q.installYearMax === undefined && q.projectId === undefined;

const onlyKeyword = (q: PipeListQuery) => q.keyword !== undefined && !q.networkType && !q.material && noRangeOrArea(q);

/** Pipe ids the count's walk reads about at most (~10 ms of the id index), as runs of RUN_IDS, before the keyword's index counts. */
const WALK_ROWS = 50_000;

/** How many pipes the database expects to hold `keyword` (its statistics; no row read). */
async function expectedMatches(db: Db, enterpriseId: number, keyword: string): Promise<number> {
  const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(db, sql`explain (format json) select 1 from ${pipes} where ${eq(pipes.enterpriseId, enterpriseId)} and ${pipeIdContains(keyword)}`);
  const plan = typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'];
  return Number((plan as { Plan: { 'Plan Rows': number } }[])[0].Plan['Plan Rows']);
}

/** A walk's limit when it goes as far as it must (a limit still, see heldRunIds). */
const WHOLE_NETWORK = Number.MAX_SAFE_INTEGER;

/**
 * FROM item: the pipe ids within `bound` of only the runs that may hold the keyword's characters
 * (idRuns.ts), run by run in `order` (`held.first_pipe_id`, then `ids.pipe_id`): "W-" past a
 * million "D-" and "G-" ids starts where the "W-" ids start. The id index alone, no row read; the
 * limit inside keeps the keyword's condition out of the walk, so the database cannot swap it for
 * an index that would read every match first.
 */
const heldRunIds = (enterpriseId: number, keyword: string, bound: SQL | undefined, order: 'asc' | 'desc', firstRuns?: number) => {
  const inRun = and(eq(pipes.enterpriseId, enterpriseId), bound, sql`${pipes.pipeId} >= held.first_pipe_id`, sql`${pipes.pipeId} <= held.upper_pipe_id`, sql`(held.next_pipe_id is null or ${pipes.pipeId} < held.next_pipe_id)`);
  return sql`${runsHolding(enterpriseId, keyword, order, firstRuns)}
    cross join lateral (select ${pipes.pipeId} from ${pipes} where ${inRun} order by ${pipes.pipeId} ${sql.raw(order)} limit ${WHOLE_NETWORK}) ids`;
};

/**
 * `limit` pipe ids past `offset` holding the keyword, in `order` within `bound`, from the walk
 * through the runs that may hold it; each run's matches in id order (an incremental sort: the
 * database stops at the page's last run).
 */
async function walkPipeIds(db: Db, enterpriseId: number, keyword: string, bound: SQL | undefined, order: 'asc' | 'desc', limit: number, offset: number) {
  const found = await queryRows<{ pipeId: string }>(
    db,
    sql`select ids.pipe_id as "pipeId" from ${heldRunIds(enterpriseId, keyword, bound, order)}
      where ${containsText(sql`ids.pipe_id`, keyword)}
      order by held.first_pipe_id ${sql.raw(order)}, ids.pipe_id ${sql.raw(order)} limit ${limit} offset ${offset}`,
  );
  return found.map((row) => row.pipeId);
}

/**
 * How many ids of the first `runs` runs that may hold the keyword hold it, counted to
 * EXACT_LIST_LIMIT + 1. Runs, not ids, bound the walk: a limit on ids read in order would have
 * the database sort every id of the runs first (a quarter of a million for "js").
 */
async function walkedCount(db: Db, enterpriseId: number, keyword: string, runs: number) {
  const [{ count }] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as "count" from (
      select 1 from ${heldRunIds(enterpriseId, keyword, undefined, 'asc', runs)} where ${containsText(sql`ids.pipe_id`, keyword)} limit ${EXACT_LIST_LIMIT + 1}) matching`,
  );
  return count;
}

/** The same from the keyword's index: every match read and sorted (for keywords with few). */
async function sortedPipeIds(db: Db, where: SQL, bound: SQL | undefined, order: 'asc' | 'desc', limit: number, offset: number) {
  // Sorted by an expression, so the database cannot walk the id index testing each pipe's grams.
  const byId = sql`(${pipes.pipeId} || '')`;
  const found = await db.select({ pipeId: pipes.pipeId }).from(pipes).where(and(where, bound)).orderBy(order === 'asc' ? asc(byId) : desc(byId)).limit(limit).offset(offset);
  return found.map((row) => row.pipeId);
}

/**
 * How many pipes match: from the maintained counts when only the network type and material
 * narrow the list (exact at any size), otherwise counted up to EXACT_LIST_LIMIT and "more" past it.
 * For a page by number (`numbered`) of a keyword alone, the page's ids may come with the count.
 */
async function countPipes(db: Db, enterpriseId: number, q: PipeListQuery, where: SQL, walkRows: number, numbered?: { limit: number; offset: number }): Promise<{ total: number; totalExact: boolean; ids?: string[] }> {
  if (!q.keyword && noRangeOrArea(q)) return { total: await keptPipeCount(db, enterpriseId, q), totalExact: true };
  const capped = (count: number) => (count > EXACT_LIST_LIMIT ? { total: EXACT_LIST_LIMIT, totalExact: false } : { total: count, totalExact: true });
  if (!onlyKeyword(q)) return capped(await countUpToCap(db, where));
  // A keyword the statistics expect in a fifth of the ids of the runs that may hold it or more
  // passes the cap within the first of those runs (where it does not, its index counts it after
  // all); when they are all walked, the walk's count is exact.
  const { held, runs } = await runsOfKeyword(db, enterpriseId, q.keyword!);
  const walked = Math.max(1, Math.ceil(walkRows / RUN_IDS));
  const walkCounts = held <= walked || (await expectedMatches(db, enterpriseId, q.keyword!)) * walkRows * runs > (EXACT_LIST_LIMIT + 1) * (await keptPipeCount(db, enterpriseId)) * held;
  if (walkCounts) {
    const count = await walkedCount(db, enterpriseId, q.keyword!, walked);
    if (count > EXACT_LIST_LIMIT || held <= walked) return capped(count);
  }
  return db.transaction(async (tx) => {
    // Counted from the keyword's index: the database would rather walk the id index testing
    // every id (it reads no row), which for a keyword rare past the walk reads all of them
    // (40-350 ms at a million; the index's matches, once read, 5-12 ms).
    await tx.execute(sql`set local enable_indexonlyscan = off`);
    if (numbered) {
      // The matches the count reads are all of them when they are no more than the cap: the
      // page is sorted from them in the same statement instead of reading them again.
      const found = await queryRows<{ pipeId: string; count: number }>(
        tx as unknown as Db,
        sql`select pipe_id as "pipeId", count(*) over ()::int as "count" from (select ${pipes.pipeId} from ${pipes} where ${where} limit ${EXACT_LIST_LIMIT + 1}) matching
          order by pipe_id limit ${numbered.limit} offset ${numbered.offset}`,
      );
      if (found.length) return { ...capped(found[0].count), ids: found[0].count > EXACT_LIST_LIMIT ? undefined : found.map((row) => row.pipeId) };
    }
    return capped(await countUpToCap(tx as unknown as Db, where));
  });
}

/** How many pipes match `where`, up to EXACT_LIST_LIMIT + 1. */
async function countUpToCap(db: Db, where: SQL) {
  const [{ count }] = await queryRows<{ count: number }>(db, sql`select count(*)::int as "count" from (select 1 from ${pipes} where ${where} limit ${EXACT_LIST_LIMIT + 1}) matching`);
  return count;
}

/**
 * A page of the enterprise's pipes matching the filters, in pipe id order, with the total. Pages
 * within the first EXACT_LIST_LIMIT rows come by number; any other by key (the page after or
 * before a pipe id, or the last one), read off an index whatever the network's size. `walkRows`
 * is how far a keyword's count may walk (smaller in tests, to reach what comes after it).
 */
export async function listPipes(db: Db, enterpriseId: number, q: PipeListQuery, walkRows = WALK_ROWS): Promise<ListPage<PipeListRow>> {
  const where = await conditions(db, enterpriseId, q);
  const size = q.pageSize;
  // A page by number (not by key nor the last) may come with the count (countPipes).
  const numbered = q.after === undefined && q.before === undefined && !q.last ? { limit: size + 1, offset: (q.page - 1) * size } : undefined;
  const { total, totalExact, ids: counted } = await countPipes(db, enterpriseId, q, where, walkRows, numbered);
  const lastPage = totalExact ? Math.max(1, Math.ceil(total / size)) : null;
  const empty = { list: [], total, totalExact, page: 1, pageSize: size, hasPrev: false, hasNext: false };
  if (total === 0) return empty;
  /** `limit` rows past `offset` within `bound`, in `order` (their ids `known` when the count found them). */
  const read = async (bound: SQL | undefined, order: 'asc' | 'desc', limit: number, offset = 0, known?: string[]): Promise<PipeListRow[]> => {
    if (!onlyKeyword(q)) return selectPipes(db, and(where, bound), order, limit, offset);
    // At most EXACT_LIST_LIMIT matches come sorted from the keyword's index; more by walking
    // until the page is full (at once where they are common; every "W-" after the "D-" and
    // "G-" pipes takes the walk through those first).
    const ids =
      known ?? (totalExact ? await sortedPipeIds(db, where, bound, order, limit, offset) : await walkPipeIds(db, enterpriseId, q.keyword!, bound, order, limit, offset));
    if (ids.length === 0) return [];
    return selectPipes(db, and(eq(pipes.enterpriseId, enterpriseId), inArray(pipes.pipeId, ids)), order, ids.length);
  };
  // One row more than the page says whether there is another page that way.
  if (q.after !== undefined) {
    const rows = await read(gt(pipes.pipeId, q.after), 'asc', size + 1);
    return { ...empty, list: rows.slice(0, size), page: q.page, hasPrev: true, hasNext: rows.length > size };
  }
  if (q.before !== undefined) {
    const rows = await read(lt(pipes.pipeId, q.before), 'desc', size + 1);
    return { ...empty, list: rows.slice(0, size).reverse(), page: q.page, hasPrev: rows.length > size, hasNext: true };
  }
  if (q.last) {
    // When the total is known the last page holds what page number `lastPage` would, so pages
    // before it line up with the numbered ones.
    const count = lastPage === null ? size : total - (lastPage - 1) * size;
    const rows = await read(undefined, 'desc', count + 1);
    return { ...empty, list: rows.slice(0, count).reverse(), page: lastPage, hasPrev: rows.length > count, hasNext: false };
  }
  const rows = await read(undefined, 'asc', numbered!.limit, numbered!.offset, counted);
  return { ...empty, list: rows.slice(0, size), page: q.page, hasPrev: q.page > 1, hasNext: rows.length > size };
}

/** The (filtered) network in pages, by pipe id, for an export (the filters are checked before any page is read). */
export async function pipePages(db: Db, enterpriseId: number, q: PipeFilters, size = EXPORT_PAGE) {
  const where = await conditions(db, enterpriseId, q);
  return keysetPages(
    (after: { pipeId: string; id: number } | null) =>
      db
        .select(columns)
        .from(pipes)
        .where(after ? and(where, sql`(${pipes.pipeId}, ${pipes.id}) > (${after.pipeId}, ${after.id})`) : where)
        .orderBy(asc(pipes.pipeId), asc(pipes.id))
        .limit(size),
    (row) => ({ pipeId: row.pipeId, id: row.id }),
    size,
  );
}
export type PipeRow = Awaited<ReturnType<typeof getPipe>>;

/** Values for the filters: the materials and the networks the enterprise has pipes of (from the maintained counts). */
export async function pipeFacets(db: Db, enterpriseId: number): Promise<{ materials: string[]; networks: NetworkType[] }> {
  const rows = await db
    .select({ networkType: pipeCounts.networkType, material: pipeCounts.material })
    .from(pipeCounts)
    .where(and(eq(pipeCounts.enterpriseId, enterpriseId), gt(pipeCounts.pipes, 0)))
    .orderBy(asc(pipeCounts.material));
  const materials = [...new Set(rows.map((r) => r.material).filter((m) => m !== ''))];
  const held = new Set(rows.map((r) => r.networkType));
  return { materials, networks: NETWORK_TYPES.filter((n) => held.has(n)) };
}

export async function getPipe(db: Db, enterpriseId: number, id: number) {
  const [row] = await db.select(columns).from(pipes).where(and(eq(pipes.id, id), eq(pipes.enterpriseId, enterpriseId)));
  if (!row) throw notFound('notFound.pipe');
  return row;
}


function rethrowConflict(error: unknown): never {
  if (uniqueViolation(error)) throw conflict('conflict.pipeId');
  throw error;
}

export async function createPipe(db: Db, enterpriseId: number, input: PipeInput) {
  try {
    const [row] = await db.insert(pipes).values({ ...pipeRow(input, input.geometry), enterpriseId }).returning({ id: pipes.id });
    await bumpPipesVersion(db, enterpriseId);
    return getPipe(db, enterpriseId, row.id);
  } catch (error) {
    rethrowConflict(error);
  }
}

export async function updatePipe(db: Db, enterpriseId: number, id: number, input: PipeInput) {
  try {
    const updated = await db
      .update(pipes)
      .set({ ...pipeRow(input, input.geometry), updatedAt: new Date() })
      .where(and(eq(pipes.id, id), eq(pipes.enterpriseId, enterpriseId)))
      .returning({ id: pipes.id });
    if (updated.length === 0) throw notFound('notFound.pipe');
  } catch (error) {
    rethrowConflict(error);
  }
  await bumpPipesVersion(db, enterpriseId);
  return getPipe(db, enterpriseId, id);
}

export async function deletePipe(db: Db, enterpriseId: number, id: number) {
  const deleted = await db.delete(pipes).where(and(eq(pipes.id, id), eq(pipes.enterpriseId, enterpriseId))).returning({ id: pipes.id });
  if (deleted.length === 0) throw notFound('notFound.pipe');
  await bumpPipesVersion(db, enterpriseId);
}
