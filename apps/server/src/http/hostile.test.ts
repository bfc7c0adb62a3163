import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, login, multipartFile, useDemoServer, type TestApp } from '../testing/app.ts';

const demo = useDemoServer();

/** Every route of the OpenAPI document that takes a multipart file, with its field name. */
async function fileRoutes() {
  const doc = (await demo.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  const routes: { method: string; url: string; field: string }[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, { format?: string }> } }> } }>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const multipart = operation.requestBody?.content?.['multipart/form-data']?.schema?.properties ?? {};
      const field = Object.entries(multipart).find(([, schema]) => schema.format === 'binary')?.[0];
      if (field) routes.push({ method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, '1'), field });
    }
  }
  return routes;
}

describe('input by other doors than JSON fields', () => {
  it('refuses U+0000 in a multipart file name on every upload route, naming the field', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const routes = await fileRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(12);
    for (const route of routes) {
      const response = await api({ method: route.method as 'POST', url: route.url, ...multipartFile(route.field, 'pipes\0.geojson', '{"type":"FeatureCollection","features":[]}') });
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(400);
      expect(response.json().message).toBe(`${route.field}.filename: must not contain the NUL character (U+0000)`);
    }
    expect(await readdir(join(demo.dataDir, 'uploads'))).toEqual([]);
  });

  it('refuses U+0000 in a cookie, without a token, naming the cookie', async () => {
    for (const lang of ['en-US', 'zh-CN']) {
      const response = await demo.app.inject({ method: 'POST', url: '/api/checkLogin', headers: { 'accept-language': lang, cookie: 'login_key=%00abc' }, payload: { username: 'admin', password: 'x' } });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toBe(lang === 'en-US' ? 'cookie.login_key: must not contain the NUL character (U+0000)' : 'cookie.login_key: 不能包含空字符（U+0000）');
    }
  });

  it('refuses a body nested 5,000 levels deep with 400 on routes with and without a token', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const deepArray = '['.repeat(5000) + ']'.repeat(5000);
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    for (const payload of [deep, deepArray]) {
      const open = await demo.app.inject({ method: 'POST', url: '/api/checkLogin', headers: { 'content-type': 'application/json' }, payload });
      expect(open.statusCode, open.body).toBe(400);
      expect(open.json().message).toBe('request: nests more than 64 levels deep');
      const signedIn = await api({ method: 'POST', url: '/api/projects', headers: { 'content-type': 'application/json' }, payload });
      expect(signedIn.statusCode, signedIn.body).toBe(400);
    }
    // 64 levels are still input (the fields are then checked as usual).
    const fine = await demo.app.inject({ method: 'POST', url: '/api/checkLogin', payload: JSON.parse('{"a":'.repeat(63) + '1' + '}'.repeat(63)) });
    expect(fine.json().message).not.toContain('nests');
  });
});

/** A small file system of its own (tmpfs) for DATA_DIR, so the disk can really fill; root only. */
function mountSmallDisk(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a full disk', () => {
  let dir = '';
  let mounted = false;
  let test: TestApp | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'console-full-'));
    mounted = mountSmallDisk(dir);
    if (mounted) test = await createTestApp({ dataDir: dir });
  });
  afterAll(async () => {
    // Drops the scratch database and the test's own folder (its DATA_DIR is the small disk, unmounted below).
    await test?.close();
    if (mounted) execFileSync('umount', [dir]);
    await rm(dir, { recursive: true, force: true });
  });

  it('answers an upload 507 with a message, keeps no partial file and goes on serving', async (context) => {
    // CI runs as root, where mounting works: there a failure to mount fails the test, never skips it.
    if (!mounted && process.env.CI) throw new Error('could not mount a small file system (tmpfs) for DATA_DIR: the full-disk test did not run');
    if (!mounted) return context.skip('mounting a small file system needs root');
    const app = test!.app;
    const api = as(app, await login(app, 'admin'));
    const ids = (await api({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result as { id: number }[];
    const member = as(app, await login(app, 'admin'), ids[0].id);
    const big = Buffer.alloc(2 * 1024 * 1024, 'a');
    for (const lang of ['en-US', 'zh-CN']) {
      const upload = multipartFile('file', 'pipes.csv', big);
      const response = await member({ method: 'POST', url: '/api/pipelines/imports', payload: upload.payload, headers: { ...upload.headers, 'accept-language': lang } });
      expect(response.statusCode, response.body).toBe(507);
      expect(response.json().message).toBe(lang === 'en-US' ? 'The server has no disk space left: nothing was kept. Try again later or tell your administrator' : '服务器磁盘空间已满，未保存任何内容。请稍后重试或联系管理员');
    }
    expect(await readdir(join(dir, 'uploads'))).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await member({ method: 'GET', url: '/api/projects' })).json().success).toBe(true);
    // The space came back: a small file is taken again.
    const small = await member({ method: 'POST', url: '/api/pipelines/imports', ...multipartFile('file', 'pipes.csv', 'id,lon,lat\np1,120.1,30.2\n') });
    expect(small.statusCode, small.body).toBe(200);
  });
});
