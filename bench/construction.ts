/**
 * Construction-site measurement (part of npm run bench; alone: npm run bench:construction), on the
 * local PostgreSQL server, in process, one connection each:
 *  - ours: every site of the enterprise measured again (remeasureSites: read the sites, one indexed
 *    box query per 200 sites, distances in a local plane scaled by the ellipsoid's radii, the
 *    figures written back in one statement per 1,000 sites);
 *  - peer: PostGIS on geography with GiST indexes, grouped the same way (per site and network: the
 *    nearest distance within 100 m and the count within the 30 m corridor), written back the same way;
 *    ours and the peer alternate, twice each;
 *  - check: every site's nearest distance per network against ST_Distance (spheroid), within 1 cm
 *    under 100 m, and the corridor counts against ST_DWithin; differences are listed.
 * BENCH_CONSTRUCTION_PIPES and BENCH_CONSTRUCTION_SITES change the sizes (1,000,000 and 10,000).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import pg from 'pg';
import { DEFAULT_CRITICALITY, SITE_SEARCH_M, type NetworkType, type SiteMeasure } from '@console/contract';
import { generateCity, type DemoPipe } from '../apps/server/src/demo/city.ts';
import { seededRandom } from '../apps/server/src/demo/random.ts';
import { seedDemo } from '../apps/server/src/demo/seed.ts';
import { constructionSites } from '../apps/server/src/db/schema.ts';
import { metresPerDegree } from '../apps/server/src/geo/local.ts';
import { remeasureSites } from '../apps/server/src/modules/construction/measure.ts';
import { freshDatabase, postgisAvailable, seconds } from './support.ts';

const PIPES = Number(process.env.BENCH_CONSTRUCTION_PIPES ?? 1_000_000);
const SITES = Number(process.env.BENCH_CONSTRUCTION_SITES ?? 10_000);
const CORRIDOR_M = DEFAULT_CRITICALITY.corridorM;

/** Sites as a city has them: rectangles 5-60 m beside random pipes, from on the pipe to 80 m off. */
function generateSites(pipes: DemoPipe[], count: number) {
  const random = seededRandom(11);
  return Array.from({ length: count }, (_, i) => {
    const pipe = pipes[random.int(0, pipes.length - 1)];
    const line = pipe.geometry.type === 'LineString' ? pipe.geometry.coordinates : pipe.geometry.coordinates[0];
    const [x, y] = [(line[0][0] + line[line.length - 1][0]) / 2, (line[0][1] + line[line.length - 1][1]) / 2];
    const [mx, my] = metresPerDegree(y);
    const [dx, dy] = [random.between(-80, 80) / mx, random.between(-80, 80) / my];
    const [w, h] = [random.between(5, 60) / mx, random.between(5, 60) / my];
    const [x0, y0] = [x + dx, y + dy];
    const r = (v: number) => Math.round(v * 1e7) / 1e7;
    const ring = [[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h], [x0, y0]].map(([a, b]) => [r(a), r(b)]);
    return { siteNo: `B-${i}`, ring, box: [r(x0), r(y0), r(x0 + w), r(y0 + h)] };
  });
}

