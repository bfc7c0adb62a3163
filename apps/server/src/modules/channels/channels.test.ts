import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { as, login, useDemoServer } from '../../testing/app.ts';
import { MAX_ATTEMPTS } from './outbox.ts';

/** A group robot's webhook as DingTalk and WeCom run it: checks the JSON (and DingTalk's signature), answers errcode. */
interface Received {
  path: string;
  query: URLSearchParams;
  body: { msgtype: string; markdown: { title?: string; text?: string; content?: string } };
  signatureValid: boolean | null;
}
const received: Received[] = [];
const SECRET = 'SECa1b2c3d4e5f6';
/** Paths that answer with a failure this many more times (a robot down, then back). */
const failures = new Map<string, number>();
const robot = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    const url = new URL(req.url!, 'http://robot');
    const timestamp = url.searchParams.get('timestamp');
    const signatureValid = timestamp ? createHmac('sha256', SECRET).update(`${timestamp}\n${SECRET}`).digest('base64') === url.searchParams.get('sign') : null;
    const left = failures.get(url.pathname) ?? 0;
    if (left > 0) {
      failures.set(url.pathname, left - 1);
      res.writeHead(500).end('down');
      return;
    }
    let body: Received['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ errcode: 40035, errmsg: 'invalid json' }));
      return;
    }
    received.push({ path: url.pathname, query: url.searchParams, body, signatureValid });
    // DingTalk refuses a wrong signature with its own errcode.
    const answer = signatureValid === false ? { errcode: 310000, errmsg: 'sign not match' } : { errcode: 0, errmsg: 'ok' };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});
await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
const robotUrl = `http://127.0.0.1:${(robot.address() as AddressInfo).port}`;

