import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { pipeListQuery } from '@console/contract';
import { queryRows } from '../../db/client.ts';
import { likePattern } from '../../db/like.ts';
import { useDemoServer } from '../../testing/app.ts';
import { nonEmpty } from '../../testing/lists.ts';
import { isGramKeyword, pipeIdContains } from './queries.ts';
import { listPipes } from './service.ts';
import { recutRuns } from './idRuns.ts';

const demo = useDemoServer();

/** A small deterministic random source, so a failure names keywords that fail again. */
function randomSource(seed: number) {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return { next, pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] };
}

/** Pipe ids as utilities write them: road names, codes, mixed case, full-width and odd characters. */
const OWN_IDS = [
  (n: number) => `滨江路-DN${100 * (1 + (n % 12))}-${String(n).padStart(4, '0')}`,
  (n: number) => `江南大道${n}号`,
  (n: number) => `GX-供水-${n}`,
  (n: number) => `Wsj${n}ab`,
  (n: number) => `HUANGPU RD ${n}#`,
  (n: number) => `w_${n}%`,
  (n: number) => `back\\slash-${n}`,
  (n: number) => `Ⅱ级管-${n}`,
  (n: number) => `ＡＢ路-${n}`,
  (n: number) => `Ärger-ß-${n}`,
];