export async function benchConstruction(say: (line: string) => void) {
  const dir = await mkdtemp(join(tmpdir(), 'construction-bench-'));
  const server = await freshDatabase('postgres', dir);
  try {
    const [load1, load5] = (await import('node:os')).loadavg();
    say(`\nConstruction sites measured against the pipes, PostgreSQL, in process, one connection (machine load ${load1.toFixed(2)} / ${load5.toFixed(2)})`);
    if (!(await postgisAvailable(server.url!))) return say('  peer PostGIS: skipped (needs Debian postgresql-15-postgis-3)');
    const db = server.database.db;
    await seedDemo(db, { cityPipes: PIPES, settlementPoints: 0 });
    const city = generateCity({ pipes: PIPES });
    const [{ id: enterpriseId }] = await queryRows<{ id: number }>(db, sql`select id from enterprises order by id limit 1`);
    // Every segment in the one enterprise measured (the demo splits them between the water and gas utilities); no demo sites.
    await db.execute(sql`update pipes set enterprise_id = ${enterpriseId}`);
    await db.execute(sql`delete from construction_sites`);
    const sites = generateSites(city.pipes, SITES);
    for (let i = 0; i < sites.length; i += 1000) {
      await db.insert(constructionSites).values(
        sites.slice(i, i + 1000).map((s) => ({
          enterpriseId, siteNo: s.siteNo, name: s.siteNo, buildType: 'road' as const, geometry: { type: 'Polygon' as const, coordinates: [s.ring] },
          centerLon: (s.box[0] + s.box[2]) / 2, centerLat: (s.box[1] + s.box[3]) / 2, minx: s.box[0], miny: s.box[1], maxx: s.box[2], maxy: s.box[3], source: 'manual' as const, buildState: 'inProgress' as const,
        })),
      );
    }
    await db.execute(sql`vacuum analyze`);

    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    // The peer's tables: the same sites and pipes as geography, GiST-indexed.
    await client.query('create table bench_sites as select id, geography(ST_SetSRID(ST_GeomFromGeoJSON(geometry::text), 4326)) as geog, null::jsonb as figures from construction_sites');
    await client.query('create table bench_pipes as select id, network_type, geography(ST_SetSRID(ST_GeomFromGeoJSON(geometry::text), 4326)) as geog from pipes');
    await client.query('create index on bench_pipes using gist (geog)');
    await client.query('alter table bench_sites add primary key (id)');
    await client.query('analyze bench_sites; analyze bench_pipes');
    const pipeCount = Number((await client.query('select count(*) from bench_pipes')).rows[0].count);

    const ours = async () => {
      const started = performance.now();
      await remeasureSites(db, enterpriseId);
      return performance.now() - started;
    };
    const peerQuery = `select s.id, p.network_type, min(ST_Distance(s.geog, p.geog)) as nearest, count(*) filter (where ST_DWithin(s.geog, p.geog, ${CORRIDOR_M})) as corridor
      from bench_sites s join bench_pipes p on ST_DWithin(s.geog, p.geog, ${SITE_SEARCH_M}) group by s.id, p.network_type`;
    const peer = async () => {
      const started = performance.now();
      await client.query(`update bench_sites b set figures = f.figures from (select id, jsonb_object_agg(network_type, jsonb_build_array(nearest, corridor)) as figures from (${peerQuery}) g group by id) f where b.id = f.id`);
      return performance.now() - started;
    };
    const times = { ours: [] as number[], peer: [] as number[] };
    for (let round = 0; round < 2; round++) {
      if (round % 2 === 0) times.ours.push(await ours()), times.peer.push(await peer());
      else times.peer.push(await peer()), times.ours.push(await ours());
    }
    const best = (list: number[]) => Math.min(...list);
    say(`  ${SITES.toLocaleString('en')} sites x ${pipeCount.toLocaleString('en')} segments (nearest per network within ${SITE_SEARCH_M} m, pipes within ${CORRIDOR_M} m, figures written back):`);
    say(`  ours ${seconds(best(times.ours))} (${times.ours.map(seconds).join(', ')}) | PostGIS geography ${seconds(best(times.peer))} (${times.peer.map(seconds).join(', ')}) | ratio ours/PostGIS ${(best(times.ours) / best(times.peer)).toFixed(2)}`);

    // The check: the same figures, site by site.
    const { rows: theirs } = await client.query(peerQuery);
    const expected = new Map<string, { nearest: number; corridor: number }>();
    for (const r of theirs) expected.set(`${r.id}:${r.network_type}`, { nearest: Number(r.nearest), corridor: Number(r.corridor) });
    const measured = await queryRows<{ id: number; measure: SiteMeasure }>(db, sql`select id, measure from construction_sites where enterprise_id = ${enterpriseId}`);
    let compared = 0, worst = 0;
    const differences: string[] = [];
    const seen = new Set<string>();
    for (const site of measured) {
      for (const [network, pipe] of Object.entries(site.measure.nearest) as [NetworkType, { distanceM: number }][]) {
        const key = `${site.id}:${network}`;
        seen.add(key);
        const their = expected.get(key);
        const ourCorridor = site.measure.corridorCount[network] ?? 0;
        if (!their) differences.push(`site ${site.id} ${network}: ours ${pipe.distanceM} m, PostGIS none within ${SITE_SEARCH_M} m`);
        else {
          compared++;
          const off = Math.abs(pipe.distanceM - their.nearest);
          worst = Math.max(worst, off);
          if (off > 0.01) differences.push(`site ${site.id} ${network}: nearest ours ${pipe.distanceM.toFixed(3)} m, PostGIS ${their.nearest.toFixed(3)} m`);
          if (ourCorridor !== their.corridor) {
            // Which pipe is in one corridor and not the other, and how far each side puts it.
            const { rows: edge } = await client.query(
              `select p.id, ST_Distance(s.geog, p.geog) as d from bench_sites s join bench_pipes p on ST_DWithin(s.geog, p.geog, ${CORRIDOR_M + 1}) where s.id = $1 and p.network_type = $2 and abs(ST_Distance(s.geog, p.geog) - ${CORRIDOR_M}) < 0.01`,
              [site.id, network],
            );
            // Ours as the site keeps it: its pipe set (site_pipes) with each pipe's distance.
            const { rows: kept } = await client.query('select pipe_row_id, distance_m from site_pipes where site_id = $1', [site.id]);
            const oursAt = new Map(kept.map((k) => [Number(k.pipe_row_id), Number(k.distance_m)]));
            const near = edge.map((e) => `pipe ${e.id} at ${Number(e.d).toFixed(4)} m by PostGIS, ${oursAt.get(Number(e.id))?.toFixed(3) ?? `> ${CORRIDOR_M}`} m by ours`).join('; ');
            differences.push(`site ${site.id} ${network}: within ${CORRIDOR_M} m ours ${ourCorridor}, PostGIS ${their.corridor}${near ? ` (${near})` : ''}`);
          }
        }
      }
    }
    for (const key of expected.keys()) if (!seen.has(key)) differences.push(`site ${key}: PostGIS finds a pipe within ${SITE_SEARCH_M} m, ours none`);
    say(`  check against PostGIS: ${compared.toLocaleString('en')} nearest distances (site x network), largest difference ${(worst * 1000).toFixed(1)} mm; ${differences.length} differences over 1 cm or in the ${CORRIDOR_M} m counts${differences.length ? ':' : ''}`);
    for (const line of differences.slice(0, 20)) say(`    ${line}`);
    await client.query('drop table bench_sites; drop table bench_pipes');
    await client.end();
  } finally {
    await server.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchConstruction(console.log);
