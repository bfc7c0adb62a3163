/**
 * Benchmarks of the console and the pipe network at 1,000,000 segments (npm run bench):
 *  -. the JavaScript each console route loads (bench/console.ts), the sign-in route against its goal;
 *  0. the API at 64 connections (permissions, project list, pipe list page, cached tile) against
 *     a bare Fastify hello-world, on both
 *     databases, with the demo (20,000 segments) and, after the import, with 1,000,000;
 *  1. importing a generated GeoJSON through the import job (rows/s, peak memory), on embedded PGlite
 *     and on the PostgreSQL server, against GDAL's ogr2ogr loading the same file into PostGIS;
 *  2. the pipe list's requests over that network on PostgreSQL (keyset pages, keyword, filters), its
 *     keyword search over HTTP right after each import (bench/keywords.ts), and reads at 64 users'
 *     pace in the ten minutes after the PostgreSQL import, by minute;
 *  3. vector tile latency p50/p99 at z10, z12, z14 and z16 over that network with its risk assessed,
 *     cold (no tile cache), against the same tiles made by PostGIS ST_AsMVT in the same run;
 *  4. settlement: EGMS CSV ingest against COPY, the pipe-point join against PostGIS (bench/settlement.ts);
 *  5. construction sites measured against the pipes, against PostGIS geography, with a check (bench/construction.ts);
 *  6. composite pipe risk over the network on PGlite against PostgreSQL (bench/pipeRisk.ts);
 *  7. audited writes against the same server with AUDIT_TRAIL=off (bench/audit.ts);
 *  8. heavy reads from a streaming replica beside the primary (bench/replica.ts);
 *  9. sensor readings through Mosquitto against a bare subscriber writing by COPY (bench/sensors.ts).
 * Peers are skipped (and say so) where ogr2ogr or PostGIS is not installed.
 * BENCH_PIPES changes the size; BENCH_DATABASE_URL the PostgreSQL server (default the local one).
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { generateCity } from '../apps/server/src/demo/city.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { PIPE_DETAIL_ZOOMS, PIPE_SCALE_CLASS, scaleClassExpression, scaleConditionAt } from '../apps/server/src/geo/pipeScales.ts';
import { clearTileCache, pipesVersion, pipeTile } from '../apps/server/src/modules/tiles/service.ts';
import { listPipes } from '../apps/server/src/modules/pipelines/service.ts';
import { DEFAULT_RISK_WEIGHTS, pipeListQuery } from '@console/contract';
import { assessNetwork } from '../apps/server/src/modules/pipeRisk/assess.ts';
import { cpuSeconds, peakRssBytes, postgresProfile, postgresServer } from './cpu.ts';
import { importThroughServer } from './upload.ts';
import { writeGeoJson } from './files.ts';
import { measureConsoleWeight } from './console.ts';
import { keywordsOverHttp, numberByStreet } from './keywords.ts';
import { benchSettlement } from './settlement.ts';
import { benchConstruction } from './construction.ts';
import { benchPipeRisk } from './pipeRisk.ts';
import { benchRequestLogging } from './logging.ts';
import { benchAuditedWrites } from './audit.ts';
import { benchReplicaReads } from './replica.ts';
import { benchSensorIngest } from './sensors.ts';
import { emptyServerDatabase, freshDatabase, hasCommand, mb, percentile, postgisAvailable, seconds, withPeakMemory } from './support.ts';
import { compareWithHelloWorld, CONNECTIONS, describeLoad, load, loadEach, openLoop, settled, signedInHeaders, startConsoleServer, startHelloWorld, type Load, type Running } from './api.ts';

const run = promisify(execFile);
const PIPES = Number(process.env.BENCH_PIPES ?? 1_000_000);
const ZOOMS = (process.env.BENCH_ZOOMS ?? '10,12,14,16').split(',').map(Number);
/** Which parts run (all by default): console, api, settlement, construction, risk, audit, replica, sensors; the pipe parts (import, list, tiles) always do. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'console,api,logging,settlement,construction,risk,audit,replica,sensors').split(','));


/** The upload limit raised for the generated file (a utility's 1,000,000 segments are ~330 MB of GeoJSON). */
const IMPORT_ENV = { UPLOAD_LIMIT_MB: '1024' };

/**
 * Our import as a user makes it (upload, suggested mapping, replace mode, the job to its end with
 * what it measures after), on the console's server process: wall time, the CPU-seconds of the
 * server's process and, on the PostgreSQL server, of the database, with where the database spent
 * them; the server process's peak memory.
 */
