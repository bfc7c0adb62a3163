import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { rainstormInForce as rainstormWarning } from '../../testing/weather.ts';
import { alerts, incidents, pois, smsOutbox, users, weatherWarnings } from '../../db/schema.ts';
import { queryRows } from '../../db/client.ts';
import { DEFAULT_ALERT_SETTINGS } from '@console/contract';
import { groupAlerts } from './grouping.ts';
import { escalateRule, RULE_NAMES } from './rules.ts';
import { MAX_STREAMS } from '../../http/eventStreams.ts';
import { nonEmpty } from '../../testing/lists.ts';

const demo = useDemoServer();
type Api = ReturnType<typeof as>;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const userId = async (username: string) => (await demo.database.db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0].id;
const step = (api: Api, id: number, name: string, payload: Record<string, unknown> = {}, language = 'en-US') =>
  api({ method: 'POST', url: `/api/alerts/incidents/${id}/${name}`, payload, headers: { 'accept-language': language } });
const countByRule = async (enterpriseId: number) =>
  Object.fromEntries(
    (await queryRows<{ rule: string; n: number }>(demo.database.db, sql`select rule, count(*)::int as n from alerts where enterprise_id = ${enterpriseId} group by rule`)).map((r) => [r.rule, Number(r.n)]),
  );

const rainstormInForce = (level: 'I' | 'II' | 'III' | 'IV', rainMm: number) => rainstormWarning(demo.database.db, demo.ids.water, level, rainMm);

