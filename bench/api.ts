/**
 * API load at 64 connections: the real server (apps/server/src/main.ts) in a process of its own,
 * against a bare Fastify hello-world in another, both driven over HTTP by autocannon from this
 * process, the same way, for the same time, in alternating order (hello, ours, ours, hello).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import CryptoJS from 'crypto-js';
import { cpuSeconds } from './cpu.ts';

const ROOT = join(import.meta.dirname, '..');
const SERVER_DIR = join(ROOT, 'apps/server');
export const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);

export interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and connection errors or timeouts. */
  failures: number;
  /** Requests answered or failed in all. */
  answers: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 120_000) {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before answering ${url}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`no answer from ${url} in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until the server is idle again: its health route (one database round trip) answers within
 * 10 ms three times in a row. A run kept busy leaves queued work behind (the requests of the
 * connections autocannon closed still run); a run measured right after would time that, not itself.
 */
export async function settled(server: Running, timeoutMs = 60_000) {
  const started = Date.now();
  for (let quick = 0; quick < 3 && Date.now() - started < timeoutMs; ) {
    const asked = performance.now();
    await fetch(`${server.url}/api/health`).then((r) => r.arrayBuffer());
    quick = performance.now() - asked < 10 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Running {
  url: string;
  /** The server's process (its CPU time: cpuSeconds). */
  pid?: number;
  stop(): Promise<void>;
}

export { cpuSeconds };

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The console's server as `npm start` runs it: embedded PGlite in dataDir, or the PostgreSQL of databaseUrl. */
export async function startConsoleServer(options: { dataDir: string; databaseUrl?: string; webDist?: string; env?: NodeJS.ProcessEnv; logTo?: 'null' | 'pipe'; logFile?: string; nodeArgs?: string[] }): Promise<Running> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: options.dataDir, WEB_DIST: options.webDist ?? '/nonexistent', ...options.env };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  // The log read from a pipe, as a service manager reads it (or dropped unread).
  // With `logFile`, the log is kept in that file to be read after the run.
  const stdout = options.logFile ? openSync(options.logFile, 'a') : options.logTo === 'pipe' ? 'pipe' : 'ignore';
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/main.ts'], { cwd: SERVER_DIR, env, stdio: ['ignore', stdout, 'inherit'] });
  if (typeof stdout === 'number') closeSync(stdout);
  child.stdout?.resume();
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, child);
  return { url, pid: child.pid, stop: () => stopChild(child) };
}

/** The peer: Fastify answering {hello: 'world'}, nothing else, in a process of its own. */
export async function startHelloWorld(): Promise<Running> {
  const port = await freePort();
  const script = `import Fastify from 'fastify'; const app = Fastify(); app.get('/', async () => ({ hello: 'world' })); await app.listen({ port: ${port}, host: '127.0.0.1' });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: SERVER_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url, child);
  return { url, stop: () => stopChild(child) };
}

