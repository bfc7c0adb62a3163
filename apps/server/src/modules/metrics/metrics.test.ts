import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { as, createTestApp, login, useDemoServer } from '../../testing/app.ts';
import { openDatabase, queryRows } from '../../db/client.ts';
import { ConsoleMetrics } from './registry.ts';
import { listenForMetrics } from './routes.ts';

const TOKEN = 'scrape-0123456789abcdef';
const demo = useDemoServer({ metricsToken: TOKEN });

/** One sample's value from the Prometheus text, by its name and labels as written. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('metrics', () => {
  it('are scraped with the token only, and count requests by route template, rule runs, assessments, the pool, imports and the process', async () => {
    const scrape = (authorization?: string) => demo.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('Bearer not-the-token-at-all')).statusCode).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).statusCode).toBe(401);

    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const projects = (await admin({ method: 'GET', url: '/api/projects' })).json().result as { id: number }[];
    for (const { id } of [projects[0], projects[1], projects[0]]) expect((await admin({ method: 'GET', url: `/api/projects/${id}` })).statusCode).toBe(200);
    await demo.app.inject({ method: 'GET', url: '/api/health' });
    expect((await admin({ method: 'POST', url: '/api/pipe-risk/runs' })).statusCode).toBe(200);
    expect((await admin({ method: 'POST', url: '/api/alerts/check' })).statusCode).toBe(200);

    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = response.body;
    // By the route's template, not its URL: three projects are one series.
    expect(sample(text, 'console_http_requests_total{method="GET",route="/api/projects/:id",status="200"}')).toBe(3);
    expect(text).not.toContain(`route="/api/projects/${projects[0].id}"`);
    expect(sample(text, 'console_http_requests_total{method="GET",route="/api/health",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'console_http_request_duration_seconds_count{method="GET",route="/api/projects/:id",status="200"}')).toBe(3);
    expect(sample(text, 'console_alert_rule_runs_total{rule="settlementThreshold"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'console_alert_rule_duration_seconds_count{rule="pipeRiskRise"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'console_risk_assessment_duration_seconds_count{outcome="succeeded"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'console_alert_live_streams')).toBe(0);
    expect(sample(text, 'console_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'console_db_pool_connections{state="waiting"}')).toBe(0);
    const [{ n }] = await queryRows<{ n: number }>(demo.database.db, sql`select count(*)::int as n from import_jobs where status = 'succeeded'`);
    expect(sample(text, 'console_import_jobs{state="succeeded"}') ?? 0).toBe(Number(n));
    expect(sample(text, 'console_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('console_nodejs_eventloop_lag_seconds');
    // The scraper's own requests are counted too, never its token.
    expect(text).not.toContain(TOKEN);
  });

  it('are not there at all without a token, and are served on an address of their own', async () => {
    // A server with the console's pages and no METRICS_TOKEN: 404, not the console's page (its
    // not-found handler serves the page for any other GET path).
    const web = mkdtempSync(join(tmpdir(), 'console-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>console</title>');
    const plain = await createTestApp({ webDist: web });
    try {
      const bare = await plain.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(bare.statusCode).toBe(404);
      expect(bare.headers['content-type']).toMatch(/json/);
      expect((await plain.app.inject({ method: 'GET', url: '/project/list' })).body).toContain('<title>console</title>');
    } finally {
      await plain.close();
      rmSync(web, { recursive: true, force: true });
    }
    const metrics = new ConsoleMetrics(demo.database);

    const server = await listenForMetrics(metrics, '127.0.0.1:0');
    try {
      const port = (server.address() as AddressInfo).port;
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('console_db_pool_connections');
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('health and readiness', () => {
  it('says live while the process answers, and ready only with every migration in', async () => {
    const live = await demo.app.inject({ method: 'GET', url: '/api/health' });
    expect(live.statusCode).toBe(200);
    expect(live.json().result).toMatchObject({ status: 'ok', database: { reachable: true } });
    const ready = await demo.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    const { migrations } = ready.json().result;
    expect(migrations.applied).toBe(migrations.expected);
    expect(migrations.expected).toBeGreaterThan(30);

    // A database one migration short (a node started before the migration ran): not ready.
    // The migrations' journal is the owner's where there are two roles (the server's role reads it only).
    const owner = demo.ownerUrl ? await openDatabase({ databaseUrl: demo.ownerUrl, dataDir: null }) : null;
    const journal = owner?.db ?? demo.database.db;
    const [last] = await queryRows<{ id: number; hash: string; created_at: string }>(journal, sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`);
    await journal.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last.id}`);
    try {
      const behind = await demo.app.inject({ method: 'GET', url: '/api/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json().result).toMatchObject({ ready: false, migrations: { applied: migrations.expected - 1 } });
      // Still live: a restart would not bring the migration.
      expect((await demo.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await journal.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last.id}, ${last.hash}, ${last.created_at})`);
      await owner?.close();
    }
  });
});