describe('alert rules', () => {
  it('raise every source once and only once, one open alert per object and rule', async () => {
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    // The composite risk is assessed first: a segment that rose to I or II is a rule's input.
    expect((await water({ method: 'POST', url: '/api/pipe-risk/runs' })).statusCode).toBe(200);
    // The demo's own forecast rain may be in force now too (its hours are fixed dates): counted first.
    const warningAlertsBefore = (await countByRule(demo.ids.water)).weatherRiskArea ?? 0;
    await rainstormInForce('III', 62.5);

    // The demo's alerts were raised when it was made; the new warning is the one thing new.
    expect((await water({ method: 'POST', url: '/api/alerts/check' })).json().result.raised).toBe(1);
    expect((await gas({ method: 'POST', url: '/api/alerts/check' })).json().result.raised).toBe(0);
    const waterRules = await countByRule(demo.ids.water);
    const gasRules = await countByRule(demo.ids.gas);
    const byRule = Object.fromEntries(RULE_NAMES.map((rule) => [rule, (waterRules[rule] ?? 0) + (gasRules[rule] ?? 0)]));
    // The demo has something for every rule: each raised at least one alert.
    expect(waterRules.weatherRiskArea).toBe(warningAlertsBefore + 1);
    for (const rule of RULE_NAMES) expect(byRule[rule], rule).toBeGreaterThan(0);

    // Checked again (and again at once, as two servers would): nothing new.
    const again = await Promise.all([water({ method: 'POST', url: '/api/alerts/check' }), water({ method: 'POST', url: '/api/alerts/check' })]);
    expect(again.map((r) => r.json().result.raised)).toEqual([0, 0]);
    const duplicates = await queryRows<{ n: number }>(
      demo.database.db,
      sql`select count(*)::int as n from (select enterprise_id, rule, object_key from alerts where state not in ('closed', 'falseAlarm') group by 1, 2, 3 having count(*) > 1) d`,
    );
    expect(Number(duplicates[0].n)).toBe(0);
    // Each raised alert starts its timeline.
    const [timeline] = await queryRows<{ n: number; alerts: number }>(demo.database.db, sql`select (select count(*)::int from alert_events where action = 'raise') as n, (select count(*)::int from alerts) as alerts`);
    expect(Number(timeline.n)).toBe(Number(timeline.alerts));
  });

  it('raises a leak left unrepaired again only for a new finding, and only once the open alert is done', async () => {
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const [leakAlert] = await demo.database.db.select().from(alerts).where(and(eq(alerts.enterpriseId, demo.ids.water), eq(alerts.rule, 'leakNotRepaired'))).limit(1);
    expect(leakAlert.level).toBe('II');
    expect(leakAlert.value).toBeGreaterThanOrEqual(leakAlert.threshold!);
    const poiId = leakAlert.objectId!;
    // Found again later (a new occurrence) while the alert is open: still one alert.
    await demo.database.db.update(pois).set({ foundAt: new Date(Date.now() - 20 * 86_400_000) }).where(eq(pois.id, poiId));
    expect((await water({ method: 'POST', url: '/api/alerts/check' })).json().result.raised).toBe(0);
    // The open one is closed as a false alarm: the new finding raises a new alert, once.
    expect((await step(water, leakAlert.incidentId!, 'falseAlarm', { note: '已在上次巡检中修复' })).statusCode).toBe(200);
    expect((await water({ method: 'POST', url: '/api/alerts/check' })).json().result.raised).toBe(1);
    expect((await water({ method: 'POST', url: '/api/alerts/check' })).json().result.raised).toBe(0);
    // Reopening the old one now would make two open alerts on the POI: refused, naming the open one.
    const reopen = await step(water, leakAlert.incidentId!, 'reopen', { note: 'again' }, 'zh-CN');
    expect(reopen.statusCode).toBe(409);
    expect(reopen.json().message).toMatch(/^该对象已有同一规则的未关闭预警（AL-\d{6}）$/);
    // The allowed days are the enterprise's setting: at 60 days the 20-day-old leak raises nothing new.
    expect((await water({ method: 'PUT', url: '/api/alerts/settings', payload: { deadlineHours: { I: 2, II: 24, III: 72, IV: 168 }, leakRepairDays: 60 } })).statusCode).toBe(200);
    expect((await water({ method: 'GET', url: '/api/alerts/settings' })).json().result.leakRepairDays).toBe(60);
  });
  it('raises an open alert and its incident to the graver level its object reaches, once, and never lowers them; a dispatched one is due sooner and texted', async () => {
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const warning = await rainstormInForce('IV', 52);
    // (The check may also clear what earlier tests changed: the incidents it touched are not counted here.)
    expect((await water({ method: 'POST', url: '/api/alerts/check' })).json().result).toMatchObject({ raised: 1, escalated: 0, incidents: { raised: 1, escalated: 0 } });
    const alertOf = async () => (await demo.database.db.select().from(alerts).where(and(eq(alerts.rule, 'weatherRiskArea'), eq(alerts.objectKey, `warning:${warning.id}`))))[0];
    const raised = await alertOf();
    expect(raised.level).toBe('IV');
    const incidentId = raised.incidentId!;
    const incidentOf = async () => (await demo.database.db.select().from(incidents).where(eq(incidents.id, incidentId)))[0];
    expect(await incidentOf()).toMatchObject({ groupKey: `warning:${warning.id}`, level: 'IV', memberCount: 1 });
    expect((await step(water, incidentId, 'confirm')).statusCode).toBe(200);
    // Dispatched at level IV: due in the level's 168 hours, and no text (not grave).
    const textsTo = async (phone: string) => (await demo.database.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone)).orderBy(sql`id`)).map((t) => t.body);
    const textsBefore = (await textsTo('13800000002')).length;
    const dispatched = (await step(water, incidentId, 'dispatch', { organisation: '排水巡查班', assigneeId: await userId('member') })).json().result;
    expect(Date.parse(dispatched.deadline) - Date.now()).toBeGreaterThan(167 * 3_600_000);
    expect(await textsTo('13800000002')).toHaveLength(textsBefore);

    // The warning is updated to orange with more rain (a CAP Update): the open alert follows it, in its state.
    await demo.database.db.update(weatherWarnings).set({ level: 'II', value: 88 }).where(eq(weatherWarnings.id, warning.id));
    const checkedAt = Date.now();
    expect((await water({ method: 'POST', url: '/api/alerts/check' })).json().result).toMatchObject({ raised: 0, escalated: 1, incidents: { raised: 0, escalated: 1 } });
    expect(await alertOf()).toMatchObject({ id: raised.id, level: 'II', value: 88, state: 'dispatched' });
    const escalated = await incidentOf();
    expect(escalated).toMatchObject({ level: 'II', state: 'dispatched' });
    expect((await alertOf()).deadline).toEqual(escalated.deadline);
    // Due within level II's 24 hours of the check now, and the assignee is told.
    expect(escalated.deadline!.getTime() - checkedAt).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(escalated.deadline!.getTime() - checkedAt).toBeLessThanOrEqual(24 * 3_600_000 + 5000);
    const texts = await textsTo('13800000002');
    expect(texts).toHaveLength(textsBefore + 1);
    // In the enterprise's message language (Chinese by default), the deadline with its zone.
    expect(texts.at(-1)).toMatch(new RegExp(`^【管网风险】您处置的事件 ${dispatched.code} 已升级为II级：气象预警(涉及 \\d+ 段管道)? · .+。请于 \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} \\(Asia/Shanghai, UTC\\+8\\) 前处置。$`));
    const alertDetail = (await water({ method: 'GET', url: `/api/alerts/alerts/${raised.id}` })).json().result;
    expect(alertDetail.events.map((e: { action: string }) => e.action)).toEqual(['raise', 'join', 'confirm', 'dispatch', 'escalate']);
    const detail = (await water({ method: 'GET', url: `/api/alerts/incidents/${incidentId}` })).json().result;
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(['raise', 'confirm', 'dispatch', 'escalate']);
    expect(detail.events[3]).toMatchObject({ fromState: 'dispatched', toState: 'dispatched', details: { fromLevel: 'IV', toLevel: 'II' } });
    expect(Date.parse(detail.events[3].details.deadline)).toBe(escalated.deadline!.getTime());
    expect((await water({ method: 'GET', url: '/api/alerts/summary' })).json().result.byLevel.II).toBeGreaterThan(0);

    // Graver again, checked and grouped by two servers at once: escalated once, one timeline entry each, one text.
    await demo.database.db.update(weatherWarnings).set({ level: 'I' }).where(eq(weatherWarnings.id, warning.id));
    const both = await Promise.all(
      [1, 2].map(async () => groupAlerts(demo.database.db, demo.ids.water, DEFAULT_ALERT_SETTINGS, await escalateRule(demo.database.db, 'weatherRiskArea', demo.ids.water, new Date(), DEFAULT_ALERT_SETTINGS))),
    );
    const escalations = both.flatMap((r) => r.escalated);
    expect(escalations).toEqual([{ id: incidentId, code: dispatched.code, kind: 'warning', subject: escalated.subject, pipeCount: expect.any(Number), memberCount: 1, level: 'I', assigned: { phone: '13800000002', deadline: expect.any(Date) } }]);
    expect(escalations[0].assigned!.deadline.getTime() - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);
    // Milder later: the alert and its incident keep the gravest level reached, and the deadline.
    const deadline = (await incidentOf()).deadline;
    await demo.database.db.update(weatherWarnings).set({ level: 'III' }).where(eq(weatherWarnings.id, warning.id));
    expect((await water({ method: 'POST', url: '/api/alerts/check' })).json().result).toMatchObject({ raised: 0, escalated: 0 });
    expect(await alertOf()).toMatchObject({ level: 'I', deadline });
    expect(await incidentOf()).toMatchObject({ level: 'I', deadline });
    const [{ n, m }] = await queryRows<{ n: number; m: number }>(
      demo.database.db,
      sql`select (select count(*)::int from alert_events where alert_id = ${raised.id} and action = 'escalate') as n, (select count(*)::int from incident_events where incident_id = ${incidentId} and action = 'escalate') as m`,
    );
    expect([Number(n), Number(m)]).toEqual([2, 2]);
    await demo.database.db.delete(weatherWarnings).where(eq(weatherWarnings.id, warning.id));
  });
});

