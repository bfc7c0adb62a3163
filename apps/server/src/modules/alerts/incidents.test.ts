import { describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_ALERT_SETTINGS, incidentTitle, type AlertRule, type RiskLevel } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { rainstormInForce } from '../../testing/weather.ts';
import { alertEvents, alerts, basemapFeatures, incidents, smsOutbox, users, weatherWarnings } from '../../db/schema.ts';
import { queryRows } from '../../db/client.ts';
import { metresPerDegree } from '../../geo/local.ts';
import { groupAlerts } from './grouping.ts';
import { nonEmpty } from '../../testing/lists.ts';

const demo = useDemoServer();

/** East of the demo city: nothing of the demo's own lies here. */
const ORIGIN = [120.4, 30.3];
const [MX] = metresPerDegree(ORIGIN[1]);
/** A pipe segment along the parallel, from `fromM` to `toM` metres east of the origin (and `northM` north). */
const segment = (fromM: number, toM: number, northM = 0) => {
  const lat = ORIGIN[1] + northM / 110_850;
  return { type: 'LineString', coordinates: [[ORIGIN[0] + fromM / MX, lat], [ORIGIN[0] + toM / MX, lat]] };
};

let next = 0;
/** An alert as a rule raises it (not yet grouped): a pipe's settlement alarm, a site's, a warning's. */
async function raised(rule: AlertRule, objectKey: string, level: RiskLevel, geometry: { type: string; coordinates: number[][] }, details: Record<string, unknown> = {}, enterpriseId = demo.ids.water) {
  const xs = geometry.coordinates.map((p) => p[0]);
  const ys = geometry.coordinates.map((p) => p[1]);
  const subject = objectKey.split(':')[1];
  const [row] = await demo.database.db
    .insert(alerts)
    .values({
      enterpriseId,
      source: rule === 'settlementThreshold' ? 'settlement' : rule === 'pipeRiskRise' ? 'pipeRisk' : rule.startsWith('weather') ? 'weather' : 'construction',
      rule,
      objectKey,
      occurrence: `test-${next++}`,
      subject,
      level,
      details,
      geometry,
      lon: xs[0],
      lat: ys[0],
      minx: Math.min(...xs),
      miny: Math.min(...ys),
      maxx: Math.max(...xs),
      maxy: Math.max(...ys),
      pipeIds: [subject],
      pipeCount: 1,
    })
    .returning({ id: alerts.id });
  await demo.database.db.insert(alertEvents).values({ alertId: row.id, action: 'raise', toState: 'new' });
  return row.id;
}
const bowl = { datasetId: 9001, datasetName: '滨江东区 2026 升轨' };
const incidentOf = async (alertId: number) => (await demo.database.db.select({ id: alerts.incidentId }).from(alerts).where(eq(alerts.id, alertId)))[0].id!;
const incident = async (id: number) => (await demo.database.db.select().from(incidents).where(eq(incidents.id, id)))[0];

