import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { readConfig } from '../config.ts';
import { as, login, multipartFile, useDemoServer } from '../testing/app.ts';

const demo = useDemoServer();
let app: FastifyInstance;
let webDist: string;
const script = 'console.log("the console");'.repeat(100);

beforeAll(async () => {
  // A built console as the build leaves it: hashed assets with their .br and .gz copies.
  webDist = await mkdtemp(join(tmpdir(), 'console-dist-'));
  await mkdir(join(webDist, 'assets'));
  await writeFile(join(webDist, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(join(webDist, 'assets', 'app-abc123.js'), script);
  await writeFile(join(webDist, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
  await writeFile(join(webDist, 'assets', 'app-abc123.js.gz'), gzipSync(script));
  app = await buildApp({ config: { ...readConfig({ MQTT_LISTEN: 'off' }), webDist, dataDir: demo.dataDir }, database: demo.database });
});
afterAll(async () => {
  await app?.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('security headers', () => {
  it('the console and the API forbid sniffing and framing, under a policy the console and its maps work with', async () => {
    for (const url of ['/', '/project/list', '/assets/app-abc123.js', '/api/health', '/api/settings']) {
      const answer = await app.inject({ method: 'GET', url });
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['x-frame-options'], url).toBe('DENY');
      const csp = String(answer.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toContain('upgrade-insecure-requests');
      if (url.startsWith('/api/')) {
        // Data, never a page: nothing may load from it, other sites may not read it, and the
        // headers that steer only documents are left off.
        expect(csp, url).toBe("default-src 'none';frame-ancestors 'none'");
        expect(answer.headers['cross-origin-resource-policy'], url).toBe('same-origin');
        for (const documentOnly of ['referrer-policy', 'cross-origin-opener-policy', 'x-xss-protection', 'x-dns-prefetch-control']) {
          expect(answer.headers[documentOnly], `${url} ${documentOnly}`).toBeUndefined();
        }
      } else {
        expect(csp, url).toContain("script-src 'self'");
        // Map servers named in the enterprise's settings: tiles and capabilities over http(s).
        expect(csp, url).toMatch(/img-src [^;]*https:/);
        expect(csp, url).toMatch(/connect-src [^;]*http:/);
      }
    }
    // The API docs page keeps a policy of its own that lets its scripts run.
    const docs = await app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
    expect(docs.headers['content-security-policy']).toContain('validator.swagger.io');
  });

  it('photos are served with nosniff and their checked type', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const projects = (await api({ method: 'GET', url: '/api/projects' })).json().result as { id: number; code: string }[];
    const leakProject = projects.find((p) => p.code === 'BJ-LEAK-2026')!;
    const [poi] = (await api({ method: 'GET', url: `/api/leaks/pois?projectId=${leakProject.id}&pageSize=1` })).json().result.list as { id: number }[];
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const added = await api({ method: 'POST', url: `/api/leaks/pois/${poi.id}/photos`, ...multipartFile('file', 'x.html', png) });
    const photo = await api({ method: 'GET', url: `/api/leaks/photos/${added.json().result.id}` });
    expect(photo.headers['x-content-type-options']).toBe('nosniff');
    expect(photo.headers['content-type']).toBe('image/png');
  });
});

describe('the built console', () => {
  it('is sent precompressed (brotli or gzip, as the browser accepts) with long-lived caching of hashed assets', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);
    const gz = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    const page = await app.inject({ method: 'GET', url: '/project/list' });
    expect(page.headers['cache-control']).toBe('no-cache');
  });
});
