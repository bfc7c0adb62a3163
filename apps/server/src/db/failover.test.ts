import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHosts } from './hosts.ts';
import { drillProject, signInOverHttp, startServerProcess, TestCluster, testPort, until } from '../testing/process.ts';

describe('multi-host DATABASE_URL', () => {
  it('reads the hosts and target_session_attrs as libpq does', () => {
    expect(parseHosts('postgres://console:s%40cret@db1:5432,db2:5433/console?target_session_attrs=read-write&sslmode=disable')).toEqual({
      urls: ['postgres://console:s%40cret@db1:5432/console?sslmode=disable', 'postgres://console:s%40cret@db2:5433/console?sslmode=disable'],
      readWrite: true,
    });
    expect(parseHosts('postgres://db1/console')).toEqual({ urls: ['postgres://db1/console'], readWrite: false });
  });
});

/**
 * Failover as a utility runs it: a primary with a synchronous streaming standby, the server on a
 * multi-host URL with target_session_attrs=read-write. The primary stops under writes, the
 * standby is promoted (pg_ctl promote); writes succeed again within 30 s, on the promoted server,
 * and every write answered 200 before the switch is there.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('failover to a promoted standby', () => {
  const port = testPort(55500);
  const primary = new TestCluster(port);
  const standby = new TestCluster(port + 1);
  let server: Awaited<ReturnType<typeof startServerProcess>>;

  beforeAll(async () => {
    await primary.run('init');
    await primary.query('create database console');
    await standby.run('standby', primary);
    // Synchronous: a commit is answered once the standby has it, so the switch loses nothing acknowledged.
    await primary.query("alter system set synchronous_standby_names = '*'");
    await primary.query('select pg_reload_conf()');
    await until(async () => (await primary.query<{ sync_state: string }>('select sync_state from pg_stat_replication')).at(0)?.sync_state === 'sync', 'the standby is synchronous');
    const url = `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/console?target_session_attrs=read-write`;
    server = await startServerProcess({ DATABASE_URL: url, DB_CHECK_S: '0.5', DB_TIMEOUT_S: '2' });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await primary.run('remove');
    await standby.run('remove');
  });

  it('the primary stops, the standby is promoted: writes succeed again within 30 s and no acknowledged write is lost', async () => {
    const call = await signInOverHttp(server.base, 'admin');
    const acknowledged: number[] = [];
    const statuses = new Map<number, number>();
    let running = true;
    let n = 0;
    const writer = async () => {
      while (running) {
        const code = `FO-${process.pid}-${n++}`;
        const response = await call('/projects', { method: 'POST', json: drillProject(code) }).catch(() => null);
        const status = response?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 200) acknowledged.push((await response!.json()).result.id);
        else await new Promise((r) => setTimeout(r, 100));
      }
    };
    const writers = [writer(), writer()];
    try {
      await until(() => acknowledged.length >= 5, 'writes on the primary');
      await primary.run('stop');
      const switched = Date.now();
      const before = acknowledged.length;
      await standby.run('promote');
      await until(() => acknowledged.length >= before + 5, 'writes after the promotion', 30_000);
      expect(Date.now() - switched).toBeLessThan(30_000);
    } finally {
      running = false;
      await Promise.all(writers);
    }
    expect(server.alive).toBe(true);
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    const kept = await standby.query<{ id: number }>(`select id from projects where id in (${acknowledged.join(',')})`, 'console');
    expect(kept.length).toBe(acknowledged.length);
    expect((await standby.query<{ standby: boolean }>('select pg_is_in_recovery() as standby'))[0].standby).toBe(false);
  }, 180_000);
});
