import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { as, login, loginResponse, useDemoServer } from '../../testing/app.ts';
import { auditEvents } from '../../db/schema.ts';
import { pruneAudit } from './service.ts';
import { openDatabase } from '../../db/client.ts';
import { AuditJournal, JOURNAL_HOST } from './journal.ts';
import { AuditWriter } from './recorder.ts';
import { auditJournalMarks } from '../../db/schema.ts';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nonEmpty } from '../../testing/lists.ts';

describe('audit trail', () => {
  const demo = useDemoServer();
  const events = async (token: string, enterpriseId: number | undefined, query: Record<string, string> = {}) => {
    const response = await as(demo.app, token, enterpriseId)({ method: 'GET', url: '/api/audit/events', query });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().result as { list: { id: number; enterpriseId: number | null; kind: string; username: string; object: string; objectId: string | null; changes: Record<string, { before?: unknown; after?: unknown }> | null; outcome: string; address: string; route: string; role: string }[]; total: number; nextBefore: number | null };
  };

  it('records a setting changed with the fields before and after, for that enterprise’s admins only', async () => {
    const admin = await login(demo.app, 'admin');
    const settings = (await as(demo.app, admin, demo.ids.water)({ method: 'GET', url: '/api/alerts/settings' })).json().result;
    const saved = await as(demo.app, admin, demo.ids.water)({ method: 'PUT', url: '/api/alerts/settings', payload: { ...settings, leakRepairDays: settings.leakRepairDays + 3 }, headers: { 'user-agent': 'AuditTest/1.0' } });
    expect(saved.statusCode).toBe(200);

    const { list } = await events(admin, demo.ids.water, { object: 'alerts/settings' });
    expect(list[0]).toMatchObject({ kind: 'write', username: 'admin', role: 'admin', outcome: 'ok', route: '/api/alerts/settings' });
    expect(list[0].changes).toEqual({ leakRepairDays: { before: settings.leakRepairDays, after: settings.leakRepairDays + 3 } });
    expect(list[0].address).toBeTruthy();
    // Map settings: the answer is the saved state (not read again), the same fields as read before.
    const map = (await as(demo.app, admin, demo.ids.water)({ method: 'GET', url: '/api/enterprise/mapSettings' })).json().result;
    expect((await as(demo.app, admin, demo.ids.water)({ method: 'PUT', url: '/api/enterprise/mapSettings', payload: { ...map, zoomLevel: map.zoomLevel + 2 } })).statusCode).toBe(200);
    const mapRecord = (await events(admin, demo.ids.water, { object: 'enterprise/mapSettings' })).list[0];
    expect(mapRecord.changes).toEqual({ zoomLevel: { before: map.zoomLevel, after: map.zoomLevel + 2 } });

    // A member reads no trail; the gas utility's admin sees none of the water utility's records.
    const member = await login(demo.app, 'member');
    expect((await as(demo.app, member, demo.ids.water)({ method: 'GET', url: '/api/audit/events' })).statusCode).toBe(403);
    const both = await login(demo.app, 'both');
    const gasSettings = (await as(demo.app, both, demo.ids.gas)({ method: 'GET', url: '/api/alerts/settings' })).json().result;
    await as(demo.app, both, demo.ids.gas)({ method: 'PUT', url: '/api/alerts/settings', payload: { ...gasSettings, bowlGapM: 80 } });
    const gas = await events(both, demo.ids.gas);
    expect(gas.list.length).toBeGreaterThan(0);
    expect(nonEmpty(gas.list).every((e) => e.enterpriseId === demo.ids.gas)).toBe(true);
    // Nor may the gas utility's admin ask for the water utility's (the enterprise filter is the platform's).
    const asked = await events(both, demo.ids.gas, { enterpriseId: String(demo.ids.water) });
    expect(nonEmpty(asked.list).every((e) => e.enterpriseId === demo.ids.gas)).toBe(true);
  });

  it('records a refused write and a role change with the member’s role before and after', async () => {
    const admin = await login(demo.app, 'admin');
    const bad = await as(demo.app, admin, demo.ids.water)({ method: 'PUT', url: '/api/pipe-risk/weights', payload: { nonsense: true } });
    expect(bad.statusCode).toBe(400);
    // Without a valid sign-in a write names no one: not recorded (a flood cannot fill the trail).
    const count = async () => {
      await demo.app.auditTrail!.flushed();
      return ((await demo.database.db.execute(sql`select count(*)::int as n from audit_events`)) as unknown as { rows: { n: number }[] }).rows[0].n;
    };
    const before = await count();
    expect((await demo.app.inject({ method: 'PUT', url: '/api/pipe-risk/weights', payload: {}, headers: { 'Access-Token': 'not-a-token' } })).statusCode).toBe(401);
    expect(await count()).toBe(before);
    const members = (await as(demo.app, admin, demo.ids.water)({ method: 'GET', url: '/api/enterprise/members' })).json().result as { userId: number; username: string }[];
    const viewer = members.find((m) => m.username === 'viewer')!;
    expect((await as(demo.app, admin, demo.ids.water)({ method: 'PUT', url: `/api/enterprise/members/${viewer.userId}/role`, payload: { role: 'member' } })).statusCode).toBe(200);
    expect((await as(demo.app, admin, demo.ids.water)({ method: 'PUT', url: `/api/enterprise/members/${viewer.userId}/role`, payload: { role: 'viewer' } })).statusCode).toBe(200);

    const { list } = await events(admin, demo.ids.water, { object: 'enterprise/members', objectId: String(viewer.userId) });
    expect(list.map((e) => e.changes)).toEqual([{ role: { before: 'member', after: 'viewer' } }, { role: { before: 'viewer', after: 'member' } }]);
    // A body the server refuses for holding U+0000 is still recorded (jsonb cannot hold it: kept as U+FFFD).
    const hostile = await as(demo.app, admin, demo.ids.water)({ method: 'POST', url: '/api/construction/sites', payload: { name: 'a\u0000b', buildType: 'road' } });
    expect(hostile.statusCode).toBe(400);
    const hostileRecord = await events(admin, demo.ids.water, { object: 'construction/sites', outcome: 'refused' });
    expect(hostileRecord.list[0].changes?.name).toEqual({ after: 'a\ufffdb' });
    const refused = await events(admin, demo.ids.water, { object: 'pipe-risk/weights', outcome: 'refused' });
    expect(refused.list[0]).toMatchObject({ outcome: 'refused', username: 'admin' });
  });

  it('loses no record to hostile input: U+0000 in a field name or a header, a body past the stack, a body that is not an object, a body too large', async () => {
    const admin = await login(demo.app, 'admin');
    const ask = as(demo.app, admin, demo.ids.water);
    const recorded = async (route: string) => {
      await demo.app.auditTrail!.flushed();
      return ((await demo.database.db.execute(sql`select outcome, status, changes, user_agent from audit_events where route = ${route} order by id desc limit 1`)) as unknown as { rows: { outcome: string; status: number; changes: Record<string, unknown> | null; user_agent: string | null }[] }).rows[0];
    };
    const failuresBefore = (await demo.app.metrics.auditFailures.get()).values[0]?.value ?? 0;

    // U+0000 in a field's name and in the user agent.
    const named = await ask({ method: 'PUT', url: '/api/pipe-risk/weights', payload: { 'leak\u0000weight': 1 }, headers: { 'user-agent': 'curl\u0000/8' } });
    expect(named.statusCode).toBe(400);
    expect(await recorded('/api/pipe-risk/weights')).toMatchObject({ outcome: 'refused', status: 400, changes: { 'leak\ufffdweight': { after: 1 } } });
    // Nested 5,000 deep: refused as too deep, and recorded with the value described.
    const deep = `{"weights":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect((await ask({ method: 'PUT', url: '/api/settlement/bands', payload: deep, headers: { 'content-type': 'application/json' } })).statusCode).toBe(400);
    expect(await recorded('/api/settlement/bands')).toMatchObject({ outcome: 'refused', changes: { weights: { after: '(a value too deeply nested or circular to record)' } } });
    // A body that is not an object, on a route whose record reads the body's project.
    expect((await ask({ method: 'PUT', url: '/api/settlement/thresholds', payload: 'null', headers: { 'content-type': 'application/json' } })).statusCode).toBe(400);
    expect(await recorded('/api/settlement/thresholds')).toMatchObject({ outcome: 'refused', status: 400 });
    // A body past the limit.
    const big = JSON.stringify({ name: 'x'.repeat(21 * 1024 * 1024) });
    expect((await ask({ method: 'POST', url: '/api/projects', payload: big, headers: { 'content-type': 'application/json' } })).statusCode).toBe(413);
    expect(await recorded('/api/projects')).toMatchObject({ outcome: 'refused', status: 413 });
    expect((await demo.app.metrics.auditFailures.get()).values[0]?.value ?? 0).toBe(failuresBefore);
  });

  it('records every export and open data page as an audited read: who, what, with which filters, how many rows', async () => {
    const admin = await login(demo.app, 'admin');
    const ask = as(demo.app, admin, demo.ids.water);
    const lastExport = async (object: string) => {
      await demo.app.auditTrail!.flushed();
      return ((await demo.database.db.execute(sql`select kind, username, route, object, changes from audit_events where kind = 'export' and object = ${object} order by id desc limit 1`)) as unknown as { rows: { kind: string; username: string; route: string; object: string; changes: { rows: { after: number }; complete: { after: boolean }; filters: { after: Record<string, unknown> } } }[] }).rows[0];
    };
    const waterPipes = Number(((await demo.database.db.execute(sql`select count(*)::int as n from pipes where enterprise_id = ${demo.ids.water} and network_type = 'water'`)) as unknown as { rows: { n: number }[] }).rows[0].n);
    expect(waterPipes).toBeGreaterThan(100);
    const csv = await ask({ method: 'GET', url: '/api/pipelines/export', query: { format: 'csv', networkType: 'water' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\r\n').length - 1).toBe(waterPipes);
    expect(await lastExport('pipelines')).toMatchObject({ username: 'admin', route: '/api/pipelines/export', changes: { rows: { after: waterPipes }, complete: { after: true }, filters: { after: { format: 'csv', networkType: 'water' } } } });

    // An open data page read with a personal token: the rows it held, the token never.
    const token = (await as(demo.app, admin)({ method: 'POST', url: '/api/open-data/tokens', payload: { name: 'QGIS', enterpriseId: demo.ids.water, days: 30 } })).json().result.token as string;
    const page = await demo.app.inject({ method: 'GET', url: `/api/ogc/collections/pipes-water/items?limit=37&key=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.json().numberReturned).toBe(37);
    const read = await lastExport('ogc/pipes-water');
    expect(read).toMatchObject({ username: 'admin', changes: { rows: { after: 37 }, filters: { after: { limit: '37', key: '***' } } } });
    expect(JSON.stringify(read)).not.toContain(token);

    // Reading the trail out is an export too.
    expect((await ask({ method: 'GET', url: '/api/audit/events/export', query: { format: 'csv', kind: 'export' } })).statusCode).toBe(200);
    expect((await lastExport('audit/events')).changes.rows.after).toBeGreaterThanOrEqual(2);
  });

  it('records sign-in attempts, failed and succeeded, and never a password', async () => {
    const wrong = await loginResponse(demo.app, 'member', 'Wrong-Password-123');
    expect(wrong.json().success).toBe(false);
    await login(demo.app, 'member');
    const platform = await login(demo.app, 'platform');
    const signIns = (await as(demo.app, platform)({ method: 'GET', url: '/api/audit/platform/events', query: { kind: 'signIn', username: 'member' } })).json().result.list as { outcome: string; changes: unknown }[];
    expect(signIns.slice(0, 2).map((e) => e.outcome)).toEqual(['ok', 'refused']);
    expect(signIns[0].changes).toBeNull();
    // Nothing anywhere in the trail holds a password (the demo's or the wrong one) or a token.
    await demo.app.auditTrail!.flushed();
    const text = (await demo.database.db.execute(sql`select string_agg(${auditEvents}::text, ' ') as t from ${auditEvents}`)) as unknown as { rows: { t: string }[] };
    expect(text.rows[0].t).not.toMatch(/Wrong-Password-123|Demo|Access-Token/i);

    // Enterprise admins read the trail of their enterprise, not the platform's.
    const admin = await login(demo.app, 'admin');
    expect((await as(demo.app, admin, demo.ids.water)({ method: 'GET', url: '/api/audit/platform/events' })).statusCode).toBe(403);
  });

  it('shows an object’s history in its drawer and exports the trail as CSV and XLSX', async () => {
    const admin = await login(demo.app, 'admin');
    const ask = as(demo.app, admin, demo.ids.water);
    const created = await ask({ method: 'POST', url: '/api/construction/sites', payload: { name: '审计测试工地', buildType: 'road', point: '[120.155,30.274]', radiusM: 30 } });
    expect(created.statusCode, created.body).toBe(200);
    const site = created.json().result;
    const form = { name: '审计测试工地（改）', buildType: 'road', point: '[120.155,30.274]', radiusM: 45 };
    expect((await ask({ method: 'PUT', url: `/api/construction/sites/${site.id}`, payload: form })).statusCode).toBe(200);

    const member = await login(demo.app, 'member');
    const history = (await as(demo.app, member, demo.ids.water)({ method: 'GET', url: '/api/audit/history', query: { object: 'construction/sites', objectId: String(site.id) } })).json().result as { username: string; changes: Record<string, { before?: unknown; after?: unknown }> }[];
    expect(history).toHaveLength(2);
    expect(history[0].changes.name).toEqual({ before: '审计测试工地', after: '审计测试工地（改）' });
    expect(history[1].changes.name).toEqual({ after: '审计测试工地' });
    expect(history[0]).not.toHaveProperty('address');

    const csv = await ask({ method: 'GET', url: '/api/audit/events/export', query: { format: 'csv', object: 'construction/sites' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('audit.csv');
    expect(csv.body).toContain('审计测试工地（改）');
    const xlsx = await ask({ method: 'GET', url: '/api/audit/events/export', query: { format: 'xlsx', object: 'construction/sites', outcome: 'ok' } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const header: string[] = [];
    sheet.getRow(1).eachCell((cell) => header.push(cell.text));
    expect(header).toContain('changes');
    expect(sheet.rowCount).toBe(3);
  });

  it('refuses to change or remove a record; the retention job removes only records past the floor', async () => {
    const db = demo.database.db;
    await expect(db.execute(sql`update audit_events set username = 'someone else'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_events`)).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_events`)).rejects.toThrow();
    // The retention job runs as the schema's owner where there are two roles (the server's role cannot delete at all).
    const owner = demo.ownerUrl ? await openDatabase({ databaseUrl: demo.ownerUrl, dataDir: null }) : null;
    const pruner = owner?.db ?? db;
    try {
      // Not even the retention job's setting removes a record younger than 180 days.
      await expect(pruner.transaction(async (tx) => {
        await tx.execute(sql`select set_config('console.audit_prune', 'on', true)`);
        await tx.execute(sql`delete from audit_events`);
      })).rejects.toThrow();

      await db.insert(auditEvents).values([
        { kind: 'write', method: 'PUT', route: '/api/old', object: 'old', outcome: 'ok', status: 200, at: new Date(Date.now() - 400 * 86_400_000) },
        { kind: 'write', method: 'PUT', route: '/api/kept', object: 'kept', outcome: 'ok', status: 200, at: new Date(Date.now() - 200 * 86_400_000) },
      ]);
      expect(await pruneAudit(pruner, 365)).toBe(1);
      const left = (await db.execute(sql`select object from audit_events where object in ('old', 'kept')`)) as unknown as { rows: { object: string }[] };
      expect(left.rows.map((r) => r.object)).toEqual(['kept']);
    } finally {
      await owner?.close();
    }
  });

  it('keeps each record in the journal until it is in the table, and stores a stopped server’s records once when the next starts', async () => {
    const db = demo.database.db;
    const dir = await mkdtemp(join(tmpdir(), 'audit-journal-'));
    const objects = async (object: string) =>
      ((await db.execute(sql`select object_id as id from audit_events where object = ${object} order by id`)) as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    try {
      // This server's records: in its journal file at once, in the table after flushed().
      const journal = await AuditJournal.open(db, dir);
      const failures: unknown[] = [];
      const writer = new AuditWriter(db, journal, (e) => failures.push(e), (e) => failures.push(e));
      for (const id of ['1', '2', '3']) writer.record({ kind: 'write', method: 'PUT', route: '/api/journal-test', object: 'journal-test', objectId: id, outcome: 'ok', status: 200 });
      const [own] = await readdir(dir);
      expect((await readFile(join(dir, own), 'utf8')).trim().split('\n')).toHaveLength(3);
      await writer.flushed();
      expect(await objects('journal-test')).toEqual(['1', '2', '3']);
      const [mark] = await db.select().from(auditJournalMarks).where(sql`${auditJournalMarks.file} = ${own}`);
      expect(mark.line).toBe(3);
      expect(failures).toEqual([]);
      // A record the database refuses (here a status that is no number) is given up and counted; the others of its batch are stored.
      writer.record({ kind: 'write', method: 'PUT', route: '/api/journal-test', object: 'journal-test', objectId: '4', outcome: 'ok', status: 200 });
      writer.record({ kind: 'write', method: 'PUT', route: '/api/journal-test', object: 'journal-test', objectId: 'bad', outcome: 'ok', status: 'not a number' as unknown as number });
      writer.record({ kind: 'write', method: 'PUT', route: '/api/journal-test', object: 'journal-test', objectId: '5', outcome: 'ok', status: 200 });
      await writer.flushed();
      expect(await objects('journal-test')).toEqual(['1', '2', '3', '4', '5']);
      expect(failures).toHaveLength(1);

      // A server of this host that stopped (its process is gone) with lines 1-2 stored and 3-4 not,
      // the last line cut off as it stopped: 3 and 4 are stored when the next server starts, the cut line is not.
      const stopped = `${JOURNAL_HOST}~99999999~abcd~1.jsonl`;
      const line = (id: string) => JSON.stringify({ kind: 'write', method: 'PUT', route: '/api/journal-test', object: 'journal-stopped', object_id: id, outcome: 'ok', status: 200, at: new Date().toISOString() });
      await writeFile(join(dir, stopped), `${['a', 'b', 'c', 'd'].map(line).join('\n')}\n{"kind":"wri`);
      await db.insert(auditJournalMarks).values({ file: stopped, line: 2 });
      // Another host's file (a DATA_DIR shared by servers) is left to its own server.
      const elsewhere = 'another-host~1~abcd~1.jsonl';
      await writeFile(join(dir, elsewhere), `${line('x')}\n`);
      await AuditJournal.open(db, dir);
      expect(await objects('journal-stopped')).toEqual(['c', 'd']);
      expect((await readdir(dir)).sort()).toEqual([elsewhere, own].sort());
      expect(await db.select().from(auditJournalMarks).where(sql`${auditJournalMarks.file} = ${stopped}`)).toEqual([]);
      await writer.drain();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