async function importAsUser(server: Running, file: string, databaseUrl?: string) {
  const headers = await signedInHeaders(server.url, 'admin', 'Demo123456');
  const nodeBefore = await cpuSeconds(server.pid);
  const imported = databaseUrl
    ? await postgresProfile(databaseUrl, () => importThroughServer(server, headers, file))
    : { value: await importThroughServer(server, headers, file), bySteps: [] as [string, number][], total: 0 };
  const node = (await cpuSeconds(server.pid)) - nodeBefore;
  return { ...imported.value, node, database: imported.total, bySteps: imported.bySteps, peakRss: await peakRssBytes(server.pid) };
}

type Imported = Awaited<ReturnType<typeof importAsUser>>;

/** Ours on a PostgreSQL server: a console server of its own on `url`, the import as a user makes it. */
async function importOnServer(url: string, dataDir: string, file: string, after?: (server: Running) => Promise<void>) {
  const consoleServer = await startConsoleServer({ dataDir, databaseUrl: url, env: IMPORT_ENV });
  try {
    const imported = await importAsUser(consoleServer, file, url);
    await after?.(consoleServer);
    return imported;
  } finally {
    await consoleServer.stop();
  }
}

/**
 * The peer: GDAL's ogr2ogr loading the file into PostGIS (COPY, no checks), then the rest of our
 * indexes built as ours are (db/partitions.ts): two at a time on connections of their own, with the
 * same sort memory, the slowest kinds first (ogr2ogr's own names: laundered to lower case). CPU:
 * ogr2ogr's own (bash's `times`) and the database server's. The table is dropped after.
 */
async function peerImport(url: string, file: string) {
  const postgres = await postgresServer(url);
  const started = performance.now();
  const databaseBefore = await postgres.cpuSeconds();
  const u = new URL(url);
  const connection = `PG:host=${u.hostname} port=${u.port || 5432} user=${decodeURIComponent(u.username)} dbname=${u.pathname.slice(1)}${u.password ? ` password=${decodeURIComponent(u.password)}` : ''}`;
  const { stdout } = await run('bash', ['-c', 'ogr2ogr "$@" >/dev/null && times', 'ogr2ogr', '-f', 'PostgreSQL', connection, file, '-nln', 'bench_gdal_pipes', '-lco', 'GEOMETRY_NAME=geom', '-gt', '65536', '--config', 'PG_USE_COPY', 'YES'], { maxBuffer: 1 << 26 });
  const loadMs = performance.now() - started;
  const gdal = childCpuOfTimes(stdout);
  const loadCpu = gdal + (await postgres.cpuSeconds()) - databaseBefore;
  const scaleClass = scaleClassExpression().replaceAll('"network_type"', 'networktype').replaceAll('"diameter_mm"', 'diametermm');
  // Named: two builds at once would otherwise pick the same name for the two partial indexes.
  const pending = [
    `using gist (geom) where (${scaleClass}) = ${PIPE_SCALE_CLASS.trunk}`,
    `using gist (geom) where (${scaleClass}) <= ${PIPE_SCALE_CLASS.main}`,
    'using gin (pipeid gin_trgm_ops)',
    // Ours: the one- and two-character keyword index (migration 0047's function, in this database).
    'using gin ((text_grams(pipeid) collate "C"))',
    '(pipeid)',
    '(networktype, pipeid, material)',
    '(material, pipeid)',
    '(diametermm, installyear)',
    '(installyear, diametermm)',
  ].map((index, i) => `create ${index === '(pipeid)' ? 'unique ' : ''}index bench_gdal_pipes_${i} on bench_gdal_pipes ${index}`);
  await Promise.all(
    [0, 1].map(async () => {
      const gdalClient = new pg.Client({ connectionString: url });
      await gdalClient.connect();
      try {
        await gdalClient.query("set maintenance_work_mem = '256MB'");
        for (let statement = pending.shift(); statement; statement = pending.shift()) await gdalClient.query(statement);
      } finally {
        await gdalClient.end();
      }
    }),
  );
  const result = { loadMs, ms: performance.now() - started, gdal, loadCpu, cpu: gdal + (await postgres.cpuSeconds()) - databaseBefore };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('drop table bench_gdal_pipes').finally(() => client.end());
  return result;
}

const cpu = (s: number) => `${s.toFixed(1)} CPU-s`;

/** The web-mercator tiles at zoom z over the city, a deterministic sample of `count`. */
function sampleTiles(extent: [number, number, number, number], z: number, count: number) {
  const n = 2 ** z;
  const x = (lon: number) => Math.floor(((lon + 180) / 360) * n);
  const y = (lat: number) => {
    const r = (lat * Math.PI) / 180;
    return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  };
  const tiles: [number, number][] = [];
  for (let tx = x(extent[0]); tx <= x(extent[2]); tx++) for (let ty = y(extent[3]); ty <= y(extent[1]); ty++) tiles.push([tx, ty]);
  const step = Math.max(1, tiles.length / count);
  return Array.from({ length: Math.min(count, tiles.length) }, (_, i) => tiles[Math.floor(i * step)]);
}

