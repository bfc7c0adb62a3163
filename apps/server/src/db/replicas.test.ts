import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { as, login, useDemoServer } from '../testing/app.ts';

const run = promisify(execFile);
const STANDBY = process.env.TEST_DATABASE_READ_URL;
const SCRIPT = join(import.meta.dirname, '../../../../scripts/standby.sh');

/** Polls until `ok` holds (the replicas are checked every 200 ms here). */
async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const started = Date.now();
  while (!(await ok())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// A real hot standby of the test server (CI: scripts/standby.sh start; TEST_DATABASE_READ_URL).
describe.skipIf(!process.env.TEST_DATABASE_URL || !STANDBY)('read replicas: a streaming hot standby', () => {
  const demo = useDemoServer({ databaseReadUrls: ['standby'], readCheckMs: 200, readMaxLagBytes: 1024 * 1024 });
  const reads = async (target: 'primary' | 'replica') => ((await demo.app.metrics.heavyReads.get()).values.find((v) => v.labels.target === target)?.value ?? 0);
  const up = () => demo.app.replicas.states()[0].up;
  const standbyQuery = async (text: string) => {
    const client = new pg.Client({ connectionString: STANDBY });
    await client.connect();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  };

  it('serves heavy reads from the standby, and a user who just wrote reads their write from the primary', async () => {
    await until(up, 'the standby is up');
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const before = await reads('replica');
    const list = await viewer({ method: 'GET', url: '/api/pipelines', query: { pageSize: '5' } });
    expect(list.statusCode).toBe(200);
    expect(await reads('replica')).toBe(before + 1);
    expect((await demo.app.replicas.states())[0].lagBytes).not.toBeNull();

    // The admin renames a pipe and at once searches for it: the primary answers (the
    // standby may not have it yet), and the new name is found.
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const pipe = list.json().result.list[0];
    const full = (await admin({ method: 'GET', url: `/api/pipelines/${pipe.id}` })).json().result;
    const road = `RYW-${Date.now()}`;
    const saved = await admin({ method: 'PUT', url: `/api/pipelines/${pipe.id}`, payload: { ...full, pipeId: road, geometry: JSON.stringify(full.geometry) } });
    expect(saved.statusCode, saved.body).toBe(200);
    const primaryBefore = await reads('primary');
    const found = await admin({ method: 'GET', url: '/api/pipelines', query: { keyword: road } });
    expect(found.json().result.list.map((p: { id: number }) => p.id)).toEqual([pipe.id]);
    expect(await reads('primary')).toBe(primaryBefore + 1);

    // Once the standby has replayed the write, the admin's reads go back to it, and see it there.
    await until(async () => {
      const replicaBefore = await reads('replica');
      const again = await admin({ method: 'GET', url: '/api/pipelines', query: { keyword: road, pageSize: '7' } });
      return (await reads('replica')) === replicaBefore + 1 && again.json().result.list.length === 1;
    }, 'the admin reads from the standby again');
  });

  it('leaves out a standby that falls behind or stops, reads go on from the primary, and /metrics says so', async () => {
    await until(up, 'the standby is up');
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const metrics = async () => (await demo.app.metrics.registry.metrics()).split('\n').filter((l) => l.startsWith('console_db_replica_')).join('\n');

    // Replay paused and 2 MB of WAL written: behind by more than the 1 MB allowed here.
    await standbyQuery('select pg_wal_replay_pause()');
    try {
      await demo.database.db.execute(sql.raw("create table wal_filler as select repeat('x', 1000) as pad from generate_series(1, 2500)"));
      await until(() => !up(), 'the standby is left out for its lag');
      expect(demo.app.replicas.states()[0].reason).toMatch(/^behind by \d+ bytes$/);
      expect(await metrics()).toMatch(/console_db_replica_up\{replica="replica1:[^"]+"\} 0/);
      const primaryBefore = await reads('primary');
      expect((await viewer({ method: 'GET', url: '/api/pipelines', query: { pageSize: '6' } })).statusCode).toBe(200);
      expect(await reads('primary')).toBe(primaryBefore + 1);
    } finally {
      await standbyQuery('select pg_wal_replay_resume()');
    }
    await until(up, 'the standby is back once it has caught up');
    expect(await metrics()).toMatch(/console_db_replica_up\{replica="replica1:[^"]+"\} 1/);

    // Stopped: not answering, left out; the console reads on; started again, used again.
    await run('bash', [SCRIPT, 'stop', new URL(STANDBY!).port]);
    try {
      await until(() => !up(), 'the stopped standby is left out');
      expect(demo.app.replicas.states()[0].reason).toMatch(/^not answering/);
      const list = await viewer({ method: 'GET', url: '/api/pipelines', query: { pageSize: '8' } });
      expect(list.statusCode).toBe(200);
      expect((await viewer({ method: 'GET', url: '/api/datav/overview' })).statusCode).toBe(200);
    } finally {
      await run('bash', [SCRIPT, 'start', new URL(STANDBY!).port]);
    }
    await until(up, 'the restarted standby is used again', 30_000);
  });

  it('a standby stopped under load: reads it fails are answered from the primary, none with 500', async () => {
    await until(up, 'the standby is up');
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const statuses = new Map<number, number>();
    let running = true;
    let n = 0;
    // Eight users listing pipes with keywords of their own (no cached page answers them).
    const user = async () => {
      while (running) {
        const i = n++;
        const answer = await viewer({ method: 'GET', url: '/api/pipelines', query: { keyword: i % 2 ? `W-${i}` : String(i), pageSize: String(10 + (i % 10)) } });
        statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
      }
    };
    const users = Array.from({ length: 8 }, user);
    const replicaBefore = await reads('replica');
    await until(async () => (await reads('replica')) > replicaBefore + 20, 'reads on the standby before it stops');
    await run('bash', [SCRIPT, 'stop', new URL(STANDBY!).port]);
    try {
      await until(() => !up(), 'the stopped standby is left out');
      const count = n;
      await until(() => n > count + 40, 'reads go on after the stop');
    } finally {
      running = false;
      await Promise.all(users);
      await run('bash', [SCRIPT, 'start', new URL(STANDBY!).port]);
    }
    expect(statuses.get(500) ?? 0).toBe(0);
    expect([...statuses.keys()].filter((s) => s >= 400)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(60);
    await until(up, 'the restarted standby is used again', 30_000);
  });
});
