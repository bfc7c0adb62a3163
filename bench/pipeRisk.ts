/**
 * Composite pipe risk over the whole network (part of npm run bench; alone: npm run bench:risk):
 * the demo at 1,000,000 segments (with its leaks, sites, risk-prone areas, warnings), every segment
 * in one enterprise, with 10,000 construction sites and 1,000 risk-prone areas spread over the city
 * and measured against the pipes as the console measures them (their whole pipe sets kept as rows),
 * assessed by the same code (assessNetwork, in steps) on embedded PGlite (the goal: under a minute) and
 * on the PostgreSQL server as the peer, in turns, twice each (the second run also compares with
 * the first and keeps the changes). The levels both find are compared. BENCH_RISK_PIPES,
 * BENCH_RISK_SITES and BENCH_RISK_AREAS change the sizes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { DEFAULT_RISK_WEIGHTS } from '@console/contract';
import { seedDemo } from '../apps/server/src/demo/seed.ts';
import { assessNetwork, type AssessmentFigures } from '../apps/server/src/modules/pipeRisk/assess.ts';
import { queryRows, type Db } from '../apps/server/src/db/client.ts';
import { constructionSites, riskAreas } from '../apps/server/src/db/schema.ts';
import { bboxColumns, bboxOf, circlePolygon } from '../apps/server/src/geo/geometry.ts';
import { remeasureSites } from '../apps/server/src/modules/construction/measure.ts';
import { remeasureAreas } from '../apps/server/src/modules/riskAreas/service.ts';
import { freshDatabase, seconds, withPeakMemory } from './support.ts';

const PIPES = Number(process.env.BENCH_RISK_PIPES ?? 1_000_000);
const SITES = Number(process.env.BENCH_RISK_SITES ?? 10_000);
const AREAS = Number(process.env.BENCH_RISK_AREAS ?? 1_000);
const BUILD = ['metro', 'road', 'municipalRoad', 'stormSewer', 'building', 'other'] as const;
const STATES = ['review', 'threat', 'briefed', 'guarded', 'closed'] as const;
const KINDS = ['waterlogging', 'void', 'collapse', 'geoHazard', 'subsidence'] as const;
const LEVELS = ['I', 'II', 'III', 'IV'] as const;

/**
 * Sites (circles of 20-80 m) and areas (squares of 100-400 m) at the same places on both
 * databases (a fixed sequence), measured by the console's own code: their figures and pipe sets.
 */
async function placeSitesAndAreas(db: Db, enterpriseId: number) {
  const [box] = await queryRows<{ x0: number; y0: number; x1: number; y1: number }>(db, sql`select min(minx)::float8 as x0, min(miny)::float8 as y0, max(maxx)::float8 as x1, max(maxy)::float8 as y1 from pipes where enterprise_id = ${enterpriseId}`);
  let seed = 42;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const at = () => [box.x0 + random() * (box.x1 - box.x0), box.y0 + random() * (box.y1 - box.y0)];
  for (let start = 0; start < SITES; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, SITES - start) }, (_, i) => {
      const center = at();
      const radiusM = 20 + random() * 60;
      const geometry = circlePolygon(center, radiusM);
      return {
        enterpriseId, siteNo: `B-${start + i + 1}`, name: `工地 ${start + i + 1}`, buildType: BUILD[Math.floor(random() * BUILD.length)], geometry, centerLon: center[0], centerLat: center[1], radiusM,
        ...bboxColumns(bboxOf(geometry)), source: 'report' as const, buildState: 'inProgress' as const, status: STATES[Math.floor(random() * STATES.length)],
      };
    });
    await db.insert(constructionSites).values(rows);
  }
  for (let start = 0; start < AREAS; start += 500) {
    const rows = Array.from({ length: Math.min(500, AREAS - start) }, (_, i) => {
      const [x, y] = at();
      const half = (50 + random() * 150) / 111_000;
      const geometry = { type: 'Polygon' as const, coordinates: [[[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half], [x - half, y - half]]] };
      return { enterpriseId, name: `易发区 ${start + i + 1}`, kind: KINDS[Math.floor(random() * KINDS.length)], level: LEVELS[Math.floor(random() * LEVELS.length)], geometry, ...bboxColumns(bboxOf(geometry)), bufferM: 50, source: 'survey' as const };
    });
    await db.insert(riskAreas).values(rows);
  }
  await remeasureSites(db, enterpriseId);
  await remeasureAreas(db, enterpriseId);
  const [counts] = await queryRows<{ site_pipes: number; area_pipes: number }>(db, sql`select (select count(*) from site_pipes where enterprise_id = ${enterpriseId})::int as site_pipes, (select count(*) from area_pipes where enterprise_id = ${enterpriseId})::int as area_pipes`);
  return counts;
}

export async function benchPipeRisk(say: (line: string) => void) {
  const dir = await mkdtemp(join(tmpdir(), 'risk-bench-'));
  const [load1, load5] = loadavg();
  say(`\nComposite pipe risk over ${PIPES.toLocaleString('en')} segments, assessed in steps (machine load ${load1.toFixed(2)} / ${load5.toFixed(2)})`);
  const kinds = ['pglite', 'postgres'] as const;
  const databases = await Promise.all(kinds.map((kind) => freshDatabase(kind, dir)));
  try {
    const enterprise: number[] = [];
    for (const [i, { database }] of databases.entries()) {
      const db = database.db;
      await seedDemo(db, { cityPipes: PIPES, settlementPoints: 0, assessRisk: false });
      const [{ id }] = await queryRows<{ id: number }>(db, sql`select id from enterprises order by id limit 1`);
      // In batches: one update of a million rows runs PGlite out of memory (its foreign-key checks).
      const [{ max }] = await queryRows<{ max: number }>(db, sql`select max(id)::int as max from pipes`);
      for (let from = 0; from <= max; from += 100_000) await db.execute(sql`update pipes set enterprise_id = ${id} where id > ${from} and id <= ${from + 100_000} and enterprise_id <> ${id}`);
      // The network's statistics as an import leaves them (it analyses the loaded network), so the
      // sites' pipe searches plan on the box index as they do in use.
      await db.execute(sql`analyze pipes`);
      const placed = Date.now();
      const sets = await placeSitesAndAreas(db, id);
      if (i === 0) say(`  ${SITES.toLocaleString('en')} sites and ${AREAS.toLocaleString('en')} areas measured in ${seconds(Date.now() - placed)} on PGlite: ${Number(sets.site_pipes).toLocaleString('en')} site x pipe and ${Number(sets.area_pipes).toLocaleString('en')} area x pipe rows`);
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