/** The children's user + system seconds of bash's `times` (its second line: "0m12.345s 0m1.234s"). */
function childCpuOfTimes(output: string) {
  const line = output.trim().split('\n').at(-1) ?? '';
  return line.split(/\s+/).reduce((sum, part) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(part);
    return m ? sum + Number(m[1]) * 60 + Number(m[2]) : sum;
  }, 0);
}

const TILE_SAMPLES = 1000;

interface TileTimes {
  p50: number;
  p99: number;
  bytes: number;
}

/**
 * Ours and the peer side by side, in process, on the same tiles: each zoom's tiles are cycled
 * until there are TILE_SAMPLES samples (so p99 means something where a zoom has few tiles over
 * the city), and the two alternate which goes first on every tile.
 */
async function timeTilesSideBySide(
  ours: (z: number, x: number, y: number) => Promise<number>,
  peer: ((z: number, x: number, y: number) => Promise<number>) | null,
  tiles: Map<number, [number, number][]>,
) {
  const result = new Map<number, { tiles: number; samples: number; ours: TileTimes; peer: TileTimes | null }>();
  for (const [z, list] of tiles) {
    const times = { ours: [] as number[], peer: [] as number[] };
    const bytes = { ours: 0, peer: 0 };
    const time = async (who: 'ours' | 'peer', x: number, y: number) => {
      const make = who === 'ours' ? ours : peer!;
      const started = performance.now();
      bytes[who] += await make(z, x, y);
      times[who].push(performance.now() - started);
    };
    const samples = Math.max(TILE_SAMPLES, list.length);
    // One untimed pass over the zoom's tiles for each side first: both sides' tables and indexes
    // are then as warm in the database's cache as its size allows (the peer's table was just made
    // and would otherwise start warm where ours starts cold).
    for (const [x, y] of list) {
      await ours(z, x, y);
      if (peer) await peer(z, x, y);
    }
    for (let i = 0; i < samples; i++) {
      const [x, y] = list[i % list.length];
      const order: ('ours' | 'peer')[] = !peer ? ['ours'] : i % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours'];
      for (const who of order) await time(who, x, y);
    }
    const summary = (who: 'ours' | 'peer'): TileTimes => {
      const sorted = [...times[who]].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), bytes: bytes[who] / samples };
    };
    result.set(z, { tiles: list.length, samples, ours: summary('ours'), peer: peer ? summary('peer') : null });
  }
  return result;
}

/** The z14 web-mercator tile holding a point, for a tile the map would ask for. */
function tileAt(lon: number, lat: number, z: number) {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return { z, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n) };
}

/** Users of the paced rows, each asking about once a second, and how long those rows run. */
const USERS = CONNECTIONS;
const PACED_SECONDS = 10;

/** Minutes of the paced window after an import (BENCH_WINDOW_MINUTES; 0 leaves it out). */
const WINDOW_MINUTES = Number(process.env.BENCH_WINDOW_MINUTES ?? 10);

/** Pipe list pages with a filter new on every request (none answered from the read cache). */
const uncachedListPaths = (count: number, from = 0) =>
  Array.from({ length: count }, (_, k) => from + k).map((i) => `/api/pipelines?page=1&pageSize=20&diameterMin=${1 + (i % 2000)}&installYearMin=${1900 + Math.floor(i / 2000)}`);

/** z14 pipe tiles over the city, each once, in a shuffled order (none answered from the tile cache). */
function uncachedTilePaths(city: [number, number, number, number]) {
  const tiles = sampleTiles(city, 14, 100_000);
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  return tiles.map(([x, y]) => `/api/tiles/pipes/3857/14/${x}/${y}.pbf`);
}

/**
 * An Open-Meteo-compatible weather service of the bench's own (127.0.0.1): every forecast asked
 * of it is the forecast file the server's tests read, so the weather fetch runs as it does
 * against the real service.
 */
