import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drillProject, signInOverHttp, startServerProcess, TestCluster, testPort, until } from '../testing/process.ts';

/**
 * The server as `npm start` runs it, on a PostgreSQL server of the test's own that is stopped,
 * started and hung (its processes sent SIGSTOP) under load: the process lives on, answers 503
 * with Retry-After while the database is away, and resumes by itself when it is back.
 * Runs with the PostgreSQL suite (CI: `npm run test:pg`, as root for scripts/pgcluster.sh).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the database goes away and comes back', () => {
  const cluster = new TestCluster(testPort(55000));
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let call: Awaited<ReturnType<typeof signInOverHttp>>;

  beforeAll(async () => {
    await cluster.run('init');
    await cluster.query('create database console');
    server = await startServerProcess({ DATABASE_URL: cluster.url.replace(/\/postgres$/, '/console'), DB_CHECK_S: '0.5', DB_TIMEOUT_S: '2' });
    call = await signInOverHttp(server.base, 'admin');
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await cluster.run('remove');
  });

  const health = async () => (await (await fetch(`${server.base}/api/health`)).json()).result.status as string;

  /** Reads and writes from 6 users at once until stopped: every status seen, and the ids of the projects whose creation was answered 200. */
  function load() {
    const statuses = new Map<number, number>();
    const acknowledged: number[] = [];
    let running = true;
    let n = 0;
    const user = async (writer: boolean) => {
      while (running) {
        const i = n++;
        const response = writer
          ? await call('/projects', { method: 'POST', json: drillProject(`OUT-${process.pid}-${i}`) }).catch(() => null)
          : await call('/pipelines', { timeoutMs: 15_000 }).catch(() => null);
        const status = response?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (response && writer && status === 200) acknowledged.push((await response.json()).result.id);
        else await response?.arrayBuffer();
        if (status !== 200) await new Promise((r) => setTimeout(r, 50));
      }
    };
    const users = [user(true), user(true), user(false), user(false), user(false), user(false)];
    return {
      statuses,
      acknowledged,
      async stop() {
        running = false;
        await Promise.all(users);
      },
    };
  }

  it('stopped under load: no exit, 503 with Retry-After in the caller language while away, everything back after, no acknowledged write lost', async () => {
    const traffic = load();
    await until(() => traffic.acknowledged.length >= 3, 'writes acknowledged before the stop');
    await cluster.run('stop');
    await until(async () => (await health()) === 'degraded', 'health says degraded', 10_000);
    const ready = await fetch(`${server.base}/api/ready`);
    expect(ready.status).toBe(503);
    const refused = await call('/pipelines', { language: 'zh-CN' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await refused.json()).message).toBe('数据库暂时无法连接，服务器正在重试，请稍后再试');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(server.alive).toBe(true);

    await cluster.run('start');
    await until(async () => (await health()) === 'ok', 'health says ok again', 30_000);
    await until(async () => (await fetch(`${server.base}/api/ready`)).status === 200, 'ready again', 10_000);
    const after = traffic.acknowledged.length;
    await until(() => traffic.acknowledged.length >= after + 3, 'writes acknowledged after the start', 30_000);
    await traffic.stop();

    expect(server.alive).toBe(true);
    // Every answer was a success or a 503: none failed as the server's fault, none hung.
    expect([...traffic.statuses.keys()].sort()).toEqual([200, 503]);
    expect(traffic.statuses.get(503)).toBeGreaterThan(0);
    // Every write answered 200 is there.
    const kept = await cluster.query<{ id: number }>(`select id from projects where id in (${traffic.acknowledged.join(',')})`, 'console');
    expect(kept.length).toBe(traffic.acknowledged.length);
    // The change feed and the alert feed listen again.
    await until(async () => (await cluster.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where query ilike 'listen %'")).at(0)!.n >= 2, 'both feeds listen again', 10_000);
    expect(server.output).not.toMatch(/Unhandled 'error' event|unhandled rejection/);
  }, 180_000);

  it('an import writing when the database goes away fails as a whole, writes nothing, and is started again after', async () => {
    await until(async () => (await health()) === 'ok', 'the database answers');
    const total = async () => (await (await call('/pipelines?pageSize=1')).json()).result.total as number;
    const before = await total();
    // A utility's register of 150,000 segments: long enough to be writing when the database stops.
    const csv = ['pipeId,networkType,spec,wkt', ...Array.from({ length: 150_000 }, (_, i) => `OUT-${i},供水,DN300,"LINESTRING(${(120.1 + (i % 500) * 2e-4).toFixed(5)} ${(30.15 + Math.floor(i / 500) * 2e-4).toFixed(5)},${(120.1002 + (i % 500) * 2e-4).toFixed(5)} ${(30.15 + Math.floor(i / 500) * 2e-4).toFixed(5)})"`)].join('\r\n');
    const upload = async () => {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'pipes.csv');
      const analysed = await call('/pipelines/imports', { method: 'POST', form, timeoutMs: 120_000 });
      expect(analysed.status).toBe(200);
      const job = (await analysed.json()).result as { id: number; suggestedMapping: unknown };
      expect((await call(`/pipelines/imports/${job.id}/start`, { method: 'POST', json: { mapping: job.suggestedMapping } })).status).toBe(200);
      return job.id;
    };
    const status = async (id: number) => {
      const answer = await call(`/pipelines/imports/${id}`);
      return answer.status === 200 ? ((await answer.json()).result as { status: string; problems: { reason: string }[] }) : null;
    };

    const first = await upload();
    await until(async () => (await status(first))?.status === 'writing', 'the import is writing', 120_000);
    await cluster.run('stop');
    await new Promise((r) => setTimeout(r, 1_500));
    await cluster.run('start');
    await until(async () => (await health()) === 'ok', 'the database answers again');
    // Failed as a whole (at once, or once its heartbeat has been silent 30 s), with a message.
    await until(async () => (await status(first))?.status === 'failed', 'the interrupted import is failed', 90_000);
    expect((await status(first))!.problems.length).toBeGreaterThan(0);
    expect(await total()).toBe(before);

    const second = await upload();
    await until(async () => ['succeeded', 'failed'].includes((await status(second))?.status ?? ''), 'the import started again ends', 180_000);
    expect((await status(second))!.status).toBe('succeeded');
    expect(server.alive).toBe(true);
  }, 420_000);

  it('hung (its processes stopped with SIGSTOP): requests fail within a bounded time, and all is well after SIGCONT', async () => {
    expect((await call('/pipelines')).status).toBe(200);
    const pids = await cluster.pids();
    expect(pids.length).toBeGreaterThan(3);
    process.kill(pids[0], 'SIGSTOP');
    for (const pid of pids.slice(1)) process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      // A write reaches the pool's held connections; a fresh list would too.
      const statuses = await Promise.all([call('/projects', { method: 'POST', json: drillProject(`HANG-${process.pid}`) }), call('/pipelines?keyword=hung')].map((p) => p.then((r) => r.status, () => 0)));
      // DB_TIMEOUT_S=2 and a check every 0.5 s: the watch finds it hung, closes the connections, requests fail.
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(statuses).toEqual([503, 503]);
      expect(await health()).toBe('degraded');
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    await until(async () => (await health()) === 'ok', 'health says ok after SIGCONT', 30_000);
    await until(async () => (await call('/pipelines')).status === 200, 'lists answer again', 10_000);
    expect((await call('/projects', { method: 'POST', json: drillProject(`AFTER-${process.pid}`) })).status).toBe(200);
    expect(server.alive).toBe(true);
  }, 120_000);
});
