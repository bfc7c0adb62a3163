import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOverHttp, startServerProcess, until } from '../testing/process.ts';

/**
 * Two roles on a PostgreSQL server, as the README has an operator make them: the owner runs the
 * migrations (DATABASE_OWNER_URL), the server works as the application's role (DATABASE_URL),
 * which can add to and read the audit trail and do nothing else to it.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('an audit trail the application cannot erase', () => {
  const suffix = randomBytes(4).toString('hex');
  const [app, owner, database] = [`console_app_${suffix}`, `console_owner_${suffix}`, `console_test_roles_${suffix}`];
  const server = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://localhost');
  const urlAs = (role: string) => Object.assign(new URL(server), { username: role, password: '', pathname: `/${database}` }).toString();
  let console_: Awaited<ReturnType<typeof startServerProcess>>;
  const asSuperuser = async (text: string, db = server.pathname.slice(1)) => {
    const client = new pg.Client({ connectionString: Object.assign(new URL(server), { pathname: `/${db}` }).toString() });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    // The README's SQL for the two roles.
    await asSuperuser(`create role ${app} login`);
    await asSuperuser(`create role ${owner} login`);
    await asSuperuser(`grant ${app} to ${owner}`);
    await asSuperuser(`create database ${database} owner ${owner}`);
    console_ = await startServerProcess({ DATABASE_URL: urlAs(app), DATABASE_OWNER_URL: urlAs(owner) });
  }, 180_000);

  afterAll(async () => {
    await console_?.stop();
    await asSuperuser(`drop database if exists ${database} with (force)`);
    await asSuperuser(`drop role if exists ${owner}`);
    await asSuperuser(`drop role if exists ${app}`);
  });

  it('the server works as the application role and records writes; that role can insert and read audit records and change none', async () => {
    const call = await signInOverHttp(console_.base, 'admin');
    const created = await call('/projects', {
      method: 'POST',
      json: { name: '审计角色', code: `ROLE-${suffix}`, city: '杭州市', district: '滨江区', area: { type: 'Polygon', coordinates: [[[120.15, 30.15], [120.18, 30.15], [120.18, 30.18], [120.15, 30.15]]] }, networkTypes: ['water'], startDate: '2026-02-01', endDate: '2026-11-30', status: 'active' },
    });
    expect(created.status).toBe(200);
    const tables = await asSuperuser("select tablename, tableowner from pg_tables where schemaname = 'public' and tablename in ('audit_events', 'projects', 'pipes')", database);
    expect(Object.fromEntries(tables.map((t) => [t.tablename, t.tableowner]))).toEqual({ audit_events: owner, projects: app, pipes: app });

    const client = new pg.Client({ connectionString: urlAs(app) });
    await client.connect();
    try {
      // The trail is written a moment after the answer (its journal is flushed in batches).
      await until(async () => (await client.query(`select count(*)::int as n from audit_events where route like '/api/projects%' and method = 'POST'`)).rows[0].n > 0, 'the write is recorded');
      await client.query(`insert into audit_events (kind, method, route, object, outcome, status) values ('write', 'POST', '/api/test', 'test', 'success', 200)`);
      const refusals: Record<string, string | null> = {};
      for (const [what, text] of [
        ['update', `update audit_events set username = 'someone else'`],
        ['delete', `delete from audit_events`],
        ['truncate', `truncate audit_events`],
        ['disable triggers', `alter table audit_events disable trigger all`],
        ['disable its trigger', `alter table audit_events disable trigger audit_events_no_change`],
        ['alter', `alter table audit_events add column note text`],
        ['drop', `drop table audit_events`],
        ['replace its trigger function', `create or replace function audit_events_append_only() returns trigger language plpgsql as $$ begin return old; end $$`],
        ['rename', `alter table audit_events rename to audit_old`],
      ] as const) {
        refusals[what] = await client.query(text).then(() => null, (error: { code?: string }) => error.code ?? 'error');
      }
      expect(refusals).toEqual({
        update: '42501',
        delete: '42501',
        truncate: '42501',
        'disable triggers': '42501',
        'disable its trigger': '42501',
        alter: '42501',
        drop: '42501',
        'replace its trigger function': '42501',
        rename: '42501',
      });
    } finally {
      await client.end();
    }
    expect(console_.output).not.toMatch(/pruning the audit trail failed|permission denied/);
  });
});
