import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { DEMO_PASSWORD } from '../demo/seed.ts';
import { encryptPassword } from './app.ts';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '../../../../scripts/pgcluster.sh');

/** A throwaway PostgreSQL server of the tests' own (scripts/pgcluster.sh), which they may stop, hang or promote. */
export class TestCluster {
  constructor(readonly port: number) {}

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async run(action: 'init' | 'start' | 'stop' | 'promote' | 'remove' | 'standby', primary?: TestCluster) {
    await run('bash', [SCRIPT, action, String(this.port), ...(primary ? [String(primary.port)] : [])], { timeout: 120_000 });
  }

  /** The server's processes (postmaster and backends), for SIGSTOP and SIGCONT. */
  async pids(): Promise<number[]> {
    const { stdout } = await run('bash', ['-c', `p=$(head -n 1 /tmp/console-pg-${this.port}/postmaster.pid); echo $p; pgrep -P $p || true`]);
    return stdout.split(/\s+/).filter(Boolean).map(Number);
  }

  async query<T extends pg.QueryResultRow>(text: string, database = 'postgres'): Promise<T[]> {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${this.port}/${database}` });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  }
}

/** A port no other test file picks (each file takes its own range by name). */
export const testPort = (base: number) => base + Math.floor(Math.random() * 400);

/**
 * The server as `npm start` runs it (src/main.ts in a process of its own), on the given
 * environment; `output` is what it printed. It must say it is running within a minute.
 */
export async function startServerProcess(env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), 'console-process-'));
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(import.meta.dirname, '../..'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dir, 'data'), WEB_DIST: '/nonexistent', LOG_LEVEL: 'warn', MQTT_LISTEN: '127.0.0.1:0', ...env },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const started = Date.now();
  while (!output.includes('is running')) {
    const failed = child.exitCode !== null ? 'server exited' : Date.now() - started > 90_000 ? 'server did not start' : null;
    if (failed) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${failed}: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    child,
    get output() {
      return output;
    },
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in over HTTP as the console does (key, encrypted password, form post); answers a caller with the token and the user's first enterprise. */
export async function signInOverHttp(base: string, username: string) {
  const key = await fetch(`${base}/api/getEncryptedString`);
  const cookie = key.headers.get('set-cookie')!.split(';')[0];
  const { key: aesKey, iv } = (await key.json()).result;
  const login = await fetch(`${base}/api/checkLogin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ username, password: encryptPassword(DEMO_PASSWORD, aesKey, iv) }).toString(),
  });
  const token = (await login.json()).result.token as string;
  const enterprises = (await (await fetch(`${base}/api/enterprise/getUserEnterprises`, { headers: { 'Access-Token': token } })).json()).result as { id: number }[];
  const enterpriseId = enterprises[0].id;
  return (path: string, init: { method?: string; json?: unknown; form?: FormData; language?: string; timeoutMs?: number } = {}) =>
    fetch(`${base}/api${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'Access-Token': token,
        'Enterprise-Id': String(enterpriseId),
        'Accept-Language': init.language ?? 'en-US',
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.form,
      signal: AbortSignal.timeout(init.timeoutMs ?? 30_000),
    });
}

/** Polls until `ok` holds, or fails naming what did not happen. */
export async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const started = Date.now();
  while (!(await Promise.resolve().then(ok).catch(() => false))) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A project as the console creates one, for the tests that write while the database misbehaves. */
export function drillProject(code: string) {
  return {
    name: `演练 ${code}`,
    code,
    city: '杭州市',
    district: '滨江区',
    area: { type: 'Polygon', coordinates: [[[120.15, 30.15], [120.18, 30.15], [120.18, 30.18], [120.15, 30.18], [120.15, 30.15]]] },
    networkTypes: ['water'],
    startDate: '2026-02-01',
    endDate: '2026-11-30',
    status: 'active',
  };
}