describe('keyword search over pipe ids', () => {
  let enterpriseId: number;
  beforeAll(async () => {
    enterpriseId = demo.ids.gas;
    // The gas network's own ids (G-0000001 ...) and a thousand written the ways utilities write them.
    await demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select p.enterprise_id, own.pipe_id, p.network_type, p.material, p.geometry, p.tile_line, p.length_m, p.minx, p.miny, p.maxx, p.maxy
      from (select * from pipes where enterprise_id = ${enterpriseId} order by pipe_id limit 1) p,
           jsonb_array_elements_text(${JSON.stringify(Array.from({ length: 1000 }, (_, n) => OWN_IDS[n % OWN_IDS.length](n)))}::jsonb) as own(pipe_id)`);
    // As an import leaves them: the database knows how common each gram is.
    await demo.database.db.execute(sql`analyze pipes`);
  });

  /**
   * Row ids matching each condition in the gas network, in one transaction whose database is told
   * to answer from its indexes or without them.
   */
  const idsWhere = async (conditions: SQL[], withIndexes: boolean) =>
    demo.database.db.transaction(async (tx) => {
      const settings = withIndexes ? ['enable_seqscan'] : ['enable_indexscan', 'enable_bitmapscan', 'enable_indexonlyscan'];
      for (const setting of settings) await tx.execute(sql.raw(`set local ${setting} = off`));
      const found: string[] = [];
      for (const condition of conditions) {
        const rows = await queryRows<{ id: number }>(tx as never, sql`select id from pipes where enterprise_id = ${enterpriseId} and ${condition} order by id`);
        found.push(rows.map((row) => row.id).join());
      }
      return found;
    });

  it('finds through its indexes exactly the rows a plain ILIKE finds, for 10,000 random keywords of 1-4 characters', async () => {
    const ids = (await queryRows<{ pipeId: string }>(demo.database.db, sql`select pipe_id as "pipeId" from pipes where enterprise_id = ${enterpriseId}`)).map((row) => row.pipeId);
    const alphabet = [...new Set([...ids.join(''), ...'xyzQ漏管ßÄäａ'])];
    const random = randomSource(48);
    const flipCase = (text: string) => [...text].map((c) => (random.next() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
    const keywords = Array.from({ length: 10_000 }, () => {
      const length = 1 + Math.floor(random.next() * 4);
      if (random.next() < 0.6) {
        // A piece of a real id, in any case: most of these match.
        const chars = [...random.pick(ids)];
        const start = Math.floor(random.next() * Math.max(1, chars.length - length));
        return flipCase(chars.slice(start, start + length).join(''));
      }
      return Array.from({ length }, () => random.pick(alphabet)).join('');
    }).filter((keyword) => keyword.trim() === keyword && keyword !== '');
    expect(keywords.length).toBeGreaterThan(9_000);
    expect(keywords.filter(isGramKeyword).length).toBeGreaterThan(4_000);

    const byIndex = await idsWhere(keywords.map(pipeIdContains), true);
    const byIlike = await idsWhere(keywords.map((keyword) => sql`pipe_id ilike ${likePattern(keyword)}`), false);
    const differing = keywords.filter((_, i) => byIndex[i] !== byIlike[i]).map((keyword) => ({ keyword, byIndex: byIndex[keywords.indexOf(keyword)], byIlike: byIlike[keywords.indexOf(keyword)] }));
    expect(differing).toEqual([]);
    const matched = byIlike.filter((ids) => ids !== '').length;
    // Most keywords find something, some nothing: both kinds were compared.
    expect(matched).toBeGreaterThan(keywords.length / 2);
    expect(matched).toBeLessThan(keywords.length);
  }, 300_000);

  it('answers a one- or two-character keyword from the gram index', async () => {
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      demo.database.db,
      sql`explain select id from pipes where enterprise_id = ${enterpriseId} and ${pipeIdContains('滨江')}`,
    );
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan on \S*grams/);
  });

  /** An id of 100 different characters (an address written out in full, as some registers do). */
  const MANY_CHARS = Array.from({ length: 100 }, (_, i) => String.fromCodePoint(0x4e00 + i * 37)).join('');

  /** The enterprise's pipes whose id holds a character its run (idRuns.ts) does not list. */
  const idsOutsideTheirRun = async () =>
    (
      await queryRows<{ pipeId: string }>(
        demo.database.db,
        sql`select p.pipe_id as "pipeId" from pipes p where p.enterprise_id = ${enterpriseId} and not exists (
              select 1 from pipe_id_runs r where r.enterprise_id = p.enterprise_id and r.chars @> string_to_array(lower(p.pipe_id), null)
                and r.first_pipe_id = (select max(x.first_pipe_id) from pipe_id_runs x where x.enterprise_id = p.enterprise_id and x.first_pipe_id <= p.pipe_id))
            order by 1`,
      )
    ).map((row) => row.pipeId);

  it('keeps the id runs a superset of what their ids hold, as loaded, cut afresh, and through inserts and renames', async () => {
    expect(await idsOutsideTheirRun()).toEqual([]);
    await recutRuns(demo.database.db, enterpriseId, 16);
    expect(await idsOutsideTheirRun()).toEqual([]);
    // Ids before every other, among them and after them, with characters no id had; and a rename.
    await demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select p.enterprise_id, own.pipe_id, p.network_type, p.material, p.geometry, p.tile_line, p.length_m, p.minx, p.miny, p.maxx, p.maxy
      from (select * from pipes where enterprise_id = ${enterpriseId} order by pipe_id limit 1) p,
           unnest(array['!Ж-1', 'G-0000001Ω', 'ЯЯ-ψ', 'ＺＺ末', ${MANY_CHARS}]) as own(pipe_id)`);
    await demo.database.db.execute(sql`update pipes set pipe_id = 'G-ЁЁ-9' where enterprise_id = ${enterpriseId} and pipe_id = (select max(pipe_id) from pipes where enterprise_id = ${enterpriseId} and pipe_id like 'G-%' and pipe_id < 'G-0000001Ω')`);
    try {
      expect(await idsOutsideTheirRun()).toEqual([]);
      // Cut afresh, each run's characters are exactly those of its ids, also for the run whose id
      // has more characters than the cut takes out one by one.
      await recutRuns(demo.database.db, enterpriseId, 16);
      const runChars = async (source: SQL) => queryRows<{ first: string; chars: string }>(demo.database.db, sql`select first_pipe_id as first, array_to_string(chars, '') as chars from ${source} order by 1`);
      const exact = await runChars(sql`(
        select case when run = 0 then '' else min(pipe_id) end as first_pipe_id, array_agg(distinct c order by c) as chars
        from (select pipe_id, (row_number() over (order by pipe_id) - 1) / 16 as run from pipes where enterprise_id = ${enterpriseId}) numbered
        cross join lateral unnest(string_to_array(lower(pipe_id), null)) c group by run) exact`);
      expect(exact.some((run) => [...run.chars].length > 64)).toBe(true);
      expect(await runChars(sql`(select * from pipe_id_runs where enterprise_id = ${enterpriseId}) kept`)).toEqual(exact);
      expect(await idsOutsideTheirRun()).toEqual([]);
      // The check itself: a run that forgets a character is caught.
      await demo.database.db.execute(sql`update pipe_id_runs set chars = array_remove(chars, 'ж') where enterprise_id = ${enterpriseId}`);
      expect(await idsOutsideTheirRun()).toEqual(['!Ж-1']);
    } finally {
      await demo.database.db.execute(sql`delete from pipes where enterprise_id = ${enterpriseId} and pipe_id in ('!Ж-1', 'G-0000001Ω', 'ЯЯ-ψ', 'ＺＺ末', ${MANY_CHARS})`);
      await recutRuns(demo.database.db, enterpriseId);
    }
  });

  it('pages a keyword in pipe id order whichever way its matches are found', async () => {
    // More than 10,000 ids holding "zq-00", all after every other id, so a short walk never reaches them.
    await demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select p.enterprise_id, 'ZQ-' || lpad(n::text, 6, '0'), p.network_type, p.material, p.geometry, p.tile_line, p.length_m, p.minx, p.miny, p.maxx, p.maxy
      from (select * from pipes where enterprise_id = ${enterpriseId} order by pipe_id limit 1) p, generate_series(1, 10050) n`);
    try {
      // The id runs as the triggers left them (the new ids added to the last run), then cut afresh
      // every 64 ids (as an import cuts every 2,000): the walk skips runs without the keyword's characters.
      for (const runIds of [null, 64]) {
        if (runIds) await recutRuns(demo.database.db, enterpriseId, runIds);
        for (const keyword of ['zq', 'Q-', '滨江', 'ab', '路', '#', '%', '_', 'ß', '1', 'G-', 'xx', 'zq-00', '滨江路', 'Wsj1', 'rd 1', 'no such pipe']) {
          const reference = (
            await queryRows<{ pipeId: string }>(demo.database.db, sql`select pipe_id as "pipeId" from pipes where enterprise_id = ${enterpriseId} and pipe_id ilike ${likePattern(keyword)} order by pipe_id`)
          ).map((row) => row.pipeId);
          // Walks of 1,000,000 (every id), 200 and 5 rows: the walk alone, then the gram index or a longer walk.
          for (const walkRows of [1_000_000, 200, 5]) {
            const list = async (query: Record<string, string>) => {
              const page = await listPipes(demo.database.db, enterpriseId, pipeListQuery.parse({ keyword, pageSize: '20', ...query }), walkRows);
              return { ...page, ids: page.list.map((pipe) => pipe.pipeId) };
            };
            const what = `${keyword} walking ${walkRows}, runs ${runIds ?? 'kept'}`;
            const first = await list({});
            expect(first.total, what).toBe(Math.min(reference.length, 10_000));
            expect(first.totalExact, what).toBe(reference.length <= 10_000);
            expect(first.ids, what).toEqual(reference.slice(0, 20));
            if (reference.length === 0) continue;
            expect((await list({ page: '3' })).ids, what).toEqual(reference.slice(40, 60));
            const middle = reference[Math.floor(reference.length / 2)];
            expect((await list({ after: middle })).ids, what).toEqual(reference.slice(reference.indexOf(middle) + 1).slice(0, 20));
            expect((await list({ before: middle })).ids, what).toEqual(reference.slice(0, reference.indexOf(middle)).slice(-20));
            const lastSize = reference.length <= 10_000 ? reference.length - (Math.ceil(reference.length / 20) - 1) * 20 : 20;
            expect((await list({ last: 'true' })).ids, what).toEqual(reference.slice(-lastSize));
          }
        }
      }
      expect(nonEmpty((await listPipes(demo.database.db, enterpriseId, pipeListQuery.parse({ keyword: 'zq' }), 5)).list)[0].pipeId).toBe('ZQ-000001');
    } finally {
      await demo.database.db.execute(sql`delete from pipes where enterprise_id = ${enterpriseId} and pipe_id like 'ZQ-%'`);
    }
  }, 300_000);
});