describe('incidents', () => {
  it('make the demo\'s first day a desk of a few incidents, with no alert lost', async () => {
    const [figures] = await queryRows<{ incidents: number; alerts: number; ungrouped: number; strays: number }>(
      demo.database.db,
      sql`select (select count(*)::int from incidents where enterprise_id = ${demo.ids.water} and state in ('new', 'confirmed', 'dispatched', 'handling', 'handled')) as incidents,
                 (select count(*)::int from alerts where enterprise_id = ${demo.ids.water} and state in ('new', 'confirmed', 'dispatched', 'handling', 'handled')) as alerts,
                 (select count(*)::int from alerts where incident_id is null) as ungrouped,
                 (select count(*)::int from alerts a join incidents i on i.id = a.incident_id where a.state <> i.state or a.enterprise_id <> i.enterprise_id) as strays`,
    );
    expect(Number(figures.incidents)).toBeLessThanOrEqual(30);
    expect(Number(figures.alerts)).toBeGreaterThan(Number(figures.incidents));
    expect([Number(figures.ungrouped), Number(figures.strays)]).toEqual([0, 0]);
  });

  it('gather alerts of one cause as they arrive: a bowl per cluster within the gap, a site, a warning; two servers grouping at once make each once', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const before = (await admin({ method: 'GET', url: '/api/alerts/summary' })).json().result;
    // Bowl A: five 40 m segments 30 m apart, one of them past level I's alarm.
    const bowlA = [];
    for (let i = 0; i < 5; i++) bowlA.push(await raised('settlementThreshold', `pipe:BA-${i}`, i === 2 ? 'I' : 'II', segment(i * 70, i * 70 + 40), bowl));
    // Bowl B: 600 m on; and a segment 80 m past bowl A's end (beyond the 50 m gap).
    const bowlB = [await raised('settlementThreshold', 'pipe:BB-0', 'II', segment(900, 940), bowl), await raised('settlementThreshold', 'pipe:BB-1', 'II', segment(940, 980, 20), bowl)];
    const apart = await raised('settlementThreshold', 'pipe:BC-0', 'II', segment(390, 430), bowl);
    // A pipe beside the bowl in another analysis is another cause.
    const otherAnalysis = await raised('settlementThreshold', 'pipe:BX-0', 'II', segment(0, 40, 5), { datasetId: 9002, datasetName: '另一期' });
    // Both construction rules on one site, and both weather rules of one warning.
    const site = [await raised('gasProtection', 'site:9901', 'I', segment(2000, 2010)), await raised('constructionThreat', 'site:9901', 'III', segment(2000, 2010))];
    const warning = [await raised('weatherRiskArea', 'warning:9902', 'III', segment(3000, 3010)), await raised('weatherShallowPipes', 'warning:9902', 'III', segment(3000, 3010))];
    // Another enterprise's alert at the same place stays its own.
    const gasAlert = await raised('settlementThreshold', 'pipe:BA-1', 'II', segment(70, 110), bowl, demo.ids.gas);

    // Two servers group at once: the second waits for the first and finds nothing left.
    const both = await Promise.all([1, 2].map(() => groupAlerts(demo.database.db, demo.ids.water, DEFAULT_ALERT_SETTINGS, [])));
    expect(both.map((r) => r.raised.length).sort()).toEqual([0, 6]);
    const [{ ungrouped }] = await queryRows<{ ungrouped: number }>(demo.database.db, sql`select count(*)::int as ungrouped from alerts where enterprise_id = ${demo.ids.water} and incident_id is null`);
    expect(Number(ungrouped)).toBe(0);

    const a = await incident(await incidentOf(bowlA[0]));
    expect(new Set(await Promise.all(bowlA.map(incidentOf)))).toEqual(new Set([a.id]));
    // Its level is its gravest member's; its place the hull of its pipes; its subject its gravest pipe
    // (no street or project out here to name the place).
    expect(a).toMatchObject({ groupKey: 'bowl:9001', level: 'I', memberCount: 5, pipeCount: 5, subject: 'BA-2', state: 'new' });
    expect(a.geometry.type).toBe('LineString');
    expect(a.maxx - a.minx).toBeCloseTo(320 / MX, 9);
    const b = await incident(await incidentOf(bowlB[0]));
    expect(await incidentOf(bowlB[1])).toBe(b.id);
    // Each cluster of the analysis is named from its own members, not from the first cluster's.
    expect(b).toMatchObject({ level: 'II', memberCount: 2, subject: 'BB-0' });
    expect(b.geometry.type).toBe('Polygon');
    expect(nonEmpty([await incidentOf(apart), await incidentOf(otherAnalysis)]).every((id) => id !== a.id && id !== b.id)).toBe(true);
    const siteIncident = await incident(await incidentOf(site[0]));
    expect(await incidentOf(site[1])).toBe(siteIncident.id);
    expect(siteIncident).toMatchObject({ groupKey: 'site:9901', level: 'I', memberCount: 2, source: 'construction' });
    expect(await incidentOf(warning[1])).toBe(await incidentOf(warning[0]));
    expect((await demo.database.db.select({ incidentId: alerts.incidentId }).from(alerts).where(eq(alerts.id, gasAlert)))[0].incidentId).toBeNull();

    // The desk counts incidents (six more open), and their open alerts (thirteen more).
    const after = (await admin({ method: 'GET', url: '/api/alerts/summary' })).json().result;
    expect(after.open - before.open).toBe(6);
    expect(after.openAlerts - before.openAlerts).toBe(13);
    expect(after.byLevel.I - before.byLevel.I).toBe(2);
    // The list finds an incident by a member's pipe, and the drawer lists the members, gravest first.
    const found = (await admin({ method: 'GET', url: '/api/alerts/incidents?keyword=BA-3' })).json().result;
    expect(found.list.map((i: { id: number }) => i.id)).toEqual([a.id]);
    expect(found.list[0]).toMatchObject({ kind: 'bowl', memberCount: 5, code: `IN-${String(a.id).padStart(6, '0')}` });
    const detail = (await admin({ method: 'GET', url: `/api/alerts/incidents/${a.id}` })).json().result;
    expect(detail.members.map((m: { subject: string }) => m.subject)).toEqual(['BA-2', 'BA-0', 'BA-1', 'BA-3', 'BA-4']);
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(['raise']);
    // Another enterprise sees none of it.
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: `/api/alerts/incidents/${a.id}` })).statusCode).toBe(404);

    // A wider gap (the enterprise's setting) makes the segment 80 m on part of the bowl when it comes.
    await admin({ method: 'PUT', url: '/api/alerts/settings', payload: { ...DEFAULT_ALERT_SETTINGS, bowlGapM: 100 } });
    const late = await raised('settlementThreshold', 'pipe:BA-5', 'II', segment(-100, -60), bowl);
    await groupAlerts(demo.database.db, demo.ids.water, { ...DEFAULT_ALERT_SETTINGS, bowlGapM: 100 }, []);
    expect(await incidentOf(late)).toBe(a.id);
    await admin({ method: 'PUT', url: '/api/alerts/settings', payload: DEFAULT_ALERT_SETTINGS });
  });

  it('are each named from their own members, with the street they are on; titles and texts in the enterprise\'s language and zone', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    // Two north-south streets of the demo city; a run of two touching segments along each, midway between crossings.
    const streets = await demo.database.db.select({ name: basemapFeatures.name, geometry: basemapFeatures.geometry }).from(basemapFeatures).where(eq(basemapFeatures.kind, 'street')).orderBy(basemapFeatures.id).limit(8);
    const [first, second] = [streets[2], streets[6]].map((s) => s as { name: string; geometry: { coordinates: number[][] } });
    const runAlong = async (street: typeof first, prefix: string, level: RiskLevel) => {
      const [a, b] = street.geometry.coordinates.slice(3, 5);
      const at = (f: number) => [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
      return [
        await raised('pipeRiskRise', `pipe:${prefix}-0`, 'III', { type: 'LineString', coordinates: [at(0.4), at(0.5)] }),
        await raised('pipeRiskRise', `pipe:${prefix}-1`, level, { type: 'LineString', coordinates: [at(0.5), at(0.6)] }),
      ];
    };
    const one = await runAlong(first, 'RUN-A', 'II');
    const two = await runAlong(second, 'RUN-B', 'I');
    const result = await groupAlerts(demo.database.db, demo.ids.water, DEFAULT_ALERT_SETTINGS, []);
    const [x, y] = [await incident(await incidentOf(one[0])), await incident(await incidentOf(two[0]))];
    expect(result.raised).toEqual(expect.arrayContaining([x.id, y.id]));
    expect(x.id).not.toBe(y.id);
    expect(await incidentOf(one[1])).toBe(x.id);
    // Where (the street) and which (the gravest member): never the other run's.
    expect(x).toMatchObject({ groupKey: 'riskRun', subject: `${first.name} · RUN-A-1`, pipeCount: 2, memberCount: 2 });
    expect(y).toMatchObject({ groupKey: 'riskRun', subject: `${second.name} · RUN-B-1` });
    expect(first.name).not.toBe(second.name);
    expect(incidentTitle({ kind: 'riskRun', subject: x.subject, pipeCount: 2, memberCount: 2 }, 'en-US')).toBe(`Pipe risk rose on 2 segments · ${first.name} · RUN-A-1 · 2 alerts`);
    expect(incidentTitle({ kind: 'riskRun', subject: x.subject, pipeCount: 2, memberCount: 2 }, 'zh-CN')).toBe(`2 段管道风险升高 · ${first.name} · RUN-A-1 · 2 条预警`);

    // The enterprise writes its messages out in English, in Berlin's time: the text says so.
    const saved = await admin({ method: 'PUT', url: '/api/alerts/settings', payload: { ...DEFAULT_ALERT_SETTINGS, messageLanguage: 'en-US', timeZone: 'Europe/Berlin' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await admin({ method: 'PUT', url: '/api/alerts/settings', payload: { ...DEFAULT_ALERT_SETTINGS, timeZone: 'Mars/Olympus' } })).json().message).toBe('timeZone: must be a time zone like Asia/Shanghai');
    try {
      const [member] = await demo.database.db.select({ id: users.id, phone: users.phone }).from(users).where(eq(users.username, 'member'));
      expect((await admin({ method: 'POST', url: `/api/alerts/incidents/${y.id}/confirm`, payload: {} })).statusCode).toBe(200);
      // Asked in Chinese: the text still follows the enterprise's choice.
      const dispatched = await admin({ method: 'POST', url: `/api/alerts/incidents/${y.id}/dispatch`, payload: { organisation: '抢修一队', assigneeId: member.id }, headers: { 'accept-language': 'zh-CN' } });
      expect(dispatched.statusCode, dispatched.body).toBe(200);
      const [text] = await demo.database.db.select().from(smsOutbox).where(eq(smsOutbox.phone, member.phone!)).orderBy(sql`id desc`).limit(1);
      expect(text.body).toMatch(new RegExp(`^\\[Pipeline risk\\] Level I incident ${dispatched.json().result.code}: Pipe risk rose on 2 segments · ${second.name} · RUN-B-1 · 2 alerts\\. Assigned to you, due \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} \\(Europe/Berlin, UTC\\+[12]\\)\\.`));
    } finally {
      await admin({ method: 'PUT', url: '/api/alerts/settings', payload: DEFAULT_ALERT_SETTINGS });
    }
  });

  it('are worked once: one dispatch, one text, every member follows; a member joining later takes its state', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const members = [];
    for (let i = 0; i < 4; i++) members.push(await raised('settlementThreshold', `pipe:BW-${i}`, i === 0 ? 'I' : 'II', segment(i * 50, i * 50 + 40, 3000), bowl));
    await groupAlerts(demo.database.db, demo.ids.water, DEFAULT_ALERT_SETTINGS, []);
    const id = await incidentOf(members[0]);
    const step = (name: string, payload: Record<string, unknown> = {}) => admin({ method: 'POST', url: `/api/alerts/incidents/${id}/${name}`, payload });
    const [member] = await demo.database.db.select({ id: users.id, phone: users.phone }).from(users).where(eq(users.username, 'member'));
    const texts = async () => (await demo.database.db.select().from(smsOutbox).where(eq(smsOutbox.phone, member.phone!))).length;
    const textsBefore = await texts();

    expect((await step('confirm')).statusCode).toBe(200);
    const dispatched = await step('dispatch', { organisation: '管网运维一所', assigneeId: member.id });
    expect(dispatched.statusCode, dispatched.body).toBe(200);
    expect(dispatched.json().result).toMatchObject({ state: 'dispatched', assigneeName: '李娜', memberCount: 4 });
    // One text for the incident, naming how many alerts it holds.
    expect((await texts()) - textsBefore).toBe(1);
    const [text] = await demo.database.db.select().from(smsOutbox).where(eq(smsOutbox.phone, member.phone!)).orderBy(sql`id desc`).limit(1);
    expect(text.body).toContain(dispatched.json().result.code);
    expect(text.body).toMatch(/4 alerts|4 条预警/);
    const rows = await demo.database.db.select().from(alerts).where(inArray(alerts.id, members));
    expect(nonEmpty(rows).every((r) => r.state === 'dispatched' && r.assigneeId === member.id && r.deadline?.getTime() === Date.parse(dispatched.json().result.deadline))).toBe(true);
    const [{ n }] = await queryRows<{ n: number }>(demo.database.db, sql`select count(*)::int as n from alert_events where action = 'dispatch' and alert_id in (${sql.join(members.map((m) => sql`${m}`), sql`, `)})`);
    expect(Number(n)).toBe(4);

    // A segment next to the bowl goes past its alarm while the crew is out: it joins, dispatched too.
    const joining = await raised('settlementThreshold', 'pipe:BW-4', 'II', segment(200, 240, 3000), bowl);
    const grouped = await groupAlerts(demo.database.db, demo.ids.water, DEFAULT_ALERT_SETTINGS, []);
    expect(grouped).toMatchObject({ raised: [], changed: [id] });
    expect((await demo.database.db.select().from(alerts).where(eq(alerts.id, joining)))[0]).toMatchObject({ incidentId: id, state: 'dispatched', assigneeId: member.id });
    const detail = (await admin({ method: 'GET', url: `/api/alerts/incidents/${id}` })).json().result;
    expect(detail.memberCount).toBe(5);
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(['raise', 'confirm', 'dispatch', 'join']);
    expect(detail.events[3].details).toMatchObject({ count: 1, alerts: [{ id: joining, subject: 'BW-4', level: 'II' }] });

    // Handled and closed once for all of them; every alert stays listed, each naming its incident.
    const crew = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    expect((await crew({ method: 'POST', url: `/api/alerts/incidents/${id}/accept`, payload: {} })).statusCode).toBe(200);
    expect((await crew({ method: 'POST', url: `/api/alerts/incidents/${id}/handle`, payload: { note: '注浆加固管基' } })).statusCode).toBe(200);
    expect((await step('close')).json().result.state).toBe('closed');
    const listed = (await admin({ method: 'GET', url: '/api/alerts/alerts?keyword=BW-&pageSize=50' })).json().result;
    expect(listed.total).toBe(5);
    expect(nonEmpty(listed.list).every((a: { state: string; incidentId: number }) => a.state === 'closed' && a.incidentId === id)).toBe(true);
    // A new alarm on the same pipes after closure starts a new incident.
    const again = await raised('settlementThreshold', 'pipe:BW-9', 'II', segment(0, 40, 3000), bowl);
    expect((await groupAlerts(demo.database.db, demo.ids.water, DEFAULT_ALERT_SETTINGS, [])).raised).toEqual([await incidentOf(again)]);
    expect(await incidentOf(again)).not.toBe(id);
    const [open] = await demo.database.db.select({ state: incidents.state }).from(incidents).where(and(eq(incidents.id, await incidentOf(again))));
    expect(open.state).toBe('new');
  });

  it('reach the crew\'s phone whole, and a step or photo sent again with its key is recorded once', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const crew = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const [pipe] = (await admin({ method: 'GET', url: '/api/pipelines?networkType=water&pageSize=1&page=3' })).json().result.list;
    const [lon, lat] = pipe.geometry.coordinates[0];
    const incident = (await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '手机端测试：阀门井冒水', level: 'II', point: [lon, lat] } })).json().result;
    const [member] = await demo.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'member'));
    await admin({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/confirm`, payload: {} });
    await admin({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/dispatch`, payload: { organisation: '抢修一队', assigneeId: member.id } });

    // The phone's list: the crew member's incidents, each with its members, timeline and the pipes around it.
    const mine = (await crew({ method: 'GET', url: '/api/alerts/mine' })).json().result;
    const mineOne = mine.find((i: { id: number }) => i.id === incident.id);
    expect(mineOne).toMatchObject({ state: 'dispatched', assignedToMe: true, memberCount: 1 });
    expect(mineOne.network.map((p: { pipeId: string }) => p.pipeId)).toContain(pipe.pipeId);
    expect((await admin({ method: 'GET', url: '/api/alerts/mine' })).json().result.map((i: { id: number }) => i.id)).not.toContain(incident.id);

    // Accept sent three times at once with one key (a phone retrying): one entry, one state change.
    const accept = (key: string) => crew({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/accept`, payload: {}, headers: { 'idempotency-key': key } });
    const accepted = await Promise.all([accept('phone-accept-0001'), accept('phone-accept-0001'), accept('phone-accept-0001')]);
    expect(accepted.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(accepted.map((r) => r.json().result.eventId)).size).toBe(1);
    const handled = async (key: string) => crew({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/handle`, payload: { note: '关闭阀门，更换阀门井盖' }, headers: { 'idempotency-key': key } });
    const report = await handled('phone-handle-0001');
    expect(report.json().result.state).toBe('handled');
    // The same report again: answered as the first time, not refused for the state it left.
    const again = await handled('phone-handle-0001');
    expect(again.statusCode).toBe(200);
    expect(again.json().result.eventId).toBe(report.json().result.eventId);
    const photo = (key: string) => {
      const body = multipartFile('file', 'IMG_0412.png', Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
      return crew({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/events/${report.json().result.eventId}/photos`, payload: body.payload, headers: { ...body.headers, 'idempotency-key': key } });
    };
    const photos = await Promise.all([photo('phone-photo-0001'), photo('phone-photo-0001'), photo('phone-photo-0002')]);
    expect(photos.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(photos[0].json().result.id).toBe(photos[1].json().result.id);
    const detail = (await crew({ method: 'GET', url: `/api/alerts/incidents/${incident.id}` })).json().result;
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(['raise', 'confirm', 'dispatch', 'accept', 'handle']);
    expect(detail.events.at(-1).photos).toHaveLength(2);
    // A malformed key is named.
    const bad = await crew({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/note`, payload: { note: 'x' }, headers: { 'idempotency-key': 'short' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Idempotency-Key: /);
  });

  it('stay open when a member clears on its own, and say so on their timeline', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const warning = await rainstormInForce(demo.database.db, demo.ids.water, 'III', 61);
    await admin({ method: 'POST', url: '/api/alerts/check' });
    const [alert] = await demo.database.db.select().from(alerts).where(eq(alerts.objectKey, `warning:${warning.id}`));
    expect(alert.clearedAt).toBeNull();
    // The warning is cancelled: its alert clears, its incident stays open and says so.
    await demo.database.db.update(weatherWarnings).set({ cancelledAt: new Date() }).where(eq(weatherWarnings.id, warning.id));
    expect((await admin({ method: 'POST', url: '/api/alerts/check' })).json().result.incidents.changed).toBeGreaterThanOrEqual(1);
    const detail = (await admin({ method: 'GET', url: `/api/alerts/incidents/${alert.incidentId}` })).json().result;
    expect(detail.state).toBe('new');
    expect(detail.members[0].clearedAt).not.toBeNull();
    expect(detail.events.at(-1)).toMatchObject({ action: 'clear', details: { cleared: true, count: 1, alerts: [{ id: alert.id }] } });
    // Checked again: nothing more to say. Reinstated: found again, no longer cleared.
    await admin({ method: 'POST', url: '/api/alerts/check' });
    expect((await admin({ method: 'GET', url: `/api/alerts/incidents/${alert.incidentId}` })).json().result.events.filter((e: { action: string }) => e.action === 'clear')).toHaveLength(1);
    await demo.database.db.update(weatherWarnings).set({ cancelledAt: null }).where(eq(weatherWarnings.id, warning.id));
    await admin({ method: 'POST', url: '/api/alerts/check' });
    const again = (await admin({ method: 'GET', url: `/api/alerts/incidents/${alert.incidentId}` })).json().result;
    expect(again.members[0].clearedAt).toBeNull();
    expect(again.events.at(-1)).toMatchObject({ action: 'clear', details: { cleared: false } });
    const member = (await admin({ method: 'GET', url: `/api/alerts/alerts/${alert.id}` })).json().result;
    expect(member.events.filter((e: { action: string }) => e.action === 'clear').map((e: { details: { cleared: boolean } }) => e.details.cleared)).toEqual([true, false]);
    await demo.database.db.delete(weatherWarnings).where(eq(weatherWarnings.id, warning.id));
  });
});
