import { describe, expect, it } from 'vitest';
import { eq, like, sql } from 'drizzle-orm';
import { translate } from '@console/contract';
import { accessTokens, loginKeys, throttles, users } from '../../db/schema.ts';
import { as, cookieOf, DEMO_PASSWORD, encryptPassword, login, loginResponse, useDemoServer } from '../../testing/app.ts';
import { nonEmpty } from '../../testing/lists.ts';

const demo = useDemoServer();

const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function getKey(remoteAddress?: string) {
  const response = await demo.app.inject({ method: 'GET', url: '/api/getEncryptedString', remoteAddress });
  return { ...response.json().result, cookie: cookieOf(response, 'login_key')!, response };
}

function postLogin(username: string, password: string, cookie?: string, extra: { remoteAddress?: string; headers?: Record<string, string> } = {}) {
  return demo.app.inject({
    method: 'POST',
    url: '/api/checkLogin',
    headers: { ...form, ...(extra.headers ?? {}) },
    cookies: cookie ? { login_key: cookie } : {},
    remoteAddress: extra.remoteAddress,
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

describe('GET /api/getEncryptedString', () => {
  it('issues a 16-character key and iv bound to an http-only cookie', async () => {
    const { key, iv, response } = await getKey();
    expect(response.statusCode).toBe(200);
    expect(key).toMatch(/^[\x21-\x7e]{16}$/);
    expect(iv).toMatch(/^[\x21-\x7e]{16}$/);
    const cookie = response.cookies.find((c: { name: string }) => c.name === 'login_key') as { httpOnly?: boolean; maxAge?: number } | undefined;
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.maxAge).toBe(120);
    const second = await getKey();
    expect(second.key).not.toBe(key);
  });
});

describe('POST /api/checkLogin', () => {
  it('signs in the way the console does (crypto-js AES-CBC zero padding, form-encoded)', async () => {
    const response = await loginResponse(demo.app, 'admin');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, code: 200, result: { userInfo: { username: 'admin', realname: '王建国', avatar: '' } } });
    expect(typeof body.timestamp).toBe('number');
    expect(body.result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.headers['access-token']).toBe(body.result.token);
    // Only the hash is stored.
    const stored = await demo.database.db.select().from(accessTokens).where(eq(accessTokens.tokenHash, body.result.token));
    expect(stored).toHaveLength(0);
  });

  it('accepts a password whose UTF-8 form is longer than one block', async () => {
    const token = await login(demo.app, 'member');
    const long = 'Abc123456789Xyz987654321';
    const changed = await as(demo.app, token)({ method: 'POST', url: '/api/user/changPassword', headers: form, payload: `passwordOld=${DEMO_PASSWORD}&passwordNew=${long}` });
    expect(changed.json().success).toBe(true);
    expect((await loginResponse(demo.app, 'member', long)).json().success).toBe(true);
    const back = await login(demo.app, 'member', long);
    await as(demo.app, back)({ method: 'POST', url: '/api/user/changPassword', headers: form, payload: `passwordOld=${long}&passwordNew=${DEMO_PASSWORD}` });
  });

  it('answers "wrong username or password" for a wrong password and an unknown user, in the request language', async () => {
    const wrong = await loginResponse(demo.app, 'viewer', 'nottheright1');
    expect(wrong.json()).toMatchObject({ success: false, message: 'wrong username or password', result: null });
    const unknown = await loginResponse(demo.app, 'nobody-here', DEMO_PASSWORD);
    expect(unknown.json()).toMatchObject({ success: false, message: 'wrong username or password' });
    const zh = await loginResponse(demo.app, 'viewer', 'nottheright1', { 'Accept-Language': 'zh-CN,zh;q=0.9' });
    expect(zh.json()).toMatchObject({ success: false, message: '账户名或密码错误' });
    await demo.database.db.delete(throttles);
  });

  it('refuses a replayed ciphertext and a reused key', async () => {
    const { key, iv, cookie } = await getKey();
    const cipher = encryptPassword(DEMO_PASSWORD, key, iv);
    expect((await postLogin('viewer', cipher, cookie)).json().success).toBe(true);
    const replay = await postLogin('viewer', cipher, cookie);
    expect(replay.json()).toMatchObject({ success: false, message: 'wrong username or password' });
    await demo.database.db.delete(throttles);
  });

  it('refuses an expired key, a missing cookie and undecryptable text', async () => {
    const expired = await getKey();
    await demo.database.db.update(loginKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(loginKeys.key, expired.key));
    expect((await postLogin('viewer', encryptPassword(DEMO_PASSWORD, expired.key, expired.iv), expired.cookie)).json().success).toBe(false);

    const noCookie = await getKey();
    expect((await postLogin('viewer', encryptPassword(DEMO_PASSWORD, noCookie.key, noCookie.iv))).json().success).toBe(false);

    for (const garbage of ['not-base64-at-all!!', 'AAAA', Buffer.from('short').toString('base64')]) {
      const k = await getKey();
      expect((await postLogin('viewer', garbage, k.cookie)).json()).toMatchObject({ success: false, message: 'wrong username or password' });
    }
    const plain = await getKey();
    expect((await postLogin('viewer', DEMO_PASSWORD, plain.cookie)).json().success).toBe(false);
    await demo.database.db.delete(throttles);
  });

  it('names the missing field with 400', async () => {
    const response = await demo.app.inject({ method: 'POST', url: '/api/checkLogin', headers: form, payload: 'password=abc' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 400, message: 'username: is required' });
    const zh = await demo.app.inject({ method: 'POST', url: '/api/checkLogin', headers: { ...form, 'Accept-Language': 'zh-CN' }, payload: 'password=abc' });
    expect(zh.json().message).toBe('username: 不能为空');
  });

  it('accepts JSON and multipart bodies too', async () => {
    const k1 = await getKey();
    const json = await demo.app.inject({
      method: 'POST',
      url: '/api/checkLogin',
      cookies: { login_key: k1.cookie },
      payload: { username: 'viewer', password: encryptPassword(DEMO_PASSWORD, k1.key, k1.iv) },
    });
    expect(json.json().success).toBe(true);

    const k2 = await getKey();
    const boundary = '----console-test';
    const parts = { username: 'viewer', password: encryptPassword(DEMO_PASSWORD, k2.key, k2.iv) };
    const payload =
      Object.entries(parts)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') + `--${boundary}--\r\n`;
    const multipart = await demo.app.inject({
      method: 'POST',
      url: '/api/checkLogin',
      cookies: { login_key: k2.cookie },
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(multipart.json().success).toBe(true);
  });

  it('answers unreadable JSON with 400 and no internals', async () => {
    const response = await demo.app.inject({ method: 'POST', url: '/api/checkLogin', headers: { 'content-type': 'application/json' }, payload: '{"username": ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, message: 'The request body cannot be read' });
    expect(response.body).not.toMatch(/at .*\.ts|stack|SyntaxError/);
  });
});

describe('sign-in lockout', () => {
  it('locks a username after 5 failures within 15 minutes, even for the right password, and unlocks after', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await loginResponse(demo.app, 'viewer', `wrongpass${i}`, {});
      expect(r.statusCode).toBe(200);
      expect(r.json().success).toBe(false);
    }
    const locked = await loginResponse(demo.app, 'viewer');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().result.retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect(locked.json().message).toMatch(/try again in 15 minute/);
    // 15 minutes later the lock is over.
    await demo.database.db.update(throttles).set({ windowStart: sql`${throttles.windowStart} - interval '16 minutes'` });
    expect((await loginResponse(demo.app, 'viewer')).json().success).toBe(true);
  });

  it('resets the count on success', async () => {
    for (let i = 0; i < 4; i++) await loginResponse(demo.app, 'viewer', `wrongpass${i}`);
    expect((await loginResponse(demo.app, 'viewer')).json().success).toBe(true);
    for (let i = 0; i < 4; i++) await loginResponse(demo.app, 'viewer', `wrongpass${i}`);
    expect((await loginResponse(demo.app, 'viewer')).statusCode).toBe(200);
    expect((await demo.database.db.select().from(throttles).where(like(throttles.scope, 'sign-in:%'))).length).toBe(0);
  });

  it('judges only 5 of 60 wrong passwords sent at once: the check and the count are one step', async () => {
    const remoteAddress = '10.9.8.60';
    const keys = await Promise.all(Array.from({ length: 60 }, () => getKey(remoteAddress)));
    const answers = await Promise.all(keys.map((k, i) => postLogin('member', encryptPassword(`wrongpass${i}`, k.key, k.iv), k.cookie, { remoteAddress })));
    const judged = answers.filter((a) => a.statusCode === 200);
    // Exactly 5: the username's and the address's counts are taken in one statement, so the
    // attempts are counted in the same order in both (in two, none may pass on a server database).
    expect(judged.length).toBe(5);
    expect(nonEmpty(judged).every((a) => a.json().success === false)).toBe(true);
    expect(answers.filter((a) => a.statusCode === 429).length).toBe(60 - judged.length);
    await demo.database.db.delete(throttles);
  });

  it('locks an address that fails for 5 different usernames', async () => {
    const remoteAddress = '10.9.8.7';
    for (let i = 0; i < 5; i++) {
      const k = await getKey(remoteAddress);
      await postLogin(`someone${i}`, encryptPassword('whatever1', k.key, k.iv), k.cookie, { remoteAddress });
    }
    const k = await getKey(remoteAddress);
    const locked = await postLogin('admin', encryptPassword(DEMO_PASSWORD, k.key, k.iv), k.cookie, { remoteAddress });
    expect(locked.statusCode).toBe(429);
    const zh = await postLogin('admin', 'x', k.cookie, { remoteAddress, headers: { 'Accept-Language': 'zh-CN' } });
    expect(zh.json().message).toMatch(/登录失败次数过多/);
    // Another address is not affected.
    expect((await loginResponse(demo.app, 'admin')).json().success).toBe(true);
    await demo.database.db.delete(throttles);
  });
});

describe('sign-in keys', () => {
  it('gives one address 120 keys a minute, however many it asks for at once', async () => {
    const remoteAddress = '10.9.8.120';
    const answers = await Promise.all(Array.from({ length: 150 }, () => demo.app.inject({ method: 'GET', url: '/api/getEncryptedString', remoteAddress })));
    expect(answers.filter((a) => a.statusCode === 200).length).toBe(120);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().result.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Too many requests from this address, try again in \d+ s$/);
    // Another address is not affected.
    expect((await demo.app.inject({ method: 'GET', url: '/api/getEncryptedString', remoteAddress: '10.9.8.121' })).statusCode).toBe(200);
    await demo.database.db.delete(throttles);
  });
});

describe('tokens', () => {
  it('answers 401 with isLogin false for a missing, unknown, expired or revoked token', async () => {
    const missing = await demo.app.inject({ method: 'GET', url: '/api/getUserPermission' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ success: false, code: 401, result: { isLogin: false }, message: 'Authorization verification failed' });

    const unknown = await as(demo.app, 'not-a-token')({ method: 'GET', url: '/api/getUserPermission' });
    expect(unknown.statusCode).toBe(401);

    const token = await login(demo.app, 'viewer');
    expect((await as(demo.app, token)({ method: 'GET', url: '/api/getUserPermission' })).statusCode).toBe(200);
    const [viewer] = await demo.database.db.select().from(users).where(eq(users.username, 'viewer'));
    await demo.database.db.update(accessTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(accessTokens.userId, viewer.id));
    // Changed behind the server's back: as another server would, say so on the change feed.
    demo.app.changes.publish({ enterpriseId: null });
    expect((await as(demo.app, token)({ method: 'GET', url: '/api/getUserPermission' })).statusCode).toBe(401);
  });

  it('expire 7 days after sign-in', async () => {
    const token = await login(demo.app, 'viewer');
    const [row] = await demo.database.db
      .select({ ms: sql<number>`(extract(epoch from ${accessTokens.expiresAt} - ${accessTokens.createdAt}) * 1000)::float8` })
      .from(accessTokens)
      .orderBy(sql`${accessTokens.id} desc`)
      .limit(1);
    expect(Math.abs(Number(row.ms) - 604_800_000)).toBeLessThan(2000);
    expect(token).toBeTruthy();
  });

  it.runIf(process.env.TEST_DATABASE_URL)('a token revoked or a role changed on one server is seen by another on the same PostgreSQL within a second', async () => {
    const { openDatabase } = await import('../../db/client.ts');
    const { buildApp } = await import('../../app.ts');
    const { readConfig } = await import('../../config.ts');
    const { rows } = (await demo.database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${rows[0].name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
    const other = await buildApp({ config: { ...readConfig({ MQTT_LISTEN: 'off' }), webDist: '/nonexistent', dataDir: demo.dataDir }, database });
    try {
      const token = await login(demo.app, 'viewer');
      const permissions = (app: typeof other) => as(app, token, demo.ids.water)({ method: 'GET', url: '/api/getUserPermission' });
      // Both servers have the token and the membership in their caches.
      expect((await permissions(other)).json().result.userType).toBe('viewer');
      expect((await permissions(demo.app)).statusCode).toBe(200);
      // The admin makes the viewer a member on this server: the other server knows within a second.
      const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
      const members = (await admin({ method: 'GET', url: '/api/enterprise/members' })).json().result as { userId: number; username: string }[];
      const viewer = members.find((m) => m.username === 'viewer')!;
      const changed = await admin({ method: 'PUT', url: `/api/enterprise/members/${viewer.userId}/role`, payload: { role: 'member' } });
      expect(changed.statusCode, changed.body).toBe(200);
      await expect.poll(async () => (await permissions(other)).json().result.userType, { timeout: 1000, interval: 50 }).toBe('member');
      await admin({ method: 'PUT', url: `/api/enterprise/members/${viewer.userId}/role`, payload: { role: 'viewer' } });
      // Signed out on this server: refused by the other within a second.
      await as(demo.app, token)({ method: 'POST', url: '/api/logout' });
      await expect.poll(async () => (await permissions(other)).statusCode, { timeout: 1000, interval: 50 }).toBe(401);
    } finally {
      await other.close();
      await database.close();
    }
  });

  it('are revoked by logout, and logout answers success when the token is already gone', async () => {
    const token = await login(demo.app, 'viewer');
    const other = await login(demo.app, 'viewer');
    const out = await as(demo.app, token)({ method: 'POST', url: '/api/logout' });
    expect(out.json().success).toBe(true);
    expect((await as(demo.app, token)({ method: 'GET', url: '/api/getUserPermission' })).statusCode).toBe(401);
    expect((await as(demo.app, other)({ method: 'GET', url: '/api/getUserPermission' })).statusCode).toBe(200);
    expect((await as(demo.app, token)({ method: 'POST', url: '/api/logout' })).json().success).toBe(true);
    expect((await demo.app.inject({ method: 'POST', url: '/api/logout' })).json().success).toBe(true);
  });
});

describe('GET /api/getUserPermission', () => {
  it('reports the role table of the current enterprise', async () => {
    const answer = await as(demo.app, await login(demo.app, 'admin'))({ method: 'GET', url: '/api/getUserPermission', headers: { 'accept-language': 'zh-CN' } });
    // Written from UTF-8 pieces kept per role: the length counts bytes, the text reads back whole.
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
    expect(answer.json().message).toBe(translate('ok', 'zh-CN'));
    const admin = answer.json().result;
    expect(admin).toMatchObject({ name: '王建国', avatar: '', userType: 'admin' });
    expect(admin.role.permissions).toEqual(admin.permissions);
    expect(admin.permissions.map((p: { permissionId: string }) => p.permissionId)).toEqual(
      expect.arrayContaining(['dashboard', 'project', 'pipeline', 'enterprise', 'users', 'leak', 'saocom', 'poi', 'settlement', 'risk', 'weather', 'datav']),
    );
    const users = admin.permissions.find((p: { permissionId: string }) => p.permissionId === 'users');
    expect(users.actionList).toEqual(['add', 'delete', 'edit', 'query', 'get', 'enable', 'disable', 'import', 'export']);

    const viewer = (await as(demo.app, await login(demo.app, 'viewer'))({ method: 'GET', url: '/api/getUserPermission' })).json().result;
    expect(viewer.userType).toBe('viewer');
    for (const p of viewer.permissions) expect(p.actionList).not.toContain('edit');
  });

  it('gives a user without a verified enterprise only the right to register or join one', async () => {
    const result = (await as(demo.app, await login(demo.app, 'newcomer'))({ method: 'GET', url: '/api/getUserPermission' })).json().result;
    expect(result).toMatchObject({ enterpriseId: null, userType: null, permissions: [{ permissionId: 'enterprise', actionList: ['add'] }] });
  });
});

describe('POST /api/user/changPassword', () => {
  it('refuses a wrong old password and a new password with other characters than letters and digits', async () => {
    const token = await login(demo.app, 'viewer');
    const wrongOld = await as(demo.app, token)({ method: 'POST', url: '/api/user/changPassword', headers: form, payload: 'passwordOld=nope12345&passwordNew=Newpass123' });
    expect(wrongOld.json()).toMatchObject({ success: false, message: 'Old password: this is not your current password' });
    const symbols = await as(demo.app, token)({ method: 'POST', url: '/api/user/changPassword', headers: form, payload: `passwordOld=${DEMO_PASSWORD}&passwordNew=new-pass!` });
    expect(symbols.statusCode).toBe(400);
    expect(symbols.json().message).toBe('passwordNew: only letters or digits are allowed');
    const short = await as(demo.app, token)({ method: 'POST', url: '/api/user/changPassword', headers: { ...form, 'Accept-Language': 'zh-CN' }, payload: `passwordOld=${DEMO_PASSWORD}&passwordNew=ab1` });
    expect(short.json().message).toBe('passwordNew: 至少 6 位');
  });

  it('changes the password and revokes every token of the user', async () => {
    const first = await login(demo.app, 'viewer');
    const second = await login(demo.app, 'viewer');
    const changed = await as(demo.app, first)({ method: 'POST', url: '/api/user/changPassword', headers: form, payload: `passwordOld=${DEMO_PASSWORD}&passwordNew=Changed123` });
    expect(changed.json()).toMatchObject({ success: true, message: 'Password changed, please sign in again' });
    expect((await as(demo.app, first)({ method: 'GET', url: '/api/getUserPermission' })).statusCode).toBe(401);
    expect((await as(demo.app, second)({ method: 'GET', url: '/api/getUserPermission' })).statusCode).toBe(401);
    expect((await loginResponse(demo.app, 'viewer')).json().success).toBe(false);
    const token = await login(demo.app, 'viewer', 'Changed123');
    await as(demo.app, token)({ method: 'POST', url: '/api/user/changPassword', headers: form, payload: `passwordOld=Changed123&passwordNew=${DEMO_PASSWORD}` });
    await demo.database.db.delete(throttles);
  });
});

describe('GET /api/health and unknown routes', () => {
  it('reports version and database', async () => {
    const response = await demo.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json().result).toMatchObject({ status: 'ok', version: '0.1.0', database: { reachable: true } });
  });

  it('answers an unknown API path with a 404 envelope', async () => {
    const response = await demo.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 404 });
  });

  it('publishes an OpenAPI document generated from the contract', async () => {
    const response = await demo.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/checkLogin', '/api/getEncryptedString', '/api/user/changPassword', '/api/enterprise/getUserEnterprises']));
    expect(JSON.stringify(doc.paths['/api/checkLogin'].post.requestBody)).toContain('username');
    expect((await demo.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });
});
