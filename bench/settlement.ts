/**
 * Settlement benchmarks (part of npm run bench; alone: npm run bench:settlement), on the local
 * PostgreSQL server, in process:
 *  1. ingest of an EGMS-layout CSV (1,000,000 points x 100 dates) through the import job, against
 *     PostgreSQL COPY of the same file into a plain table (one column per CSV column);
 *  2. the pipe-point join of the analysis (100,000 segments x 1,000,000 points within 20 m), against
 *     PostGIS ST_DWithin on geography with GiST indexes, grouped the same way (points per
 *     segment), with a check that both find the same points for every segment;
 *  3. the settlement page over 1,000,000 points in headless Chromium (the real server and console):
 *     time to the first frame with points, and frame times while the map is dragged.
 * BENCH_SETTLEMENT_POINTS and BENCH_SETTLEMENT_PIPES change the sizes; BENCH_SETTLEMENT_PARTS picks
 * parts (ingest,join,map; all by default).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DEFAULT_SETTLEMENT_THRESHOLDS } from '@console/contract';
import { generateCity } from '../apps/server/src/demo/city.ts';
import { seedDemo } from '../apps/server/src/demo/seed.ts';
import { readConfig } from '../apps/server/src/config.ts';
import { demoGroundMotion, demoVelocityAt, seedDemoSettlement } from '../apps/server/src/demo/settlement.ts';
import { seededRandom } from '../apps/server/src/demo/random.ts';
import { pipes } from '../apps/server/src/db/schema.ts';
import { UploadedFile } from '../apps/server/src/http/uploads.ts';
import { analyseUpload, getImportJob } from '../apps/server/src/modules/imports/jobs.ts';
import { JobRunner } from '../apps/server/src/modules/imports/runner.ts';
import { startSettlementImport, suggestSettlementMapping } from '../apps/server/src/modules/settlement/import.ts';
import { indexPoints, loadPoints, pointsNearLine } from '../apps/server/src/modules/settlement/analysis.ts';
import type { LineGeometry } from '@console/contract';
import { freshDatabase, mb, postgisAvailable, seconds, withPeakMemory } from './support.ts';
import { signedInHeaders, startConsoleServer } from './api.ts';

const run = promisify(execFile);

const POINTS = Number(process.env.BENCH_SETTLEMENT_POINTS ?? 1_000_000);
const PIPES = Number(process.env.BENCH_SETTLEMENT_PIPES ?? 100_000);
const DATES = 100;
const BUFFER_M = DEFAULT_SETTLEMENT_THRESHOLDS.bufferM;

const EGMS_COLUMNS = ['pid', 'mp_type', 'latitude', 'longitude', 'easting', 'northing', 'height', 'height_wgs84', 'line', 'pixel', 'rmse', 'temporal_coherence', 'amplitude_dispersion', 'incidence_angle', 'track_angle', 'los_east', 'los_north', 'los_up', 'mean_velocity', 'mean_velocity_std', 'acceleration', 'acceleration_std', 'seasonality', 'seasonality_std'];

/** An EGMS L2b-layout CSV over the demo city: velocities from its ground motion, 100 dates 6 days apart. */
async function writeEgmsCsv(path: string, points: number) {
  const city = generateCity({ pipes: 20_000 });
  const motion = demoGroundMotion(city);
  const random = seededRandom(7);
  const [w, s, e, n] = city.extent;
  const dates = Array.from({ length: DATES }, (_, i) => new Date(Date.UTC(2022, 0, 3) + i * 6 * 86_400_000).toISOString().slice(0, 10).replaceAll('-', ''));
  const out = createWriteStream(path);
  out.write(`${[...EGMS_COLUMNS, ...dates].join(',')}\n`);
  for (let i = 0; i < points; i++) {
    const lon = random.between(w, e), lat = random.between(s, n);
    const v = demoVelocityAt(motion, lon, lat) + random.between(-1, 1);
    const series = dates.map((_, k) => ((v * k * 6) / 365.25 + random.between(-1.5, 1.5)).toFixed(1));
    series[0] = '0.0';
    const row = `${i + 1},PS,${lat.toFixed(6)},${lon.toFixed(6)},0,0,${random.between(5, 40).toFixed(1)},0,0,0,0.9,${random.between(0.5, 1).toFixed(2)},0.2,39,-10,0.6,-0.1,0.78,${v.toFixed(2)},0.5,0,0,0,0,${series.join(',')}\n`;
    if (!out.write(row)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function ingest(say: (line: string) => void, dir: string) {
  const file = join(dir, 'EGMS_L2b_bench.csv');
  await writeEgmsCsv(file, POINTS);
  say(`  generated EGMS L2b CSV: ${POINTS.toLocaleString('en')} points x ${DATES} dates, ${mb((await stat(file)).size)}`);
  const server = await freshDatabase('postgres', dir);
  try {
    await seedDemo(server.database.db, { cityPipes: 200, settlementPoints: 0 });
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const peerColumns = [...EGMS_COLUMNS.map((c) => `${c} ${c === 'pid' || c === 'mp_type' ? 'text' : 'real'}`), ...Array.from({ length: DATES }, (_, i) => `d${i} real`)];
    await client.query(`create table bench_egms_plain (${peerColumns.join(', ')})`);
    const peer = async () => {
      await client.query('truncate bench_egms_plain');
      const started = performance.now();
      await pipeline(createReadStream(file), client.query(copyFrom('copy bench_egms_plain from stdin with (format csv, header true)')));
      return performance.now() - started;
    };
    const ours = async () => {
      const limits = { dataDir: dir, uploadLimit: 4 * 1024 * 1024 * 1024, quota: 16 * 1024 * 1024 * 1024, parallelFromBytes: readConfig({}).parallelImportBytes };
      const upload = join(dir, `upload-${Date.now()}`);
      await copyFile(file, upload);
      const runner = new JobRunner(server.database.db);
      return withPeakMemory(async () => {
        const job = await analyseUpload(server.database.db, limits, { enterpriseId: 1, userId: 1, kind: 'settlement', upload: new UploadedFile(upload, 'EGMS_L2b_bench.csv', 'text/csv', (await stat(upload)).size) });
        await startSettlementImport(server.database.db, limits, runner, job, 1, { mapping: suggestSettlementMapping(job.fields.map((f) => f.name)), name: 'bench', direction: 'los' }, () => {}, (error) => {
          throw error;
        });
        await runner.settled(job.id);
        const done = await getImportJob(server.database.db, 1, job.id, 'settlement');
        if (done.status !== 'succeeded') throw new Error(`import failed: ${JSON.stringify(done.problems.slice(0, 3))}`);
        return done.rowsWritten;
      });
    };
    // Peer first, then ours, then the peer again: each measured the same way, from the file on disk.
    const peer1 = await peer();
    const mine = await ours();
    const peer2 = await peer();
    const peerMs = (peer1 + peer2) / 2;
    await client.end();
    say(`  ours (job: read, check every row, COPY into the dataset's table, attach with indexes, grid cells): ${seconds(mine.ms)}  ${Math.round(POINTS / (mine.ms / 1000)).toLocaleString('en')} rows/s  peak RSS ${mb(mine.peakRss)}`);
    say(`  peer, PostgreSQL COPY into a plain table (no checks, no index): ${seconds(peerMs)} (${seconds(peer1)}, ${seconds(peer2)})  ${Math.round(POINTS / (peerMs / 1000)).toLocaleString('en')} rows/s`);
    say(`  ratio ours/COPY rate: ${(peerMs / mine.ms).toFixed(2)} (goal >= 0.5)`);
  } finally {
    await server.drop();
  }
}

async function pipePointJoin(say: (line: string) => void, dir: string) {
  const server = await freshDatabase('postgres', dir);
  try {
    if (!(await postgisAvailable(server.url!))) return say('  peer PostGIS: skipped (needs Debian postgresql-15-postgis-3)');
    await seedDemo(server.database.db, { cityPipes: PIPES, settlementPoints: 0 });
    const city = generateCity({ pipes: PIPES });
    const [water] = await queryRows<{ id: number }>(server.database.db, sql`select id from enterprises order by id limit 1`);
    // Every segment of the city in the one enterprise analysed (the demo splits them between the water and gas utilities).
    await server.database.db.execute(sql`update pipes set enterprise_id = ${water.id}`);
    const datasetId = await seedDemoSettlement(server.database.db, city, { enterpriseId: water.id, projectId: null, points: POINTS });
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    // The peer's tables: the same points and the same pipes of the enterprise as geography, GiST-indexed.
    await client.query(`create table bench_points as select id, geography(ST_SetSRID(ST_MakePoint(lon, lat), 4326)) as geog from settlement_points where dataset_id = ${datasetId}`);
    await client.query(`create table bench_pipes as select id, geography(ST_SetSRID(ST_GeomFromGeoJSON(geometry::text), 4326)) as geog from pipes where enterprise_id = ${water.id}`);
    await client.query('create index on bench_points using gist (geog)');
    await client.query('create index on bench_pipes using gist (geog)');
    await client.query('analyze bench_points; analyze bench_pipes');
    const pipeCount = Number((await client.query('select count(*) from bench_pipes')).rows[0].count);

    const ours = async () => {
      const started = performance.now();
      const points = await loadPoints(server.database.db, datasetId);
      const index = indexPoints(points);
      const counts = new Map<number, number[]>();
      let after = 0;
      for (;;) {
        const rows = await queryRows<{ id: number | string; geometry: LineGeometry }>(server.database.db, sql`select id, geometry from ${pipes} where enterprise_id = ${water.id} and id > ${after} order by id limit 20000`);
        if (!rows.length) break;
        after = Number(rows[rows.length - 1].id);
        for (const r of rows) {
          const { near } = pointsNearLine(r.geometry, points, index, BUFFER_M);
          if (near.length) counts.set(Number(r.id), near.map((n) => points.ids[n.index]));
        }
      }
      return { ms: performance.now() - started, counts };
    };
    const peer = async () => {
      const started = performance.now();
      const { rows } = await client.query(`select p.id, array_agg(s.id) as ids from bench_pipes p join bench_points s on ST_DWithin(p.geog, s.geog, ${BUFFER_M}) group by p.id`);
      return { ms: performance.now() - started, counts: new Map(rows.map((r: { id: string; ids: string[] }) => [Number(r.id), r.ids.map(Number)])) };
    };
    // Alternating order, best of two each.
    const o1 = await ours(), p1 = await peer(), p2 = await peer(), o2 = await ours();
    const o = o1.ms <= o2.ms ? o1 : o2, p = p1.ms <= p2.ms ? p1 : p2;
    // The check: every segment's point set, ours against PostGIS; where they differ, how far the
    // differing points are from the buffer's edge by PostGIS's own distance on the spheroid.
    const differing: { pipe: number; points: number[] }[] = [];
    for (const id of new Set([...o.counts.keys(), ...p.counts.keys()])) {
      const a = new Set(o.counts.get(id) ?? []), b = new Set(p.counts.get(id) ?? []);
      const only = [...a].filter((x) => !b.has(x)).concat([...b].filter((x) => !a.has(x)));
      if (only.length) differing.push({ pipe: id, points: only });
    }
    let edge = 0;
    for (const d of differing.slice(0, 50)) {
      const { rows } = await client.query('select max(abs(ST_Distance(p.geog, s.geog, true) - $3)) as off from bench_pipes p, bench_points s where p.id = $1 and s.id = any($2)', [d.pipe, d.points, BUFFER_M]);
      edge = Math.max(edge, Number(rows[0].off));
    }
    const pairs = (m: Map<number, number[]>) => [...m.values()].reduce((sum, ids) => sum + ids.length, 0);
    say(`  ${pipeCount.toLocaleString('en')} segments x ${POINTS.toLocaleString('en')} points within ${BUFFER_M} m: ours (read points and pipes, k-d index, distance in a local plane scaled by the ellipsoid radii) ${seconds(o.ms)} (${seconds(o1.ms)}, ${seconds(o2.ms)}), ${pairs(o.counts).toLocaleString('en')} pairs on ${o.counts.size.toLocaleString('en')} segments`);
    say(`  peer, PostGIS ST_DWithin(geography) with GiST, grouped per segment: ${seconds(p.ms)} (${seconds(p1.ms)}, ${seconds(p2.ms)}), ${pairs(p.counts).toLocaleString('en')} pairs on ${p.counts.size.toLocaleString('en')} segments`);
    say(`  ratio ours/PostGIS time: ${(o.ms / p.ms).toFixed(2)} (goal <= 1)`);
    say(`  check: segments whose point sets differ: ${differing.length}${differing.length ? `; every differing point is within ${(edge * 1000).toFixed(2)} mm of the ${BUFFER_M} m edge (PostGIS ST_Distance on the spheroid)${differing.length > 50 ? ', first 50 checked' : ''}` : ''}`);
    await client.end();
  } finally {
    await server.drop();
  }
}

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const ZOOM_STEPS = Number(process.env.BENCH_SETTLEMENT_ZOOM_STEPS ?? 2);
const ROOT = join(import.meta.dirname, '..');

/** The settlement page with a million points: first frame, then a drag at a zoom showing single points. */
async function mapFrames(say: (line: string) => void, dir: string) {
  if (!existsSync(CHROME)) return say(`  skipped (no Chromium at ${CHROME})`);
  await run('npm', ['run', 'build', '-w', '@console/web'], { cwd: ROOT, maxBuffer: 1 << 26 });
  const server = await freshDatabase('postgres', dir);
  try {
    await seedDemo(server.database.db, { settlementPoints: POINTS });
    const app = await startConsoleServer({ dataDir: join(dir, 'map'), databaseUrl: server.url, webDist: join(ROOT, 'apps/web/dist') });
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROME, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const headers = await signedInHeaders(app.url, 'admin', 'Demo123456');
      const firsts: number[] = [];
      const drags: number[][] = [];
      const settles: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        // bypassCSP: the timing probes below are scripts the console's own policy would refuse.
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', bypassCSP: true });
        await context.addInitScript((token) => localStorage.setItem('Access-Token', JSON.stringify({ value: token, expire: Date.now() + 86_400_000 })), headers['Access-Token']);
        const page = await context.newPage();
        // BENCH_SETTLEMENT_TIMELINE=1 prints each request of the first load, from navigation start (what the first frame waits on).
        const timeline: string[] = [];
        if (process.env.BENCH_SETTLEMENT_TIMELINE && attempt === 0) {
          const started = Date.now();
          page.on('requestfinished', (request) => {
            const timing = request.timing();
            const path = new URL(request.url()).pathname;
            timeline.push(`${String(Math.round(timing.startTime - started + timing.requestStart)).padStart(6)} -> ${String(Math.round(timing.startTime - started + timing.responseEnd)).padStart(6)} ms  ${path}`);
          });
        }
        await page.goto(`${app.url}/settlement`);
        // First frame: navigation start to the first animation frame after the window's points or cells are in the map.
        await page.waitForFunction("Number(document.querySelector('[data-testid=settlement-map]')?.dataset.count) > 0", undefined, { timeout: 60_000 });
        firsts.push((await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())))')) as number);
        for (const line of timeline) say(`    ${line}`);
        // Zoom in to single points (two wheel steps from the city: about 5 m per pixel, the densest
        // window of single points), then drag the map 400 px while frames are timed.
        const box = (await page.getByTestId('settlement-map').boundingBox())!;
        const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
        await page.mouse.move(cx, cy);
        for (let i = 0; i < ZOOM_STEPS; i++) {
          await page.mouse.wheel(0, -300);
          await page.waitForTimeout(350);
        }
        await page.waitForFunction("document.querySelector('[data-testid=settlement-map]')?.dataset.kind === 'points'", undefined, { timeout: 30_000 });
        await page.waitForTimeout(1500);
        // As text: the bench runs under tsx, whose helpers a function passed to the page would lack.
        await page.evaluate(`(() => {
          window.frames_ = [];
          window.recording_ = true;
          function tick(t) {
            window.frames_.push(t);
            if (window.recording_) requestAnimationFrame(tick);
          }
          requestAnimationFrame(tick);
        })()`);
        await page.mouse.down();
        await page.mouse.move(cx - 400, cy - 150, { steps: 40 });
        const during = (await page.evaluate('window.frames_.length')) as number;
        await page.mouse.up();
        await page.waitForTimeout(1500);
        const frames = (await page.evaluate(`(() => {
          window.recording_ = false;
          return window.frames_.slice(1).map((t, i) => t - window.frames_[i]);
        })()`)) as number[];
        // Frames while the map moves under the pointer; then the slowest after release (the
        // layer rebuilds its buffers for the new view once the view stops).
        drags.push(frames.slice(0, during - 1));
        settles.push(Math.max(...frames.slice(during - 1)));
        const count = await page.getByTestId('settlement-map').getAttribute('data-count');
        if (attempt === 0) say(`  window after the drag (${ZOOM_STEPS} wheel steps in): ${Number(count).toLocaleString('en')} single points drawn`);
        await context.close();
      }
      const all = drags.flat().sort((a, b) => a - b);
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      say(`  first frame with points: median ${seconds(median(firsts))} of 3 loads (${firsts.map(seconds).join(', ')}) (goal < 2 s)`);
      say(`  frames while dragging: ${all.length} frames, median ${all[Math.floor(all.length / 2)].toFixed(1)} ms, p95 ${all[Math.floor(all.length * 0.95)].toFixed(1)} ms, slowest ${all[all.length - 1].toFixed(1)} ms (goal < 50 ms)`);
      say(`  slowest frame after release (the layer redrawn for the new view): ${settles.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);
    } finally {
      await browser.close();
      await app.stop();
    }
  } finally {
    await server.drop();
  }
}

export async function benchSettlement(say: (line: string) => void) {
  const dir = await mkdtemp(join(tmpdir(), 'settlement-bench-'));
  try {
    const [load1, load5] = (await import('node:os')).loadavg();
    say(`\nSettlement, PostgreSQL, in process (machine load ${load1.toFixed(2)} / ${load5.toFixed(2)})`);
    const parts = (process.env.BENCH_SETTLEMENT_PARTS ?? 'ingest,join,map').split(',');
    if (parts.includes('ingest')) {
      say('Ingest');
      await ingest(say, dir);
    }
    if (parts.includes('join')) {
      say('Pipe-point join');
      await pipePointJoin(say, dir);
    }
    if (parts.includes('map')) {
      say(`Settlement page, ${POINTS.toLocaleString('en')} points, headless Chromium (WebGL in software: SwiftShader)`);
      await mapFrames(say, dir);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSettlement(console.log);