/** A mail server in the test process: what the console's mailer delivers, parsed. */
const mails: ParsedMail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, _session, callback) {
    simpleParser(stream).then((mail) => {
      mails.push(mail);
      callback();
    }, callback);
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as AddressInfo).port;
afterAll(async () => {
  robot.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const demo = useDemoServer({ robotHosts: ['127.0.0.1'], smtpUrl: `smtp://127.0.0.1:${smtpPort}`, smtpFrom: 'alerts@water.example.cn', consoleUrl: 'https://console.example.cn', channelRetryMs: 20 });

const until = async (condition: () => boolean | Promise<boolean>, ms = 10_000) => {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('incident channels', () => {
  it('announce grave incidents to DingTalk (signed), WeCom and e-mail, each linking to the incident, once per incident and channel', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const member = as(demo.app, await login(demo.app, 'member'), demo.ids.water);
    const channel = (payload: Record<string, unknown>, language = 'en-US') => admin({ method: 'POST', url: '/api/alerts/channels', payload, headers: { 'accept-language': language } });
    // Only administrators set channels; a robot off the hosts this server sends to is refused, naming the field.
    expect((await member({ method: 'POST', url: '/api/alerts/channels', payload: { kind: 'wecom', name: 'x', webhook: `${robotUrl}/wecom?key=k1`, levels: ['I'] } })).statusCode).toBe(403);
    const offHost = await channel({ kind: 'dingtalk', name: '外部', webhook: 'https://oapi.example.com/robot/send?access_token=x', levels: ['I'] }, 'zh-CN');
    expect(offHost.statusCode).toBe(400);
    expect(offHost.json().message).toBe('webhook：机器人地址须在 127.0.0.1 上（本服务器允许发送的主机）');
    expect((await channel({ kind: 'email', name: '无收件人', levels: ['I'] })).json().message).toMatch(/^recipients: /);
    expect((await channel({ kind: 'wecom', name: '无等级', webhook: `${robotUrl}/wecom`, levels: [] })).json().message).toMatch(/^levels: /);

    for (const payload of [
      { kind: 'dingtalk', name: '值班群（钉钉）', webhook: `${robotUrl}/dingtalk?access_token=abc`, secret: SECRET, levels: ['I', 'II'] },
      { kind: 'wecom', name: '抢修群（企业微信）', webhook: `${robotUrl}/wecom?key=k1`, levels: ['I'] },
      { kind: 'email', name: '调度中心邮箱', recipients: ['duty@water.example.cn', 'chief@water.example.cn'], levels: ['I', 'II'] },
    ]) expect((await channel(payload)).statusCode).toBe(200);
    const listed = (await admin({ method: 'GET', url: '/api/alerts/channels' })).json().result;
    expect(listed.map((c: { kind: string; hasSecret: boolean }) => [c.kind, c.hasSecret])).toEqual([['dingtalk', true], ['wecom', false], ['email', false]]);
    // Credentials are never sent back: not the secret, not the robot's token (members see where incidents go).
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    expect(listed[0].webhook).toBe(`${robotUrl}/dingtalk?access_token=…abc`);
    expect((await member({ method: 'GET', url: '/api/alerts/channels' })).json().result.map((c: { name: string }) => c.name)).toEqual(['值班群（钉钉）', '抢修群（企业微信）', '调度中心邮箱']);
    expect((await member({ method: 'DELETE', url: `/api/alerts/channels/${listed[0].id}` })).statusCode).toBe(403);
    // Renamed without its address or secret: both kept.
    const renamed = await admin({ method: 'PUT', url: `/api/alerts/channels/${listed[0].id}`, payload: { kind: 'dingtalk', name: '值班群', levels: ['I', 'II'] } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await admin({ method: 'PUT', url: `/api/alerts/channels/${listed[0].id}`, payload: { kind: 'wecom', name: '值班群', levels: ['I'] } })).json().message).toMatch(/^webhook: /);

    // A level I incident: one message to each channel, with the link to it.
    const incident = (await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '滨江路路面塌陷', level: 'I', point: [120.2, 30.2] } })).json().result;
    const link = `https://console.example.cn/risk/alerts?incident=${incident.id}`;
    await until(() => received.length >= 2 && mails.length >= 1);
    const ding = received.find((r) => r.path === '/dingtalk')!;
    expect(ding.signatureValid).toBe(true);
    expect(ding.query.get('access_token')).toBe('abc');
    expect(ding.body).toMatchObject({ msgtype: 'markdown', markdown: { title: `新事件 ${incident.code}` } });
    expect(ding.body.markdown.text).toContain(`I级事件 ${incident.code}，滨江路路面塌陷。待确认`);
    expect(ding.body.markdown.text).toContain(`[${link}](${link})`);
    const wecom = received.find((r) => r.path === '/wecom')!;
    expect(wecom.signatureValid).toBeNull();
    expect(wecom.body.msgtype).toBe('markdown');
    expect(wecom.body.markdown.content).toContain(incident.code);
    expect(wecom.body.markdown.content).toContain(link);
    expect(mails[0].subject).toBe(`新事件 ${incident.code}`);
    expect(mails[0].from?.text).toBe('alerts@water.example.cn');
    expect((Array.isArray(mails[0].to) ? mails[0].to : [mails[0].to!]).map((a) => a.text).join(',')).toBe('duty@water.example.cn, chief@water.example.cn');
    expect(mails[0].text).toContain(link);
    const sends = (await admin({ method: 'GET', url: '/api/alerts/sends' })).json().result;
    expect(sends.filter((s: { incidentId: number }) => s.incidentId === incident.id).map((s: { state: string; event: string; attempts: number }) => [s.state, s.event, s.attempts])).toEqual([
      ['sent', 'raised', 1],
      ['sent', 'raised', 1],
      ['sent', 'raised', 1],
    ]);

    // A level III incident is for the desk only: no channel takes its level.
    const before = received.length;
    await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '井盖松动', level: 'III', point: [120.21, 30.2] } });
    // Dispatched: the channels of its level hear it once.
    await admin({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/confirm`, payload: {} });
    const [crew] = (await admin({ method: 'GET', url: '/api/enterprise/members' })).json().result.filter((m: { username: string }) => m.username === 'member');
    expect((await admin({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/dispatch`, payload: { organisation: '抢修一队', assigneeId: crew.userId } })).statusCode).toBe(200);
    await until(() => received.length >= before + 2 && mails.length >= 2);
    await demo.app.alerts.idle();
    expect(received.slice(before).map((r) => [r.path, r.body.markdown.title ?? r.body.markdown.content!.split('\n')[0]]).sort()).toEqual([
      ['/dingtalk', `事件已派单 ${incident.code}`],
      ['/wecom', `**事件已派单 ${incident.code}**`],
    ]);
    expect(mails[1].text).toContain('已派单');

    // Another enterprise sees none of these channels or sends.
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gas({ method: 'GET', url: '/api/alerts/channels' })).json().result).toEqual([]);
    expect((await gas({ method: 'GET', url: '/api/alerts/sends' })).json().result).toEqual([]);
    expect((await gas({ method: 'POST', url: `/api/alerts/channels/${listed[0].id}/test` })).statusCode).toBe(404);
    expect((await gas({ method: 'DELETE', url: `/api/alerts/channels/${listed[0].id}` })).statusCode).toBe(404);
    for (const c of listed) await admin({ method: 'DELETE', url: `/api/alerts/channels/${c.id}` });
  });

  it('retry a robot that is down with backoff, record each outcome, and never hold up the step', async () => {
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const add = async (name: string, path: string, secret?: string) =>
      (await admin({ method: 'POST', url: '/api/alerts/channels', payload: { kind: 'dingtalk', name, webhook: `${robotUrl}${path}`, secret, levels: ['II'] } })).json().result.id as number;
    const flaky = await add('时好时坏', '/flaky');
    const down = await add('一直宕机', '/down');
    // A wrong secret: DingTalk refuses the signature, which is an outcome recorded like any other.
    const wrongSecret = await add('密钥错误', '/wrong', 'SECwrong');
    failures.set('/flaky', 2);
    failures.set('/down', 1_000);

    const raised = await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '阀门井渗水', level: 'II', point: [120.22, 30.2] } });
    expect(raised.statusCode).toBe(200);
    const sendsOf = async (channelId: number) => (await admin({ method: 'GET', url: '/api/alerts/sends' })).json().result.filter((s: { channelId: number }) => s.channelId === channelId);
    await until(async () => (await sendsOf(flaky))[0]?.state === 'sent');
    expect((await sendsOf(flaky))[0]).toMatchObject({ state: 'sent', attempts: 3, lastError: null, incidentCode: raised.json().result.code });
    await until(async () => (await sendsOf(down))[0]?.state === 'failed');
    expect((await sendsOf(down))[0]).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, lastError: 'HTTP 500' });
    await until(async () => (await sendsOf(wrongSecret))[0]?.state === 'failed');
    expect((await sendsOf(wrongSecret))[0].lastError).toBe('errcode 310000: sign not match');
    // The channel list shows each one's latest outcome; a test message is sent now and answered.
    const channels = (await admin({ method: 'GET', url: '/api/alerts/channels' })).json().result;
    expect(channels.find((c: { id: number }) => c.id === down).lastSend).toMatchObject({ state: 'failed', error: 'HTTP 500' });
    failures.set('/down', 0);
    const test = (await admin({ method: 'POST', url: `/api/alerts/channels/${down}/test`, headers: { 'accept-language': 'en-US' } })).json().result;
    expect(test).toMatchObject({ event: 'test', state: 'sent', attempts: 1 });
    expect(received.at(-1)!.body.markdown.text).toContain('this channel works');
    for (const id of [flaky, down, wrongSecret]) await admin({ method: 'DELETE', url: `/api/alerts/channels/${id}` });
  });
});
