import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { as, login, useDemoServer } from '../../testing/app.ts';
import { pdfText } from '../../testing/pdf.ts';
import { until } from '../../testing/process.ts';
import { queryRows } from '../../db/client.ts';
import { enterprises, incidents } from '../../db/schema.ts';

/** A group robot: what the console sends it. */
const received: { text: string }[] = [];
const robot = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    received.push({ text: JSON.parse(raw).markdown.content });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ errcode: 0, errmsg: 'ok' }));
  });
});
await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
afterAll(() => void robot.close());
const robotUrl = `http://127.0.0.1:${(robot.address() as AddressInfo).port}`;

const demo = useDemoServer({ robotHosts: ['127.0.0.1'], consoleUrl: 'https://console.example.cn', channelRetryMs: 20 });

describe('monthly risk reports', () => {
  it("count the month in the enterprise's time zone, read back from the PDF in both languages, and stay in their enterprise", async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const raise = async (title: string, level: string, raisedAt: string, handledAt: string | null) => {
      const incident = (await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title, level, point: [120.2, 30.2] } })).json().result;
      await demo.database.db
        .update(incidents)
        .set({ raisedAt: new Date(raisedAt), handledAt: handledAt ? new Date(handledAt) : null, ...(handledAt ? { state: 'handled' as const } : {}) })
        .where(eq(incidents.id, incident.id));
      return incident.code as string;
    };
    // March 2025 in Shanghai (UTC+8): the first two (handled in 5 h and 1 h); the third is 1 April at 01:00 there (31 March in UTC).
    const first = await raise('滨江路路面塌陷', 'I', '2025-03-10T00:00:00Z', '2025-03-10T05:00:00Z');
    await raise('江南大道阀门井冒水', 'II', '2025-03-31T14:00:00Z', '2025-03-31T15:00:00Z');
    const april = await raise('四月的事件', 'I', '2025-03-31T17:00:00Z', null);

    // Bad months are refused naming the field, in the caller's language.
    const bad = await admin({ method: 'POST', url: '/api/reports', payload: { month: '2025-13' }, headers: { 'accept-language': 'zh-CN' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('month: 须为月份，如 2026-10');
    const future = await admin({ method: 'POST', url: '/api/reports', payload: { month: '2099-01' } });
    expect(future.json().message).toBe('month: 2099-01 has not begun yet');

    const made = await admin({ method: 'POST', url: '/api/reports', payload: { month: '2025-03' } });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().result.id;
    const listed = (await admin({ method: 'GET', url: '/api/reports' })).json().result;
    expect(listed[0]).toMatchObject({ id, month: '2025-03', trigger: 'demand', incidents: 2 });
    const page = (await admin({ method: 'GET', url: `/api/reports/${id}?lang=en-US` })).json().result;
    const text = JSON.stringify(page.blocks);
    expect(text).toContain('2 incidents raised, 2 handled (median 3 h from raised to handled)');
    expect(text).toContain(first);
    expect(text).not.toContain(april);

    // The PDF, read back as a PDF reader does: Chinese and English text both there.
    const zh = await admin({ method: 'GET', url: `/api/reports/${id}/pdf?lang=zh-CN` });
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toBe('application/pdf');
    expect(zh.headers['content-disposition']).toContain("filename*=UTF-8''");
    const zhPages = await pdfText(zh.rawPayload);
    if (process.env.REPORT_PDF_DIR) (await import('node:fs')).writeFileSync(`${process.env.REPORT_PDF_DIR}/report-zh.pdf`, zh.rawPayload);
    expect(zhPages[0]).toContain('管网风险月报 · 2025-03');
    expect(zhPages[0]).toContain('本月新增事件 2 起，已处置 2 起');
    expect(zhPages.join('')).toContain('滨江路路面塌陷');
    expect(zhPages[0]).toMatch(/第\s*1\s*页/);
    expect(zhPages).toHaveLength(2);
    const enPages = await pdfText((await admin({ method: 'GET', url: `/api/reports/${id}/pdf?lang=en-US` })).rawPayload);
    expect(enPages[0]).toContain('Monthly pipeline risk report · 2025-03');
    expect(enPages.join('')).toContain(first);

    // Read in another enterprise, by a member of both: none of it.
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: `/api/reports/${id}` })).statusCode).toBe(404);
    expect((await gas({ method: 'GET', url: `/api/reports/${id}/pdf` })).statusCode).toBe(404);
    expect((await gas({ method: 'GET', url: '/api/reports' })).json().result.map((r: { id: number }) => r.id)).not.toContain(id);
  });

  it("of the demo's month draw its settlement bowls on the map with their codes, and list its works and warnings", async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const all = (await admin({ method: 'GET', url: '/api/alerts/incidents?pageSize=100' })).json().result.list.filter((i: { kind: string }) => i.kind === 'bowl') as { code: string; raisedAt: string }[];
    expect(all.length).toBeGreaterThan(0);
    // The month the demo's bowls were raised in (in the enterprise's time zone: early in a month
    // they may be last month's), and the bowls of that month.
    const monthOf = (at: string) => new Date(new Date(at).getTime() + 8 * 3_600_000).toISOString().slice(0, 7);
    const month = monthOf(all[0].raisedAt);
    const bowls = all.filter((b) => monthOf(b.raisedAt) === month);
    const id = (await admin({ method: 'POST', url: '/api/reports', payload: { month } })).json().result.id;
    const { blocks } = (await admin({ method: 'GET', url: `/api/reports/${id}`, headers: { 'accept-language': 'zh-CN' } })).json().result;
    const map = blocks.find((b: { kind: string; svg?: string }) => b.kind === 'drawing' && b.svg!.includes(bowls[0].code));
    expect(map).toBeDefined();
    expect(JSON.stringify(blocks)).toContain(`本月新增沉降漏斗 ${bowls.length} 处`);
    const pdf = await admin({ method: 'GET', url: `/api/reports/${id}/pdf?lang=zh-CN` });
    if (process.env.REPORT_PDF_DIR) (await import('node:fs')).writeFileSync(`${process.env.REPORT_PDF_DIR}/report-demo-zh.pdf`, pdf.rawPayload);
    const text = (await pdfText(pdf.rawPayload)).join('');
    expect(text).toContain(bowls[0].code);
    expect(text).toContain('管道周边施工');
  });

  it('are made once on the first of the month whichever server gets there, and sent to the channels that take reports', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const channel = (name: string, reports: boolean) => admin({ method: 'POST', url: '/api/alerts/channels', payload: { kind: 'wecom', name, webhook: `${robotUrl}/wecom?key=${name}`, levels: ['I'], reports } });
    expect((await channel('reports', true)).statusCode).toBe(200);
    expect((await channel('incidents', false)).statusCode).toBe(200);
    // The demo enterprises were made this month: nothing is due until one existed before it.
    expect(await demo.app.monthlyReports.makeDue()).toBe(0);
    await demo.database.db.update(enterprises).set({ createdAt: new Date('2025-01-01T00:00:00Z') }).where(eq(enterprises.id, demo.ids.water));
    // Two servers at once: one report.
    const made = await Promise.all([demo.app.monthlyReports.makeDue(), demo.app.monthlyReports.makeDue()]);
    expect(made[0] + made[1]).toBe(1);
    expect(await demo.app.monthlyReports.makeDue()).toBe(0);
    const [{ month }] = await queryRows<{ month: string }>(demo.database.db, sql`select to_char((now() at time zone 'Asia/Shanghai') - interval '1 month', 'YYYY-MM') as month`);
    const reports = (await admin({ method: 'GET', url: '/api/reports' })).json().result.filter((r: { trigger: string }) => r.trigger === 'monthly');
    expect(reports.map((r: { month: string }) => r.month)).toEqual([month]);
    await until(() => received.length >= 1, 'the robot to receive the report', 10_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toHaveLength(1);
    expect(received[0].text).toContain(`月度风险报告 ${month}`);
    expect(received[0].text).toContain(`https://console.example.cn/risk/reports?report=${reports[0].id}`);
  });
});
