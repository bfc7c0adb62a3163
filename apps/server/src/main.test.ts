import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import CryptoJS from 'crypto-js';
import pg from 'pg';

/**
 * The real start command on a fresh data directory: a client that knows only the spec's
 * sections 4 and 7 registers with an SMS code, signs in, lists its enterprises, reads its
 * permissions, changes its password and logs out, over HTTP.
 */
const dir = mkdtempSync(join(tmpdir(), 'console-main-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess;
let output = '';
let databaseName: string | undefined;

beforeAll(async () => {
  const web = join(dir, 'web');
  mkdirSync(join(web, 'assets'), { recursive: true });
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
  writeFileSync(join(web, 'assets', 'app-1234.js'), 'console.log(1)');
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dir, 'data'), WEB_DIST: web, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  if (process.env.TEST_DATABASE_URL) {
    databaseName = `console_main_${port}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${databaseName}`;
    env.DATABASE_URL = url.toString();
  }
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: join(import.meta.dirname, '..'), env });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  const started = Date.now();
  while (!output.includes('is running')) {
    if (server.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (Date.now() - started > 60_000) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  if (databaseName) {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
});

/** The spec's shared client: base /api, form-encoded bodies, Access-Token header, cookies kept. */
function client() {
  let cookie = '';
  let token = '';
  return {
    setToken: (t: string) => (token = t),
    async call(method: string, path: string, data?: Record<string, string>) {
      const query = method === 'GET' && data ? `?${new URLSearchParams(data)}` : '';
      const response = await fetch(`${base}/api${path}${query}`, {
        method,
        headers: {
          ...(method !== 'GET' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(token ? { 'Access-Token': token } : {}),
          ...(cookie ? { cookie } : {}),
        },
        body: method !== 'GET' ? new URLSearchParams(data ?? {}).toString() : undefined,
      });
      const setCookie = response.headers.get('set-cookie');
      if (setCookie) cookie = setCookie.split(';')[0];
      return { status: response.status, body: await response.json() };
    },
  };
}

const encrypt = (password: string, key: string, iv: string) =>
  CryptoJS.AES.encrypt(password, CryptoJS.enc.Utf8.parse(key), {
    iv: CryptoJS.enc.Utf8.parse(iv),
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.ZeroPadding,
  }).toString();

async function smsCodeFromOutbox(phone: string): Promise<string> {
  // The local SMS provider writes to the server log too; the outbox table is read by the API tests.
  const started = Date.now();
  for (;;) {
    const match = output.match(new RegExp(`"phone":"${phone}","sms":"[^"]*?(\\d{6})`));
    if (match) return match[1];
    if (Date.now() - started > 5000) throw new Error(`no sms in log: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm start', () => {
  it('prints the URL and how to sign in', () => {
    expect(output).toContain(`Console: http://localhost:${port}`);
    expect(output).toMatch(/password Demo123456/);
    expect(output).toContain('admin ');
  });

  it('serves the console with history-mode fallback and the API beside it', async () => {
    const deep = await fetch(`${base}/project/info?id=3`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<div id="root">');
    const asset = await fetch(`${base}/assets/app-1234.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const api404 = await fetch(`${base}/api/nothing-here`);
    expect(api404.status).toBe(404);
    expect((await api404.json()).success).toBe(false);
    const health = await (await fetch(`${base}/api/health`)).json();
    expect(health.result.database.reachable).toBe(true);
  });

  it("runs the spec's client flow: register with SMS, sign in, enterprises, permissions, change password, logout", async () => {
    const c = client();
    expect((await c.call('GET', '/sendSMS', { phone: '13700001111', purpose: 'register' })).body.success).toBe(true);
    const code = await smsCodeFromOutbox('13700001111');
    const registered = await c.call('POST', '/auth/register', { username: 'fieldcrew1', password: 'Crew2026', phone: '13700001111', smsCode: code, realname: '孙强' });
    expect(registered.body.success).toBe(true);

    const signIn = async (password: string) => {
      const { key, iv } = (await c.call('GET', '/getEncryptedString')).body.result;
      return c.call('POST', '/checkLogin', { username: 'fieldcrew1', password: encrypt(password, key, iv) });
    };
    const login = await signIn('Crew2026');
    expect(login.body.result.userInfo).toEqual({ username: 'fieldcrew1', realname: '孙强', avatar: '' });
    c.setToken(login.body.result.token);

    expect((await c.call('GET', '/enterprise/getUserEnterprises')).body.result).toEqual([]);
    const permission = (await c.call('GET', '/getUserPermission')).body.result;
    expect(permission.name).toBe('孙强');
    expect(permission.role.permissions).toEqual(permission.permissions);

    const changed = await c.call('POST', '/user/changPassword', { passwordOld: 'Crew2026', passwordNew: 'Crew2027' });
    expect(changed.body).toMatchObject({ success: true });
    expect((await c.call('GET', '/getUserPermission')).status).toBe(401);

    const again = await signIn('Crew2027');
    c.setToken(again.body.result.token);
    expect((await c.call('POST', '/logout')).body.success).toBe(true);
    expect((await c.call('GET', '/enterprise/getUserEnterprises')).body.result).toEqual({ isLogin: false });
  });

  it('signs the demo admin in and lists the demo enterprises', async () => {
    const c = client();
    const { key, iv } = (await c.call('GET', '/getEncryptedString')).body.result;
    const login = await c.call('POST', '/checkLogin', { username: 'both', password: encrypt('Demo123456', key, iv) });
    c.setToken(login.body.result.token);
    const list = (await c.call('GET', '/enterprise/getUserEnterprises')).body.result;
    expect(list.map((e: { isVerified: string; userType: string }) => [e.isVerified, e.userType])).toEqual([
      ['1', 'member'],
      ['1', 'admin'],
    ]);
  });

  it('shuts down gracefully on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
