/**
 * Heavy reads served from a streaming replica beside the same reads from the primary: one demo
 * database on the local PostgreSQL server, a hot standby of that server (scripts/standby.sh, or
 * BENCH_DATABASE_READ_URL's server), and two console servers as `npm start` runs them, one with
 * DATABASE_READ_URL and one without, driven the same way at 64 connections, alternating
 * (primary, replica, replica, primary) after a warm-up of each. Every request asks for something
 * not asked before (a new keyword, another tile at z16), so each reaches the database.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { emptyServerDatabase } from './support.ts';
import { alternating, cpuSeconds, CONNECTIONS, describeLoad, signedInHeaders, startConsoleServer, type Running } from './api.ts';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const STANDBY_PORT = 5434;

/** The z16 tiles over a box, in a fixed shuffled order. */
function tilesOver([west, south, east, north]: number[]): string[] {
  const n = 2 ** 16;
  const x = (lon: number) => Math.floor(((lon + 180) / 360) * n);
  const y = (lat: number) => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
  const tiles: string[] = [];
  for (let tx = x(west); tx <= x(east); tx++) for (let ty = y(north); ty <= y(south); ty++) tiles.push(`/api/tiles/pipes/3857/16/${tx}/${ty}.pbf`);
  let seed = 7;
  for (let i = tiles.length - 1; i > 0; i--) {
    seed = (seed * 48271) % 2147483647;
    const j = seed % (i + 1);
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  return tiles;
}

async function measure(server: Running, headers: Record<string, string>, nextPath: () => string) {
  const before = await cpuSeconds(server.pid);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'accept-encoding': 'gzip, deflate, br', ...headers },
    timeout: 10,
    requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
  });
  const cpu = (await cpuSeconds(server.pid)) - before;
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts, cpuPerThousand: (1000 * cpu) / Math.max(1, result.requests.total) };
}

async function waitForReplay(primaryUrl: string, standbyUrl: string) {
  const primary = new pg.Client({ connectionString: primaryUrl });
  const standby = new pg.Client({ connectionString: standbyUrl });
  await primary.connect();
  await standby.connect();
  try {
    const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    for (let i = 0; i < 600; i++) {
      const replayed = await standby.query<{ caught: boolean }>(`select pg_last_wal_replay_lsn() >= '${rows[0].lsn}'::pg_lsn as caught`);
      if (replayed.rows[0].caught) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the standby did not catch up in 60 s');
  } finally {
    await primary.end();
    await standby.end();
  }
}

export async function benchReplicaReads(say: (line: string) => void) {
  const [load1, load5] = (await import('node:os')).loadavg();
  say(`\nHeavy reads from a streaming replica beside the primary, ${CONNECTIONS} connections, every request new to the database, machine load ${load1.toFixed(2)} / ${load5.toFixed(2)} (1 / 5 min)`);
  let standbyBase = process.env.BENCH_DATABASE_READ_URL;
  let ownStandby = false;
  if (!standbyBase) {
    try {
      await run('bash', [join(import.meta.dirname, '../scripts/standby.sh'), 'start', String(STANDBY_PORT)]);
      standbyBase = `postgres://postgres@127.0.0.1:${STANDBY_PORT}/postgres`;
      ownStandby = true;
    } catch (error) {
      say(`  skipped: no standby could be started here (${(error as Error).message.split('\n')[0]}); set BENCH_DATABASE_READ_URL`);
      return;
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'console-bench-replica-'));
  const database = await emptyServerDatabase();
  const servers: Running[] = [];
  try {
    const standbyUrl = new URL(standbyBase);
    standbyUrl.pathname = new URL(database.url).pathname;
    // The first server seeds the demo; the second starts once the standby has it.
    const onPrimary = await startConsoleServer({ dataDir: join(dir, 'primary'), databaseUrl: database.url });
    servers.push(onPrimary);
    await waitForReplay(database.url, standbyUrl.toString());
    const withReplica = await startConsoleServer({ dataDir: join(dir, 'replica'), databaseUrl: database.url, env: { DATABASE_READ_URL: standbyUrl.toString() } });
    servers.push(withReplica);
    const headersPrimary = await signedInHeaders(onPrimary.url, 'viewer', 'Demo123456');
    const headersReplica = await signedInHeaders(withReplica.url, 'viewer', 'Demo123456');
    const tileJson = await (await fetch(`${onPrimary.url}/api/tiles/pipes.json`, { headers: headersPrimary })).json();
    const tiles = tilesOver(tileJson.bounds);
    let keyword = 0;
    let tile = 0;
    const reads = [
      { name: 'pipe list page, a new keyword each', next: () => `/api/pipelines?pageSize=20&keyword=${(keyword++ % 9000) + 1000}` },
      { name: `pipe tile z16 (${tiles.length} over the city)`, next: () => tiles[tile++ % tiles.length] },
    ];
    for (const read of reads) {
      const p = () => measure(onPrimary, headersPrimary, read.next);
      const r = () => measure(withReplica, headersReplica, read.next);
      const runs = await alternating(r, p);
      const [r1, r2] = runs.ours;
      const [p1, p2] = runs.peer;
      const avg = (a: Awaited<ReturnType<typeof p>>, b: typeof a) => ({ requestsPerSecond: (a.requestsPerSecond + b.requestsPerSecond) / 2, p50: (a.p50 + b.p50) / 2, p99: Math.max(a.p99, b.p99), failures: a.failures + b.failures, cpuPerThousand: (a.cpuPerThousand + b.cpuPerThousand) / 2 });
      const primary = avg(p1, p2);
      const replica = avg(r1, r2);
      say(`  ${read.name.padEnd(40)} from the replica ${describeLoad(replica)}, ${replica.cpuPerThousand.toFixed(2)} node CPU-s per 1,000`);
      say(`  ${''.padEnd(40)} from the primary ${describeLoad(primary)}, ${primary.cpuPerThousand.toFixed(2)} node CPU-s per 1,000 (replica at ${((replica.requestsPerSecond / primary.requestsPerSecond) * 100).toFixed(1)} %)`);
    }
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
    if (ownStandby) await run('bash', [join(import.meta.dirname, '../scripts/standby.sh'), 'remove', String(STANDBY_PORT)]).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchReplicaReads(console.log);