describe('working an incident', () => {
  it('confirms or dismisses many incidents of the list at once, all or none, within the enterprise', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const raise = async (api: Api, title: string) => (await api({ method: 'POST', url: '/api/alerts/alerts', payload: { title, level: 'III', point: [120.2, 30.2] } })).json().result as { id: number; code: string };
    const [a, b, c] = [await raise(admin, '批量 A'), await raise(admin, '批量 B'), await raise(admin, '批量 C')];
    const other = await raise(gas, '他企业');
    const stateOf = async (id: number) => (await demo.database.db.select({ state: incidents.state }).from(incidents).where(eq(incidents.id, id)))[0].state;
    const batch = (api: Api, step: string, payload: Record<string, unknown>, language = 'en-US') => api({ method: 'POST', url: `/api/alerts/steps/${step}`, payload, headers: { 'accept-language': language } });

    const confirmed = await batch(admin, 'confirm', { ids: [b.id, a.id], note: '巡检核实' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().result).toEqual({ count: 2 });
    expect([await stateOf(a.id), await stateOf(b.id)]).toEqual(['confirmed', 'confirmed']);
    const detail = (await admin({ method: 'GET', url: `/api/alerts/incidents/${a.id}` })).json().result;
    expect(detail.events.at(-1)).toMatchObject({ action: 'confirm', fromState: 'new', toState: 'confirmed', note: '巡检核实' });
    // Its member followed, with the step on its own timeline.
    const member = (await admin({ method: 'GET', url: `/api/alerts/alerts/${detail.members[0].id}` })).json().result;
    expect(member).toMatchObject({ state: 'confirmed', incidentId: a.id, incidentCode: a.code });
    expect(member.events.at(-1)).toMatchObject({ action: 'confirm', note: '巡检核实', details: { incidentId: a.id, incident: a.code } });
    expect(detail.firstResponseAt).not.toBeNull();

    // One the step does not fit refuses the batch, naming it; the others are left as they were.
    const refused = await batch(admin, 'confirm', { ids: [c.id, a.id] }, 'zh-CN');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`事件 ${a.code} 当前为“已确认”，不能确认`);
    expect(await stateOf(c.id)).toBe('new');
    // Another enterprise's alert is not found here, and nothing is written.
    expect((await batch(admin, 'confirm', { ids: [c.id, other.id] })).statusCode).toBe(404);
    expect([await stateOf(c.id), await stateOf(other.id)]).toEqual(['new', 'new']);
    // A false alarm needs its reason; viewers take no steps; a batch is at most 100.
    const noReason = await batch(admin, 'falseAlarm', { ids: [c.id] });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toMatch(/^note: /);
    expect((await batch(viewer, 'confirm', { ids: [c.id] })).statusCode).toBe(403);
    expect((await batch(admin, 'confirm', { ids: Array.from({ length: 101 }, (_, i) => i + 1) })).json().message).toMatch(/^ids: /);

    const dismissed = await batch(admin, 'falseAlarm', { ids: [a.id, b.id, c.id], note: '施工单位已报备' });
    expect(dismissed.json().result).toEqual({ count: 3 });
    expect([await stateOf(a.id), await stateOf(b.id), await stateOf(c.id)]).toEqual(['falseAlarm', 'falseAlarm', 'falseAlarm']);
    await batch(gas, 'falseAlarm', { ids: [other.id], note: 'test' });
  });

  it('follows new -> confirmed -> dispatched -> handling -> handled -> closed, refuses other steps, and texts the assignee of a grave incident', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const raised = await member({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '路面塌陷', level: 'I', point: [120.2, 30.2], note: '市民报告' } });
    expect(raised.statusCode, raised.body).toBe(200);
    const alert = raised.json().result;
    expect(alert).toMatchObject({ kind: 'manual', source: 'manual', state: 'new', level: 'I', subject: '路面塌陷', memberCount: 1 });
    expect(alert.code).toMatch(/^IN-\d{6}$/);
    expect(alert.members[0]).toMatchObject({ rule: 'manual', subject: '路面塌陷', level: 'I' });

    // Refused: dispatch before confirmation (409 in the caller's language), a viewer's step (403).
    const early = await step(admin, alert.id, 'dispatch', { organisation: '抢修一队', assigneeId: await userId('member') }, 'zh-CN');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(`事件 ${alert.code} 当前为“待确认”，不能派单`);
    expect((await step(viewer, alert.id, 'confirm')).statusCode).toBe(403);
    expect((await step(admin, alert.id, 'close')).json().message).toBe(`incident ${alert.code} is new and cannot be closed`);

    const confirmed = (await step(admin, alert.id, 'confirm', { note: '现场核实' })).json().result;
    expect(confirmed.state).toBe('confirmed');
    expect(confirmed.firstResponseAt).not.toBeNull();
    // The assignee must be a working member of this enterprise.
    const stranger = await step(admin, alert.id, 'dispatch', { organisation: '抢修一队', assigneeId: await userId('newcomer') });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toMatch(/^assigneeId: /);
    const missing = await step(admin, alert.id, 'dispatch', { assigneeId: await userId('member') }, 'zh-CN');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/organisation/);

    const before = Date.now();
    const dispatched = (await step(admin, alert.id, 'dispatch', { organisation: '抢修一队', assigneeId: await userId('member') })).json().result;
    expect(dispatched).toMatchObject({ state: 'dispatched', organisation: '抢修一队', assigneeName: '李娜', overdue: false });
    // Level I: the default deadline is 2 hours after dispatch.
    const deadline = Date.parse(dispatched.deadline);
    expect(deadline - before).toBeGreaterThanOrEqual(2 * 3_600_000 - 1000);
    expect(deadline - before).toBeLessThanOrEqual(2 * 3_600_000 + 5000);
    const [text] = await demo.database.db.select().from(smsOutbox).where(eq(smsOutbox.phone, '13800000002')).orderBy(sql`id desc`).limit(1);
    expect(text.body).toContain(alert.code);

    // Only the assignee (or an admin) accepts and reports.
    const viewerToken = as(demo.app, await login(demo.app, 'both'), demo.ids.water);
    expect((await step(viewerToken, alert.id, 'accept')).statusCode).toBe(403);
    expect((await step(member, alert.id, 'accept')).json().result.state).toBe('handling');
    expect((await step(member, alert.id, 'handle', {})).statusCode).toBe(400);
    const handled = (await step(member, alert.id, 'handle', { note: '已设置围挡并回填' })).json().result;
    expect(handled).toMatchObject({ state: 'handled', overdue: false });
    // The report's photos: at most 3 on the entry, only by its author.
    const report = handled.events.at(-1);
    const photo = () => {
      const body = multipartFile('file', 'site.png', PNG);
      return member({ method: 'POST', url: `/api/alerts/incidents/${alert.id}/events/${report.id}/photos`, payload: body.payload, headers: body.headers });
    };
    const sent = await Promise.all([photo(), photo(), photo(), photo()]);
    expect(sent.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 400]);
    const photoId = sent.find((r) => r.statusCode === 200)!.json().result.id;
    expect((await admin({ method: 'GET', url: `/api/alerts/photos/${photoId}` })).statusCode).toBe(200);

    // Review refused, handled again, closed.
    expect((await step(admin, alert.id, 'reject', { note: '围挡不足' })).json().result.state).toBe('handling');
    await step(member, alert.id, 'handle', { note: '已加固' });
    const closed = (await step(admin, alert.id, 'close', { note: '复核通过' })).json().result;
    expect(closed.state).toBe('closed');
    expect(closed.events.map((e: { action: string }) => e.action)).toEqual(['raise', 'confirm', 'dispatch', 'accept', 'handle', 'reject', 'handle', 'close']);
    expect(closed.events[0]).toMatchObject({ userName: '李娜', note: '市民报告' });
    expect(closed.events.find((e: { id: number }) => e.id === report.id).photos).toHaveLength(3);
    // Reopened with a reason: confirmed again, its dispatch cleared.
    expect((await step(admin, alert.id, 'reopen', {})).statusCode).toBe(400);
    expect((await step(admin, alert.id, 'reopen', { note: '再次塌陷' })).json().result).toMatchObject({ state: 'confirmed', assigneeId: null, deadline: null, closedAt: null });
  });

  it('flags a dispatched incident past its deadline as overdue and counts on-time handling', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const make = async (title: string) => (await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title, level: 'III', point: [120.21, 30.21] } })).json().result.id as number;
    const late = await make('逾期测试');
    const onTime = await make('按时测试');
    for (const id of [late, onTime]) await step(admin, id, 'confirm');
    await step(admin, late, 'dispatch', { organisation: '巡检班', assigneeId: await userId('admin'), deadline: new Date(Date.now() - 60_000).toISOString() });
    const dispatched = (await step(admin, onTime, 'dispatch', { organisation: '巡检班', assigneeId: await userId('admin') })).json().result;
    // Level III without a deadline given: 72 hours.
    expect(Date.parse(dispatched.deadline) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    for (const id of [late, onTime]) {
      await step(admin, id, 'accept');
      await step(admin, id, 'handle', { note: 'done' });
    }
    const list = (await admin({ method: 'GET', url: '/api/alerts/incidents?overdue=true&pageSize=200' })).json().result;
    expect(list.list.map((a: { id: number }) => a.id)).toContain(late);
    expect(list.list.map((a: { id: number }) => a.id)).not.toContain(onTime);
    const summary = (await admin({ method: 'GET', url: '/api/alerts/summary' })).json().result;
    expect(summary.onTimeRate).toBeGreaterThan(0);
    expect(summary.onTimeRate).toBeLessThan(1);
    // Supervision is a flag on an open incident, kept in the timeline.
    const supervised = (await step(admin, late, 'supervise', { supervised: true, note: '市应急局挂牌' })).json().result;
    expect(supervised.supervised).toBe(true);
    const supervisedList = (await admin({ method: 'GET', url: '/api/alerts/incidents?supervised=true' })).json().result.list;
    expect(supervisedList.map((a: { id: number }) => a.id)).toContain(late);
    expect(nonEmpty(supervisedList).every((a: { supervised: boolean }) => a.supervised)).toBe(true);
  });

  it('names the field of a bad hand-raised alert in the caller\'s language', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const response = await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '无位置', level: 'II' }, headers: { 'accept-language': 'zh-CN' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/point/);
    const badLevel = await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title: 'x', level: 'V', point: [120, 30] } });
    expect(badLevel.json().message).toMatch(/level/);
  });

  it('keeps every incident and alert inside its enterprise', async () => {
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const raised = (await water({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '隔离测试', level: 'IV', point: [120.2, 30.2] } })).json().result;
    const id = raised.id;
    expect((await gas({ method: 'GET', url: `/api/alerts/incidents/${id}` })).statusCode).toBe(404);
    expect((await gas({ method: 'GET', url: `/api/alerts/alerts/${raised.members[0].id}` })).statusCode).toBe(404);
    expect((await gas({ method: 'GET', url: '/api/alerts/incidents?keyword=隔离测试' })).json().result.total).toBe(0);
    for (const name of ['confirm', 'falseAlarm', 'note']) expect((await step(gas, id, name, { note: 'x' })).statusCode).toBe(404);
    const listed = (await gas({ method: 'GET', url: '/api/alerts/alerts?keyword=隔离测试' })).json().result;
    expect(listed.total).toBe(0);
    const places = (await gas({ method: 'GET', url: '/api/alerts/places' })).json().result;
    expect(places.map((p: { id: number }) => p.id)).not.toContain(id);
    const event = (await water({ method: 'GET', url: `/api/alerts/incidents/${id}` })).json().result.events[0].id;
    const body = multipartFile('file', 'x.png', PNG);
    expect((await gas({ method: 'POST', url: `/api/alerts/incidents/${id}/events/${event}/photos`, payload: body.payload, headers: body.headers })).statusCode).toBe(404);
  });
});