/** Signs in as the console does and returns the headers of an authenticated request. */
export async function signedInHeaders(url: string, username: string, password: string): Promise<Record<string, string>> {
  const keyResponse = await fetch(`${url}/api/getEncryptedString`);
  const cookie = keyResponse.headers.get('set-cookie')!.split(';')[0];
  const { key, iv } = (await keyResponse.json()).result;
  const encrypted = CryptoJS.AES.encrypt(password, CryptoJS.enc.Utf8.parse(key), { iv: CryptoJS.enc.Utf8.parse(iv), mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.ZeroPadding }).toString();
  const login = await fetch(`${url}/api/checkLogin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams({ username, password: encrypted }) });
  const body = await login.json();
  if (!body.success) throw new Error(`sign-in of ${username}: ${body.message}`);
  const token = body.result.token as string;
  const enterprises = (await (await fetch(`${url}/api/enterprise/getUserEnterprises`, { headers: { 'Access-Token': token } })).json()).result as { id: number }[];
  return { 'Access-Token': token, 'Enterprise-Id': String(enterprises[0].id) };
}

/** CONNECTIONS connections for SECONDS seconds against one URL. */
export async function load(url: string, headers: Record<string, string> = {}, request: { method?: 'PUT' | 'POST'; body?: string; connections?: number; seconds?: number } = {}): Promise<Load> {
  const { seconds = SECONDS, ...options } = request;
  // Asked as a browser asks: it takes gzip (hello-world's answer is too small to compress).
  const result = await autocannon({ url, connections: options.connections ?? CONNECTIONS, duration: seconds, headers: { 'accept-encoding': 'gzip, deflate, br', ...headers }, timeout: 10, ...options });
  return loadOf(result);
}

/** What a run of autocannon says, as the bench reports it. */
const loadOf = (result: { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number }): Load => ({
  requestsPerSecond: result.requests.average,
  answers: result.requests.total,
  p50: result.latency.p50,
  p99: result.latency.p99,
  failures: result.non2xx + result.errors + result.timeouts,
});

/**
 * CONNECTIONS connections asking for `paths` in turn, each request the next path: a read the
 * server's caches cannot answer when no path comes twice within their life. `amount` stops the run
 * after that many answers (each path once, say); otherwise it runs SECONDS.
 */
export async function loadEach(base: string, paths: string[], headers: Record<string, string> = {}, amount?: number): Promise<Load> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    ...(amount ? { amount } : { duration: SECONDS }),
    headers: { 'accept-encoding': 'gzip, deflate, br', ...headers },
    timeout: 10,
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
  });
  return loadOf(result);
}

/**
 * Requests at random moments, a Poisson stream of `rate` a second (as `rate` users each asking
 * about once a second send them, not all at the same instant), each the next of `paths`, for
 * `seconds`: what users at a human pace meet. autocannon's connections each ask again the moment
 * their answer comes, so its latencies are those of a queue kept full. A latency here runs from
 * the moment a request was due to its answer's last byte, so a late send counts too.
 */
export async function openLoop(base: string, paths: string[], headers: Record<string, string>, rate: number, seconds: number): Promise<Load> {
  const latencies: number[] = [];
  let failures = 0;
  const asked: Promise<void>[] = [];
  const started = performance.now();
  let due = 0;
  for (let i = 0; due < seconds * 1000; i++) {
    // Exponential gaps between requests: a Poisson stream.
    due += (-Math.log(1 - Math.random()) / rate) * 1000;
    const wait = started + due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const dueAt = started + due;
    asked.push(
      fetch(`${base}${paths[i % paths.length]}`, { headers: { 'accept-encoding': 'gzip, deflate, br', ...headers }, signal: AbortSignal.timeout(10_000) })
        .then(async (response) => {
          await response.arrayBuffer();
          if (response.ok) latencies.push(performance.now() - dueAt);
          else failures++;
        })
        .catch(() => {
          failures++;
        }),
    );
  }
  await Promise.all(asked);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requestsPerSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), failures, answers: latencies.length + failures };
}

const mean = (loads: Load[]): Load => ({
  requestsPerSecond: loads.reduce((s, l) => s + l.requestsPerSecond, 0) / loads.length,
  p50: loads.reduce((s, l) => s + l.p50, 0) / loads.length,
  p99: Math.max(...loads.map((l) => l.p99)),
  failures: loads.reduce((s, l) => s + l.failures, 0),
  answers: loads.reduce((s, l) => s + l.answers, 0),
});

/**
 * Ours against hello-world, alternating (hello, ours, ours, hello) so that neither always runs
 * on a warmer or a busier machine; rates are averaged, p99 is the worse of the two runs. A first
 * short run of each warms the JIT and the caches and is not counted.
 */
export async function compareWithHelloWorld(ours: () => Promise<Load>, hello: () => Promise<Load>) {
  const runs = await alternating(ours, hello);
  return { ours: mean(runs.ours), hello: mean(runs.peer) };
}

/** Two runs each of ours and a peer, after a warm-up of each not counted, in the order peer, ours, ours, peer. */
export async function alternating<T>(ours: () => Promise<T>, peer: () => Promise<T>): Promise<{ ours: [T, T]; peer: [T, T] }> {
  await ours();
  await peer();
  const p1 = await peer();
  const o1 = await ours();
  const o2 = await ours();
  const p2 = await peer();
  return { ours: [o1, o2], peer: [p1, p2] };
}

export const describeLoad = (l: Omit<Load, 'answers'>) => `${Math.round(l.requestsPerSecond).toLocaleString('en')} req/s, p50 ${+l.p50.toFixed(1)} ms, p99 ${+l.p99.toFixed(1)} ms${l.failures ? `, ${l.failures} failed` : ''}`;

/** A load run with the CPU time the server's process spent on it. */
export interface LoadWithCpu extends Load {
  cpu: number;
}

/** Runs `load` against `server`, counting its process's CPU-seconds meanwhile. */
export async function loadWithCpu(server: Running, path: string, headers: Record<string, string>, request: Parameters<typeof load>[2] = {}): Promise<LoadWithCpu> {
  const before = await cpuSeconds(server.pid);
  const result = await load(`${server.url}${path}`, headers, request);
  const cpu = (await cpuSeconds(server.pid)) - before;
  return { ...result, cpu };
}

/**
 * Many short runs of ours and a peer in the order ours, peer, peer, ours, … (after a warm-up of
 * each not counted): where two long runs a side still differ by 10 % on a shared machine, slices
 * of a second or two cancel the machine's drift between them.
 */
export async function interleaved<T>(ours: () => Promise<T>, peer: () => Promise<T>, pairs: number): Promise<{ ours: T[]; peer: T[] }> {
  await ours();
  await peer();
  const runs = { ours: [] as T[], peer: [] as T[] };
  for (let pair = 0; pair < pairs; pair++) {
    const [first, second] = pair % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
    runs[first].push(await (first === 'ours' ? ours : peer)());
    runs[second].push(await (second === 'ours' ? ours : peer)());
  }
  return runs;
}

/** Runs of one side together: mean rate and p50, worst p99, CPU-seconds per 1,000 requests. */
export const meanWithCpu = (runs: LoadWithCpu[]) => ({
  requestsPerSecond: runs.reduce((s, r) => s + r.requestsPerSecond, 0) / runs.length,
  p50: runs.reduce((s, r) => s + r.p50, 0) / runs.length,
  p99: Math.max(...runs.map((r) => r.p99)),
  failures: runs.reduce((s, r) => s + r.failures, 0),
  cpuPerThousand: (1000 * runs.reduce((s, r) => s + r.cpu, 0)) / runs.reduce((s, r) => s + r.answers, 0),
});
