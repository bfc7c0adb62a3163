import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/app.ts';
import type { Config } from '../config.ts';

/** The server's log lines (pino JSON) while `work` runs on a server made with `overrides`. */
async function logOf(overrides: Partial<Config>, work: (app: Awaited<ReturnType<typeof createTestApp>>['app']) => Promise<void>) {
  const lines: string[] = [];
  const server = await createTestApp(overrides, { level: 'info', stream: new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }) });
  try {
    lines.length = 0;
    await work(server.app);
    return lines.map((line) => JSON.parse(line) as { level: number; msg: string; url?: string; statusCode?: number; ms?: number });
  } finally {
    await server.close();
  }
}

describe('request logging', () => {
  const requests = async (app: Awaited<ReturnType<typeof createTestApp>>['app']) => {
    for (let i = 0; i < 5; i++) expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/no-such-route' })).statusCode).toBe(404);
  };

  // One server each: a test app seeds a demo, and three in one test outran the time limit on a busy machine.
  it('writes nothing for quick answers by default', async () => {
    expect((await logOf({}, requests)).filter((line) => /request/.test(line.msg))).toEqual([]);
  });

  it('writes a warning for each slow answer', async () => {
    const slow = await logOf({ logSlowMs: 0 }, requests);
    expect(slow.filter((line) => line.msg === 'slow request')).toHaveLength(6);
    expect(slow[0]).toMatchObject({ level: 40, url: '/api/health', statusCode: 200 });
  });

  it('writes one line per request with LOG_REQUESTS=all', async () => {
    const all = await logOf({ logRequests: 'all' }, requests);
    const perRequest = all.filter((line) => line.msg === 'request');
    expect(perRequest.map((line) => line.statusCode)).toEqual([200, 200, 200, 200, 200, 404]);
    // One line each (Fastify's own "incoming request" and "request completed" are off).
    expect(all.filter((line) => /incoming request|request completed/.test(line.msg))).toEqual([]);
  });
});