/** A live stream read over real HTTP: its events as they come, and whether it has ended. */
function openStream(port: number, token: string, enterpriseId: number) {
  const events: { event: string; data: Record<string, unknown> }[] = [];
  let ended = false;
  let response: IncomingMessage | undefined;
  const ready = new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/alerts/live', headers: { 'Access-Token': token, 'Enterprise-Id': String(enterpriseId) } }, (res) => {
      response = res;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      });
      res.on('end', () => (ended = true));
      res.on('close', () => (ended = true));
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  return { events, ready, ended: () => ended, close: () => response?.destroy() };
}

const until = async (condition: () => boolean, ms = 5000) => {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('live alerts', () => {
  it('reach the members of the incident\'s enterprise only, and stop when the token is revoked', async () => {
    await demo.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (demo.app.server.address() as AddressInfo).port;
    const memberToken = await login(demo.app, 'member');
    const gasToken = await login(demo.app, 'both');
    const waterStream = openStream(port, memberToken, demo.ids.water);
    const gasStream = openStream(port, gasToken, demo.ids.gas);
    expect(await waterStream.ready).toBe(200);
    expect(await gasStream.ready).toBe(200);
    // Without a token, or for an enterprise the user is not in: refused before any stream.
    expect(await openStream(port, 'nope', demo.ids.water).ready).toBe(401);
    expect(await openStream(port, memberToken, demo.ids.gas).ready).toBe(403);
    await until(() => waterStream.events.length > 0 && gasStream.events.length > 0);

    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const alert = (await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '实时推送', level: 'II', point: [120.2, 30.2] } })).json().result;
    await until(() => waterStream.events.some((e) => e.event === 'alert' && e.data.id === alert.id));
    expect(waterStream.events.find((e) => e.data.id === alert.id)!.data).toMatchObject({ kind: 'raised', code: alert.code, incidentKind: 'manual', level: 'II', state: 'new', subject: '实时推送', memberCount: 1 });
    await step(admin, alert.id, 'confirm');
    await until(() => waterStream.events.some((e) => e.data.id === alert.id && e.data.kind === 'changed' && e.data.state === 'confirmed'));
    // The gas utility's member heard nothing of the water utility's alert.
    expect(gasStream.events.filter((e) => e.event === 'alert')).toEqual([]);

    // Signed out: the stream ends within a second or so.
    await as(demo.app, memberToken)({ method: 'POST', url: '/api/logout' });
    await until(() => waterStream.ended(), 3000);
    expect(gasStream.ended()).toBe(false);
    gasStream.close();
  });

  it('caps the streams of one sign-in (10) and of one address with a clear 429, keeping the open ones', async () => {
    if (!demo.app.server.listening) await demo.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (demo.app.server.address() as AddressInfo).port;
    const token = await login(demo.app, 'admin');
    const other = await login(demo.app, 'viewer');
    const open = [];
    for (let i = 0; i < MAX_STREAMS.perToken; i++) open.push(openStream(port, token, demo.ids.water));
    expect(await Promise.all(open.map((s) => s.ready))).toEqual(Array(MAX_STREAMS.perToken).fill(200));
    const refused = await fetch(`http://127.0.0.1:${port}/api/alerts/live`, { headers: { 'Access-Token': token, 'Enterprise-Id': String(demo.ids.water), 'Accept-Language': 'zh-CN' } });
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe('实时告警连接过多（每个登录最多 10 个）：请关闭其他控制台标签页后刷新');
    // The open ones were kept; one closed makes room for another.
    expect(nonEmpty(open).every((s) => !s.ended())).toBe(true);
    open.shift()!.close();
    await until(() => true, 100);
    let again = openStream(port, token, demo.ids.water);
    for (let tries = 0; (await again.ready) === 429 && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 20));
      again = openStream(port, token, demo.ids.water);
    }
    expect(await again.ready).toBe(200);
    open.push(again);

    // One address: the cap counts every sign-in's streams from it.
    const cap = MAX_STREAMS.perAddress;
    MAX_STREAMS.perAddress = MAX_STREAMS.perToken + 2;
    try {
      const more = [openStream(port, other, demo.ids.water), openStream(port, other, demo.ids.water)];
      expect(await Promise.all(more.map((s) => s.ready))).toEqual([200, 200]);
      open.push(...more);
      const byAddress = await fetch(`http://127.0.0.1:${port}/api/alerts/live`, { headers: { 'Access-Token': other, 'Enterprise-Id': String(demo.ids.water) } });
      expect(byAddress.status).toBe(429);
      expect((await byAddress.json()).message).toBe('Too many live alert streams are open (12 for one address): close other console tabs and reload');
    } finally {
      MAX_STREAMS.perAddress = cap;
      for (const s of open) s.close();
    }
  });
});
