import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTLEMENT_THRESHOLDS } from '@console/contract';
import { as, login, useDemoServer } from '../testing/app.ts';

/**
 * A fuzzer's view of the write forms: one field of a valid body replaced by a hostile value. Every
 * 400 must name that field first, so a user (or an integrator) knows what to fix.
 */
const server = useDemoServer();

const HOSTILE: unknown[] = [
  Array.from({ length: 20 }, (_, i) => 30 + i / 100),
  -1,
  Number.NaN,
  '',
  'abc',
  {},
  [],
  null,
  true,
  [[1, 2]],
  'x'.repeat(5000),
  1e308,
  '[1,2,3]',
  { type: 'Point' },
];
/** -1e400 is JSON a client can send but JavaScript cannot write: it is put in the text by hand. */
const OVERFLOW = '__overflow__';

const FORMS: [method: 'POST' | 'PUT', url: string, valid: Record<string, unknown>][] = [
  ['POST', '/api/construction/sites', { name: '滨江路地铁站', buildType: 'metro', point: [120.2, 30.2], radiusM: 50 }],
  ['POST', '/api/risk-areas/areas', { name: '空洞', kind: 'void', level: 'I', point: [120.2, 30.2] }],
  ['POST', '/api/alerts/alerts', { title: '井盖松动', level: 'I', point: [120.2, 30.2] }],
  ['PUT', '/api/settlement/thresholds', { ...DEFAULT_SETTLEMENT_THRESHOLDS, projectId: 0 }],
];

describe('a 400 names the field that was sent wrong', () => {
  it('for every field of the write forms and every hostile value', async () => {
    const admin = as(server.app, await login(server.app, 'admin'), server.ids.water);
    const refused: string[] = [];
    const misnamed: string[] = [];
    for (const [method, url, valid] of FORMS) {
      expect((await admin({ method, url, payload: valid })).statusCode, url).toBe(200);
      for (const field of [...Object.keys(valid), 'geometry']) {
        for (const value of [...HOSTILE, OVERFLOW]) {
          const payload = JSON.stringify({ ...valid, [field]: value }).replace(`"${OVERFLOW}"`, '-1e400');
          const answer = await admin({ method, url, payload, headers: { 'content-type': 'application/json' } });
          if (answer.statusCode === 200) continue;
          expect(answer.statusCode, `${url} ${field}=${payload.slice(0, 80)}`).toBe(400);
          const message: string = answer.json().message;
          refused.push(message);
          if (!message.startsWith(`${field}:`) && !message.startsWith(`${field}.`)) misnamed.push(`${url} ${field} -> ${message}`);
        }
      }
    }
    expect(refused.length).toBeGreaterThan(200);
    expect(misnamed).toEqual([]);
  });

  it('says what a geometry must be, in the caller\'s language', async () => {
    const admin = as(server.app, await login(server.app, 'admin'), server.ids.water);
    const payload = { name: 'x', buildType: 'metro', geometry: { type: 'Point', coordinates: [120.2, 30.2] } };
    const english = await admin({ method: 'POST', url: '/api/construction/sites', payload });
    expect(english.json().message).toBe('geometry.type: must be a GeoJSON Polygon or MultiPolygon');
    const chinese = await admin({ method: 'POST', url: '/api/construction/sites', payload, headers: { 'accept-language': 'zh-CN' } });
    expect(chinese.json().message).toBe('geometry.type: 须为 GeoJSON Polygon 或 MultiPolygon');
  });
});
