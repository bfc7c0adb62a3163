/**
 * Composite pipe risk over the whole network (part of npm run bench; alone: npm run bench:risk):
 * the demo at 1,000,000 segments (with its leaks, sites, risk-prone areas, warnings), every segment
 * in one enterprise, assessed by the same statement (assessNetwork) on embedded PGlite (the goal:
 * under a minute) and on the PostgreSQL server as the peer, in turns, twice each (the second run
 * also compares with the first and keeps the changes). The levels both find are compared.
 * BENCH_RISK_PIPES changes the size.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { DEFAULT_RISK_WEIGHTS } from '@console/contract';
import { seedDemo } from '../apps/server/src/demo/seed.ts';
import { assessNetwork, type AssessmentFigures } from '../apps/server/src/modules/pipeRisk/assess.ts';
import { freshDatabase, seconds, withPeakMemory } from './support.ts';

const PIPES = Number(process.env.BENCH_RISK_PIPES ?? 1_000_000);

export async function benchPipeRisk(say: (line: string) => void) {
  const dir = await mkdtemp(join(tmpdir(), 'risk-bench-'));
  const [load1, load5] = loadavg();
  say(`\nComposite pipe risk over ${PIPES.toLocaleString('en')} segments, one statement per assessment (machine load ${load1.toFixed(2)} / ${load5.toFixed(2)})`);
  const kinds = ['pglite', 'postgres'] as const;
  const databases = await Promise.all(kinds.map((kind) => freshDatabase(kind, dir)));
  try {
    const enterprise: number[] = [];
    for (const [i, { database }] of databases.entries()) {
      const db = database.db;
      await seedDemo(db, { cityPipes: PIPES, settlementPoints: 0, assessRisk: false });
      const [{ id }] = (await db.execute(sql`select id from enterprises order by id limit 1`)).rows as { id: number }[];
      // In batches: one update of a million rows runs PGlite out of memory (its foreign-key checks).
      const [{ max }] = (await db.execute(sql`select max(id)::int as max from pipes`)).rows as { max: number }[];
      for (let from = 0; from <= max; from += 100_000) await db.execute(sql`update pipes set enterprise_id = ${id} where id > ${from} and id <= ${from + 100_000} and enterprise_id <> ${id}`);
      await db.execute(sql`vacuum analyze`);
      enterprise[i] = id;
    }
    const times: Record<(typeof kinds)[number], number[]> = { pglite: [], postgres: [] };
    const figures: Partial<Record<(typeof kinds)[number], AssessmentFigures>> = {};
    let peak = 0;
    // Turns: PGlite, PostgreSQL, PostgreSQL, PGlite.
    for (const i of [0, 1, 1, 0]) {
      const run = await withPeakMemory(() => assessNetwork(databases[i].database.db, enterprise[i], DEFAULT_RISK_WEIGHTS));
      times[kinds[i]].push(run.ms);
      figures[kinds[i]] = run.value;
      if (i === 0) peak = Math.max(peak, run.peakRss);
    }
    const best = (list: number[]) => Math.min(...list);
    const ours = figures.pglite!, peer = figures.postgres!;
    say(`  PGlite ${seconds(best(times.pglite))} (${times.pglite.map(seconds).join(', ')}; goal under 60 s; peak RSS ${Math.round(peak / 1024 / 1024)} MB) | PostgreSQL ${seconds(best(times.postgres))} (${times.postgres.map(seconds).join(', ')}) | ratio PGlite/PostgreSQL ${(best(times.pglite) / best(times.postgres)).toFixed(2)}`);
    say(`  levels I/II/III/IV: PGlite ${Object.values(ours.levels).join('/')}, PostgreSQL ${Object.values(peer.levels).join('/')} (${JSON.stringify(ours.levels) === JSON.stringify(peer.levels) ? 'the same' : 'DIFFERENT'}); masked ${ours.masked}; segments ${ours.segments.toLocaleString('en')}`);
  } finally {
    for (const d of databases) await d.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPipeRisk((line) => console.log(line));