async function startWeatherService() {
  const forecast = await readFile(join(import.meta.dirname, '../apps/server/src/modules/weather/fixtures/open-meteo-hangzhou.json'));
  let asked = 0;
  const service = createServer((_request, response) => {
    asked++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(forecast);
  });
  await new Promise<void>((done) => service.listen(0, '127.0.0.1', done));
  const { port } = service.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/forecast`, asked: () => asked, stop: () => new Promise<void>((done) => service.close(() => done())) };
}

/**
 * The minutes after an import as users live them: at 64 users' pace, the pipe list with a new
 * filter and a z14 tile never made before, alternating, for WINDOW_MINUTES from the moment the
 * import's job ends, while what it sets off and what is scheduled runs: the network's risk
 * assessment, the alert rules' sweep every 5 minutes, the outbox, the audit flush, statistics,
 * the weather service's fetch (a source set as the window starts is due at once) and a month's
 * report (the making the first of the month runs, asked for in the second minute, as a manager
 * may). p50 and p99 by minute, with the machine's load, then when each of the last two ran.
 */
async function pacedWindow(server: Running, city: [number, number, number, number], label: string, say: (line: string) => void) {
  if (WINDOW_MINUTES <= 0) return;
  const headers = await signedInHeaders(server.url, 'admin', 'Demo123456');
  const lists = uncachedListPaths(USERS * 60 * WINDOW_MINUTES, 150_000);
  const tiles = uncachedTilePaths(city);
  const paths = lists.map((list, i) => (i % 2 ? tiles[Math.floor(i / 2) % tiles.length] : list));
  const { loadavg } = await import('node:os');
  const weather = await startWeatherService();
  const json = { ...headers, 'content-type': 'application/json' };
  const source = await (await fetch(`${server.url}/api/weather/source`, { method: 'PUT', headers: json, body: JSON.stringify({ provider: 'openMeteo', url: weather.url, everyMinutes: 15 }) })).json();
  if (!source.success) throw new Error(`weather source: ${source.message}`);
  const windowStart = performance.now();
  const windowStartedAt = Date.now();
  let report: Promise<string> = Promise.resolve('not asked');
  say(`  ${label}: ${USERS} users' pace, pipe list (new filter) and z14 tiles (each new) alternating, from seconds after the import's job ended (goal p99 < 100 ms every minute)`);
  try {
    for (let minute = 0; minute < WINDOW_MINUTES; minute++) {
      if (minute === 1) {
        const asked = performance.now();
        const month = new Date().toISOString().slice(0, 7);
        report = fetch(`${server.url}/api/reports`, { method: 'POST', headers: json, body: JSON.stringify({ month }) })
          .then((response) => response.json())
          .then((body) => `${body.success ? 'made' : `refused (${body.message})`} in ${((performance.now() - asked) / 1000).toFixed(1)} s, from ${((asked - windowStart) / 60_000).toFixed(1)} min`);
      }
      const minutePaths = paths.slice(minute * USERS * 60, (minute + 1) * USERS * 60);
      const answered = await openLoop(server.url, minutePaths, headers, USERS, 60);
      say(`    minute ${minute + 1}: ${describeLoad(answered)}, machine load ${loadavg()[0].toFixed(2)}`);
    }
    const fetched = (await (await fetch(`${server.url}/api/weather/source`, { headers })).json()).result as { lastFetchAt: string | null; lastError: string | null };
    const fetchedAt = fetched.lastFetchAt ? `${((Date.parse(fetched.lastFetchAt) - windowStartedAt) / 60_000).toFixed(1)} min` : 'never';
    say(`    in the window: weather fetched at ${fetchedAt} (${weather.asked()} forecasts asked${fetched.lastError ? `, error: ${fetched.lastError}` : ''}); report of the month ${await report}`);
  } finally {
    await weather.stop();
  }
}

/**
 * Authenticated reads the console makes all the time, as the water utility's admin, each against
 * hello-world: permissions (every page load), the project list with its figures, the first page
 * of the pipe list, and a pipe tile over the first project (made once, then cached).
 */
async function apiUnderLoad(server: Running, hello: Running, label: string, say: (line: string) => void, city?: [number, number, number, number], databaseUrl?: string) {
  const headers = await signedInHeaders(server.url, 'admin', 'Demo123456');
  const projects = (await (await fetch(`${server.url}/api/projects`, { headers })).json()).result as { bbox: number[] }[];
  const [minx, miny, maxx, maxy] = projects[0].bbox;
  const tile = tileAt((minx + maxx) / 2, (miny + maxy) / 2, 14);
  const routes = [
    ['GET /api/getUserPermission', '/api/getUserPermission'],
    ['GET /api/projects', '/api/projects'],
    ['GET /api/pipelines (page 1)', '/api/pipelines?page=1&pageSize=20'],
    ['GET a z14 pipe tile (cached)', `/api/tiles/pipes/3857/${tile.z}/${tile.x}/${tile.y}.pbf`],
  ];
  for (const [name, path] of routes) {
    const { ours, hello: peer } = await compareWithHelloWorld(() => load(`${server.url}${path}`, headers), () => load(hello.url));
    say(`  ${label} ${name.padEnd(29)}: ours ${describeLoad(ours)} | hello-world ${describeLoad(peer)} | rate ours/hello ${((100 * ours.requestsPerSecond) / peer.requestsPerSecond).toFixed(0)} %`);
  }
  if (!city) return;
  // Reads no cache answers (goal p99 < 50 ms): the pipe list with a filter new on every request
  // (200,000 of them, none twice within the read cache's second), and z14 tiles over the city,
  // each asked once, in a shuffled order, as the first visitors after an import ask for them.
  // Each at 64 connections kept busy (autocannon: a queue kept full) and at 64 users' pace (a
  // request a second each, at random moments), with the CPU each answer cost the server's process
  // and, on PostgreSQL, the database. Each starts once the server is idle again (the run before
  // a paced one, kept busy, leaves queued requests behind that would be timed as the paced run's).
  const filters = uncachedListPaths(200_000);
  const tilePaths = uncachedTilePaths(city);
  const paced = Math.min(Math.floor(tilePaths.length / 2), USERS * PACED_SECONDS);
  const reads: [string, () => Promise<Load>][] = [
    ['GET /api/pipelines, new filter', () => loadEach(server.url, filters.slice(0, 100_000), headers)],
    [`  the same, ${USERS} users' pace`, () => openLoop(server.url, filters.slice(100_000), headers, USERS, PACED_SECONDS)],
    [`z14 tiles, each made (${tilePaths.length - paced})`, () => loadEach(server.url, tilePaths.slice(paced), headers, tilePaths.length - paced)],
    [`  the same, ${USERS} users' pace (${paced})`, () => openLoop(server.url, tilePaths.slice(0, paced), headers, USERS, PACED_SECONDS)],
  ];
  const postgres = databaseUrl ? await postgresServer(databaseUrl) : undefined;
  for (const [name, read] of reads) {
    await settled(server);
    const [node0, database0] = [await cpuSeconds(server.pid), (await postgres?.cpuSeconds()) ?? 0];
    const answered = await read();
    const [node, database] = [(await cpuSeconds(server.pid)) - node0, ((await postgres?.cpuSeconds()) ?? 0) - database0];
    const perAnswer = (s: number) => ((1000 * s) / Math.max(1, answered.answers)).toFixed(2);
    const cpuSpent = postgres ? `${perAnswer(node + database)} ms CPU an answer (Node ${perAnswer(node)}, PostgreSQL ${perAnswer(database)})` : `${perAnswer(node)} ms CPU an answer (one process)`;
    say(`  ${label} ${name.padEnd(29)}: ours ${describeLoad(answered)}, ${cpuSpent}`);
  }
  // The paced rows' floor: the same stream against hello-world (what the driver and the machine add).
  const floor = await openLoop(hello.url, ['/'], {}, USERS, PACED_SECONDS);
  say(`  ${label} ${"  hello-world at that pace".padEnd(29)}: ${describeLoad(floor)}`);
}

