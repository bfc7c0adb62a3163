import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { as, login, useDemoServer } from '../../testing/app.ts';
import { queryRows } from '../../db/client.ts';

const demo = useDemoServer();

describe('the big screen', () => {
  it('counts every figure of its own enterprise, as the sources count them', async () => {
    const water = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    const response = await water({ method: 'GET', url: '/api/datav/overview' });
    expect(response.statusCode, response.body).toBe(200);
    const o = response.json().result;

    const byType = await queryRows<{ network_type: string; n: number; km: number }>(
      demo.database.db,
      sql`select network_type, count(*)::int as n, round((sum(length_m) / 1000)::numeric, 1)::float8 as km from pipes where enterprise_id = ${demo.ids.water} group by 1`,
    );
    for (const r of byType) expect(o.network.byType[r.network_type]).toEqual({ pipes: Number(r.n), km: Number(r.km) });
    const diameterKm = Object.values(o.network.byDiameterKm as Record<string, number>).reduce((a, b) => a + b, 0);
    const typeKm = Object.values(o.network.byType as Record<string, { km: number }>).reduce((a, b) => a + b.km, 0);
    expect(Math.abs(diameterKm - typeKm)).toBeLessThan(0.5);

    // The alert figures are the alert desk's; the board is the newest first.
    expect(o.alerts).toEqual((await water({ method: 'GET', url: '/api/alerts/summary' })).json().result);
    expect(o.board.length).toBeGreaterThan(0);
    const times = o.board.map((a: { raisedAt: string }) => Date.parse(a.raisedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(o.risk.segments).toBeGreaterThan(0);
    expect(o.settlement.datasets).toBe(1);
    // The sensors' figures are the sensors screen's.
    expect(o.sensors).toEqual((await water({ method: 'GET', url: '/api/sensors/summary' })).json().result);
    expect(o.sensors.total).toBeGreaterThan(0);
    expect(o.leaks.delivered).toBeGreaterThan(0);
    expect(o.weather.places.length).toBeGreaterThan(0);

    // Another enterprise's screen holds none of it.
    const gas = (await as(demo.app, await login(demo.app, 'both'), demo.ids.gas)({ method: 'GET', url: '/api/datav/overview' })).json().result;
    expect(gas.network.byType.water).toBeUndefined();
    expect(gas.settlement.datasets).toBe(0);
    const waterCodes = new Set(o.board.map((a: { code: string }) => a.code));
    expect(gas.board.some((a: { code: string }) => waterCodes.has(a.code))).toBe(false);
  });
});
