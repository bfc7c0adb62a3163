import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm';
import { as, login, useDemoServer } from '../testing/app.ts';
import { loggableError, loggableUrl } from './logging.ts';

const demo = useDemoServer();

type Operation = { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } };

describe('the NUL character (U+0000)', () => {
  /**
   * Every route of the OpenAPI document, with U+0000 in each of its query parameters and body
   * fields (or in a stray query parameter when it has none): never a 500, and a 400 names the field.
   */
  it('is refused as bad input naming the field on every route', async () => {
    const doc = (await demo.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    let named = 0;
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      if (path === '/api/logout') continue;
      for (const [method, operation] of Object.entries(methods)) {
        const route = `${method.toUpperCase()} ${path}`;
        const queryNames = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        const bodySchema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
        const bodyNames = Object.keys(bodySchema?.properties ?? {}).filter((name) => name !== 'file');
        const query = Object.fromEntries((queryNames.length ? queryNames : ['keyword']).map((name) => [name, 'a\0b']));
        const payload = method === 'get' ? undefined : Object.fromEntries(bodyNames.map((name) => [name, 'a\0b']));
        const url = path.replace(/\{[^}]+\}/g, '1');
        const response = await api({ method: method.toUpperCase() as 'GET', url, query, payload });
        expect(response.statusCode, `${route}: ${response.body}`).not.toBe(500);
        if (response.statusCode === 400) {
          const message = response.json().message as string;
          expect(message, route).toContain('must not contain the NUL character');
          const firstField = bodyNames[0] ?? queryNames[0] ?? 'keyword';
          expect(message, route).toMatch(new RegExp(`(^|; )${firstField}: `));
          named++;
        }
      }
    }
    expect(named).toBeGreaterThan(40);
  });

  it('is named in Chinese for a Chinese caller, in form bodies as in JSON', async () => {
    const answer = await demo.app.inject({
      method: 'POST',
      url: '/api/checkLogin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'Accept-Language': 'zh-CN' },
      payload: 'username=ad%00min&password=x',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe('username: 不能包含空字符（U+0000）');
  });
});

describe('logs', () => {
  it('keep the SQL of a failed statement but never its parameters', () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    const error = new DrizzleQueryError('select * from users where username = $1', ['secret-password\0'], cause);
    const logged = JSON.stringify(loggableError(error));
    expect(logged).toContain('select * from users where username = $1');
    expect(logged).toContain('22021');
    expect(logged).not.toContain('secret-password');
  });

  it('mask a token passed in the query string', async () => {
    expect(loggableUrl('/project/list?token=abc123&x=1')).toBe('/project/list?token=***&x=1');
    expect(loggableUrl('/a?Access-Token=abc123')).toBe('/a?Access-Token=***');
    expect(loggableUrl('/api/ogc/collections/pipes-water/items?limit=10&key=pcp_secret&cursor=5')).toBe('/api/ogc/collections/pipes-water/items?limit=10&key=***&cursor=5');
    // Names as the server reads them: percent-encoded, in capitals, with a plus for a space.
    expect(loggableUrl('/api/ogc/collections?%6Bey=pcp_secret')).toBe('/api/ogc/collections?%6Bey=***');
    expect(loggableUrl('/api/ogc?KEY=pcp_secret&k%65y=pcp_other#top')).toBe('/api/ogc?KEY=***&k%65y=***#top');
    expect(loggableUrl('/api/ogc?access%5Ftoken=abc&bad=%E0')).toBe('/api/ogc?access%5Ftoken=***&bad=%E0');
    // In the path: after a semicolon (the router reads /api/ogc;key=… as /api/ogc), or a personal token anywhere.
    expect(loggableUrl('/api/ogc;key=a1b2c3d4e5f6')).toBe('/api/ogc;key=***');
    expect(loggableUrl('/api/ogc;f=json;Key=a1b2/collections?limit=1')).toBe('/api/ogc;f=json;Key=***/collections?limit=1');
    expect(loggableUrl('/api/tiles/pcp_AbC123-x_y/14/1/2.pbf')).toBe('/api/tiles/pcp_***/14/1/2.pbf');
    expect(loggableUrl('/api/ogc?f=pcp_leaked')).toBe('/api/ogc?f=pcp_***');
    // Through the real logger: a request with a token in its URL.
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
    const { buildApp } = await import('../app.ts');
    const { readConfig } = await import('../config.ts');
    const app = await buildApp({ config: { ...readConfig({ MQTT_LISTEN: 'off' }), webDist: '/nonexistent', dataDir: demo.dataDir, logRequests: 'all' }, database: demo.database, logger: { level: 'info', stream } });
    await app.inject({ method: 'GET', url: '/api/health?token=supersecrettoken' });
    await app.close();
    expect(lines.join('')).toContain('token=***');
    expect(lines.join('')).not.toContain('supersecrettoken');
  });
});