/**
 * The pipe list's requests over the whole network, in process on one connection (the work of one
 * request, without HTTP): each case 30 times after one not counted, median and slowest.
 */
async function timeLists(db: Database['db'], enterpriseId: number, say: (line: string) => void) {
  const cases: [string, Record<string, string>][] = [
    ['page 1', {}],
    ['page 500 by number (row 10,000)', { page: '500' }],
    ['next page after a key mid-network', { after: 'G-0500000' }],
    ['previous page before a key', { before: 'W-0300000' }],
    ['last page', { last: 'true' }],
    ['keyword (7 characters)', { keyword: '0012345' }],
    ['keyword (2 characters, many matches)', { keyword: '12' }],
    ['keyword (2 letters, none)', { keyword: 'ab' }],
    ['keyword (2 letters, every gas pipe)', { keyword: 'G-' }],
    ['keyword (2 letters, water: after the rest)', { keyword: 'W-' }],
    ['keyword (2 Chinese characters)', { keyword: '江南' }],
    ['keyword (1 Chinese character)', { keyword: '路' }],
    ['network type', { networkType: 'drainage' }],
    ['network type, next page by key', { networkType: 'drainage', after: 'D-0200000' }],
    ['network type, last page', { networkType: 'drainage', last: 'true' }],
    ['network type and material', { networkType: 'water', material: 'PVC' }],
    ['material (rare)', { material: 'cast iron' }],
    ['diameter >= 1,800 mm', { diameterMin: '1800' }],
    ['diameter 100-500 mm', { diameterMin: '100', diameterMax: '500' }],
    ['installed up to 1985', { installYearMax: '1985' }],
    ['inside the first project', { projectId: '1' }],
  ];
  for (const [name, raw] of cases) {
    const query = pipeListQuery.parse(raw);
    await listPipes(db, enterpriseId, query);
    const times: number[] = [];
    let total = 0;
    let exact = true;
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      const page = await listPipes(db, enterpriseId, query);
      times.push(performance.now() - started);
      total = page.total;
      exact = page.totalExact;
    }
    times.sort((a, b) => a - b);
    say(`  ${name.padEnd(38)} median ${times[15].toFixed(1).padStart(5)} ms  slowest ${times[29].toFixed(1).padStart(5)} ms  total ${exact ? '' : 'more than '}${total.toLocaleString('en')}`);
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'console-bench-'));
  const lines: string[] = [];
  const say = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  try {
    say(`Pipe network benchmark: ${PIPES.toLocaleString('en')} segments (node ${process.version}, ${process.platform})`);
    if (PARTS.has('console')) await measureConsoleWeight(say);
    const file = join(dir, 'network.geojson');
    // Only the file, its size and the city's extent are kept: the generated pipes themselves (a
    // million objects) would otherwise stay in this process's heap and slow its collections while
    // the tiles and lists are timed in it.
    const { rows, extent } = await (async () => {
      const city = generateCity({ pipes: PIPES });
      numberByStreet(city);
      await writeGeoJson(file, city.pipes);
      return { rows: city.pipes.length, extent: city.extent };
    })();
    say(`generated GeoJSON: ${rows.toLocaleString('en')} segments, ${mb((await stat(file)).size)}`);

    // 0. The API with the demo network (what `npm start` seeds: 20,000 segments).
    const [load1, load5] = (await import('node:os')).loadavg();
    say(`\nAPI at ${CONNECTIONS} connections, signed in (permissions, project list with figures, pipe list page, cached tile), machine load ${load1.toFixed(2)} / ${load5.toFixed(2)} (1 / 5 min)`);
    if (PARTS.has('api')) {
      const hello = await startHelloWorld();
      try {
        const demoPglite = await startConsoleServer({ dataDir: join(dir, 'demo-pglite') });
        await apiUnderLoad(demoPglite, hello, 'demo 20,000, PGlite    ', say).finally(() => demoPglite.stop());
        const demoDatabase = await emptyServerDatabase();
        const demoServer = await startConsoleServer({ dataDir: join(dir, 'demo-pg'), databaseUrl: demoDatabase.url });
        await apiUnderLoad(demoServer, hello, 'demo 20,000, PostgreSQL', say).finally(() => demoServer.stop());
        await demoDatabase.drop();
      } finally {
        await hello.stop();
      }
    }

    // 1. Imports, as a user makes them on the console's server (it seeds the demo on its first
    // start; the import replaces the water utility's network and assesses it as its last step).
    say('\nImport as a user makes it (upload, suggested mapping, replace mode; the job reads, checks in worker threads, loads by COPY into a table of its own, builds its indexes, swaps it in, then measures what depends on the network and assesses its risk)');
    const millionApi: string[] = [];
    const keywordLines: string[] = [];
    const windowLines: string[] = [];
    {
      const pgliteDir = join(dir, 'pglite-server');
      let embedded = await startConsoleServer({ dataDir: pgliteDir, env: IMPORT_ENV });
      try {
        const onPglite = await importAsUser(embedded, file);
        say(`  ours, PGlite:      ${seconds(onPglite.ms)}  ${Math.round(rows / (onPglite.ms / 1000)).toLocaleString('en')} rows/s  ${cpu(onPglite.node)} (one process)  server peak RSS ${mb(onPglite.peakRss)}`);
        await keywordsOverHttp(embedded, 'PGlite, right after its import', (line) => keywordLines.push(line));
        await pacedWindow(embedded, extent, 'PGlite', (line) => windowLines.push(line));
        // The API after the import, as a user meets it: the import leaves the network vacuumed
        // and analysed itself (no step of the bench's own). After a window, on the same data
        // opened again: the window made tiles the API's "each made" tiles must not find cached.
        if (PARTS.has('api')) {
          if (WINDOW_MINUTES > 0) {
            await embedded.stop();
            embedded = await startConsoleServer({ dataDir: pgliteDir, env: IMPORT_ENV });
          }
          const hello = await startHelloWorld();
          await apiUnderLoad(embedded, hello, `${rows.toLocaleString('en')}, PGlite    `, (line) => millionApi.push(line), extent).finally(() => hello.stop());
        }
      } finally {
        await embedded.stop();
      }
    }

    const server = await freshDatabase('postgres', dir);
    const postgis = await postgisAvailable(server.url!);
    const peerInstalled = (await hasCommand('ogr2ogr')) && postgis;
    // Ours and the peer in the order ours, peer, peer, ours (each pair's ratio said): the first of
    // ours loads the database the lists and tiles are timed on below, the second a database of its own.
    const describeOurs = (label: string, ours: Imported) => {
      say(`  ${label}  ${seconds(ours.ms)}  ${Math.round(rows / (ours.ms / 1000)).toLocaleString('en')} rows/s  ${cpu(ours.node + ours.database)} (Node ${ours.node.toFixed(1)}, PostgreSQL ${ours.database.toFixed(1)})  server peak RSS ${mb(ours.peakRss)}`);
      say(`    PostgreSQL's CPU-seconds by statement: ${ours.bySteps.slice(0, 8).map(([step, s]) => `${s.toFixed(1)} ${step.split(' ').slice(0, 4).join(' ')}`).join('; ')}`);
    };
    const describePeer = (peer: Awaited<ReturnType<typeof peerImport>>) => {
      say(`  peer, ogr2ogr -> PostGIS (COPY, no checks, its key and geometry index only): ${seconds(peer.loadMs)}  ${Math.round(rows / (peer.loadMs / 1000)).toLocaleString('en')} rows/s  ${cpu(peer.loadCpu)} (ogr2ogr ${peer.gdal.toFixed(1)})`);
      say(`  peer, then our other nine indexes built: ${seconds(peer.ms)}  ${Math.round(rows / (peer.ms / 1000)).toLocaleString('en')} rows/s  ${cpu(peer.cpu)}`);
    };
    const ratio = (ours: Imported, peer: Awaited<ReturnType<typeof peerImport>>) =>
      say(`  ratio ours(PostgreSQL)/(ogr2ogr with the same indexes): time ${(ours.ms / peer.ms).toFixed(2)}, CPU-s ${((ours.node + ours.database) / peer.cpu).toFixed(2)} (goal <= 1.5); without the indexes: CPU-s ${((ours.node + ours.database) / peer.loadCpu).toFixed(2)}`);
    const first = await importOnServer(server.url!, join(dir, 'pg-server'), file, async (ours) => {
      await keywordsOverHttp(ours, 'PostgreSQL, right after its import', (line) => keywordLines.push(line));
      await pacedWindow(ours, extent, 'PostgreSQL', (line) => windowLines.push(line));
    });
    describeOurs('ours, PostgreSQL:', first);
    if (peerInstalled) {
      const peerFirst = await peerImport(server.url!, file);
      describePeer(peerFirst);
      ratio(first, peerFirst);
      const peerSecond = await peerImport(server.url!, file);
      describePeer(peerSecond);
      const again = await emptyServerDatabase();
      const second = await importOnServer(again.url, join(dir, 'pg-server-2'), file).finally(() => again.drop());
      describeOurs('ours again, PostgreSQL:', second);
      ratio(second, peerSecond);
    } else {
      say('  peer ogr2ogr -> PostGIS: skipped (needs Debian gdal-bin and postgresql-15-postgis-3)');
    }

    if (windowLines.length) say(`\nReads in the ${WINDOW_MINUTES} minutes after an import, ${rows.toLocaleString('en')} segments`);
    for (const line of windowLines) say(line);
    say(`\nPipe list keyword search over HTTP, signed in, one connection, ${rows.toLocaleString('en')} segments (one in four numbered by street), each keyword 30 times`);
    for (const line of keywordLines) say(line);
    say(`\nPipe list over ${rows.toLocaleString('en')} segments, PostgreSQL, one connection, in process (goal: every request under 50 ms)`);
    await timeLists(server.database.db, 1, say);

    // 2. Tiles over the imported network, on the PostgreSQL server, with every segment's risk
    // level as the console has it a quiet minute after an import: the tiles carry it (the risk map).
    const db = server.database.db;
    // No analyze of the bench's own: the import analysed the pipes, the assessment its partition.
    const assessed = await withPeakMemory(() => assessNetwork(db, 1, DEFAULT_RISK_WEIGHTS));
    say(`\nVector tiles (3857, cold: our tile cache emptied before each; in process on one connection, each side's statements prepared once, ours and PostGIS alternating; all pipes from z13, mains from z11, trunk mains from z8; the risk level of every segment joined from its assessment, made in ${seconds(assessed.ms)})`);
    const tiles = new Map(ZOOMS.map((z) => [z, sampleTiles(extent, z, TILE_SAMPLES)] as const));
    // The pipes version read once, as the tile route keeps it (it reads it at most once a second).
    const version = await pipesVersion(db, 1);
    const ours = async (z: number, x: number, y: number) => {
      clearTileCache();
      return (await pipeTile(db, 1, 3857, z, x, y, version)).length;
    };
    let peer: ((z: number, x: number, y: number) => Promise<number>) | null = null;
    let peerClient: pg.Pool | null = null;
    if (postgis) {
      // Asked through a pool of the console's size, as ours is (a tile server holds one too).
      peerClient = new pg.Pool({ connectionString: server.url, max: 10 });
      const client = peerClient;
      // The same pipes, the same scale classes and the same indexes as ours (a window index over
      // all pipes and partial ones for the trunk mains and the mains), in Web Mercator; each pipe's
      // risk read from the enterprise's partition, as ours is.
      await client.query(`create table bench_postgis_pipes as
        select id, pipe_id, network_type, material, diameter_mm, install_year, scale_class,
               ST_Transform(ST_SetSRID(ST_GeomFromGeoJSON(geometry::text), 4326), 3857) as geom
        from pipes where enterprise_id = 1`);
      await client.query('create index on bench_postgis_pipes using gist (geom)');
      await client.query(`create index on bench_postgis_pipes using gist (geom) where scale_class = ${PIPE_SCALE_CLASS.trunk}`);
      await client.query(`create index on bench_postgis_pipes using gist (geom) where scale_class <= ${PIPE_SCALE_CLASS.main}`);
      await client.query('analyze bench_postgis_pipes');
      peer = async (z, x, y) => {
        const scales = scaleConditionAt(z);
        const filter = scales === 'none' ? 'and false' : scales ? `and scale_class ${scales}` : '';
        const window = `from bench_postgis_pipes p left join pipe_risks r on r.enterprise_id = 1 and r.pipe_row_id = p.id where geom && ST_TileEnvelope($1, $2, $3, margin => 64.0 / 4096) ${filter}`;
        // Like ours: single pipes with their attributes and risk level, but one feature per
        // network, diameter and risk level at the trunk-main (overview) zooms; a statement
        // prepared once per zoom class, as ours are.
        const source =
          z < PIPE_DETAIL_ZOOMS.mains
            ? `select network_type, diameter_mm, r.level as risk_level, ST_AsMVTGeom(ST_Collect(geom), ST_TileEnvelope($1, $2, $3), 4096, 64, true) as geom ${window} group by network_type, diameter_mm, r.level`
            : `select p.id, pipe_id, network_type, material, diameter_mm, install_year, r.level as risk_level, ST_AsMVTGeom(geom, ST_TileEnvelope($1, $2, $3), 4096, 64, true) as geom ${window}`;
        const name = `bench-postgis-tile-${scales ?? 'all'}`;
        const { rows: [row] } = await client.query({ name, text: `select ST_AsMVT(q, 'pipes', 4096, 'geom') as tile from (${source}) q`, values: [z, x, y] });
        return (row.tile as Buffer).length;
      };
    }
    const tileTimes = await timeTilesSideBySide(ours, peer, tiles);
    await peerClient?.end();
    for (const z of ZOOMS) {
      const { tiles: count, samples, ours: o, peer: p } = tileTimes.get(z)!;
      say(
        `  z${z} (${count} tiles, ${samples} samples): ours p50 ${o.p50.toFixed(1)} ms p99 ${o.p99.toFixed(1)} ms (${(o.bytes / 1024).toFixed(1)} KiB)` +
          (p
            ? ` | PostGIS ST_AsMVT p50 ${p.p50.toFixed(1)} ms p99 ${p.p99.toFixed(1)} ms (${(p.bytes / 1024).toFixed(1)} KiB) | ratio ours/PostGIS p50 ${(o.p50 / p.p50).toFixed(2)} p99 ${(o.p99 / p.p99).toFixed(2)}`
            : ' | PostGIS: skipped (not installed)'),
      );
    }
    if (PARTS.has('api')) {
      const hello = await startHelloWorld();
      const api = await startConsoleServer({ dataDir: join(dir, 'api-pg'), databaseUrl: server.url });
      await apiUnderLoad(api, hello, `${rows.toLocaleString('en')}, PostgreSQL`, (line) => millionApi.push(line), extent, server.url).finally(async () => {
        await api.stop();
        await hello.stop();
      });
    }
    say(`\nAPI at ${CONNECTIONS} connections over the imported network`);
    for (const line of millionApi) say(line);
    await server.drop();

    // 4. Settlement: ingest and the pipe-point join.
    if (PARTS.has('settlement')) await benchSettlement(say);
    if (PARTS.has('construction')) await benchConstruction(say);
    if (PARTS.has('risk')) await benchPipeRisk(say);
    if (PARTS.has('logging')) await benchRequestLogging(say);
    if (PARTS.has('audit')) await benchAuditedWrites(say);
    if (PARTS.has('replica')) await benchReplicaReads(say);
    if (PARTS.has('sensors')) await benchSensorIngest();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
