import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AreaGeometry, ImportJobView } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../testing/app.ts';
import { queryRows } from '../db/client.ts';
import { pointInArea } from './geometry.ts';
import { metresPerDegree } from './local.ts';
import { pointInAreaSql } from './sql.ts';

const demo = useDemoServer();

// A quiet place far from the demo city.
const LON = 121.93, LAT = 31.58;
const [M_LON, M_LAT] = metresPerDegree(LAT);
const at = (eastM: number, northM: number) => [LON + eastM / M_LON, LAT + northM / M_LAT];

/** A slanted triangle of about 200 m: no edge runs along a meridian or a parallel. */
const TRIANGLE: AreaGeometry = { type: 'Polygon', coordinates: [[at(0, 0), at(200, 60), at(40, 180), at(0, 0)]] };
/** Six points inside (two within a metre of an edge) and five 12-40 m outside the slanted edges. */
const INSIDE = [at(80, 80), at(60, 40), at(100, 70), at(50, 150), at(190, 60.5), at(40.5, 178)];
const OUTSIDE = [at(120, 25), at(170, 30), at(140, 140), at(100, 150), at(10, 80)];

describe('point in area: exact, the same in Node and in the database', () => {
  it('keeps the half-open boundary rule: south and west edges in, north and east out; holes out; every part of a multipolygon', () => {
    const square: AreaGeometry = { type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]]] };
    expect([[0, 5], [5, 0], [10, 5], [5, 10], [0, 0], [10, 10]].map((p) => pointInArea(p, square))).toEqual([true, true, false, false, true, false]);
    expect(pointInArea([5, 5], square)).toBe(false);
    expect(pointInArea([4, 5], square)).toBe(false);
    expect(pointInArea([3.999, 5], square)).toBe(true);
    const two: AreaGeometry = { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 6], [5, 5]]]] };
    expect([[0.5, 0.5], [5.5, 5.5], [3, 3]].map((p) => pointInArea(p, two))).toEqual([true, true, false]);
    // A ring whose last position does not repeat its first is closed all the same.
    expect(pointInArea([0.5, 0.9], { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] })).toBe(true);
    expect([...INSIDE.map((p) => pointInArea(p, TRIANGLE)), ...OUTSIDE.map((p) => pointInArea(p, TRIANGLE))]).toEqual([...INSIDE.map(() => true), ...OUTSIDE.map(() => false)]);
  });

  it('answers in SQL exactly what Node answers, for 4,000 points around a slanted triangle with a hole and a multipolygon', async () => {
    const holed: AreaGeometry = { type: 'Polygon', coordinates: [TRIANGLE.coordinates[0] as number[][], [at(60, 60), at(100, 60), at(80, 100), at(60, 60)]] };
    const parts: AreaGeometry = { type: 'MultiPolygon', coordinates: [holed.coordinates as number[][][], [[at(300, 0), at(400, 0), at(350, 90), at(300, 0)]]] };
    // Random points, and the vertices themselves (exactly on the boundary).
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const points = Array.from({ length: 4000 }, () => at(-20 + random() * 440, -20 + random() * 220));
    points.push(...(parts.coordinates.flat(2) as number[][]));
    for (const area of [TRIANGLE, holed, parts]) {
      const values = sql.join(points.map((p, i) => sql`(${i}::int, ${p[0]}::float8, ${p[1]}::float8)`), sql`, `);
      const rows = await queryRows<{ i: number }>(demo.database.db, sql`select i from (values ${values}) as v(i, x, y) where ${pointInAreaSql(sql`v.x`, sql`v.y`, area)} order by i`);
      const expected = points.flatMap((p, i) => (pointInArea(p, area) ? [i] : []));
      expect(rows.map((r) => Number(r.i))).toEqual(expected);
      expect(expected.length).toBeGreaterThan(100);
    }
  });

  it('averages only the settlement points inside, and counts only the pipes inside toward a project and its filters', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    // A provider's point CSV: 6 points inside the triangle, 5 just outside its slanted edges.
    const csv = ['pid,lon,lat,velocity,20240105,20240117', ...[...INSIDE, ...OUTSIDE].map((p, i) => `${i < 6 ? 'IN' : 'OUT'}-${i},${p[0].toFixed(9)},${p[1].toFixed(9)},${i < 6 ? -4 : -20},0,${i < 6 ? -1 : -5}`)].join('\n');
    const analysed = await api({ method: 'POST', url: '/api/settlement/imports', ...multipartFile('file', 'triangle.csv', csv) });
    expect(analysed.statusCode, analysed.body).toBe(200);
    const job = analysed.json().result as ImportJobView;
    const started = await api({ method: 'POST', url: `/api/settlement/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, name: 'triangle', direction: 'vertical' } });
    expect(started.statusCode, started.body).toBe(200);
    await demo.app.imports.settled(job.id);
    const dataset = (await api({ method: 'GET', url: '/api/settlement/datasets' })).json().result.find((d: { name: string }) => d.name === 'triangle');
    const average = (await api({ method: 'POST', url: `/api/settlement/datasets/${dataset.id}/average`, payload: { area: TRIANGLE } })).json().result;
    expect(average).toMatchObject({ count: 6, meanVelocity: -4, displacement: [0, -1] });

    // Pipes: 20 m segments centred on the same points.
    for (const [i, p] of [...INSIDE, ...OUTSIDE].entries()) {
      const geometry = { type: 'LineString', coordinates: [[p[0] - 10 / M_LON, p[1]], [p[0] + 10 / M_LON, p[1]]] };
      expect((await api({ method: 'POST', url: '/api/pipelines', payload: { pipeId: `TRI-${i < 6 ? 'IN' : 'OUT'}-${i}`, networkType: 'water', geometry } })).statusCode).toBe(200);
    }
    const project = await api({ method: 'POST', url: '/api/projects', payload: { name: '三角地块', code: 'TRI-1', city: '杭州', area: TRIANGLE, networkTypes: ['water'] } });
    expect(project.statusCode, project.body).toBe(200);
    const id = project.json().result.id;
    const listed = (await api({ method: 'GET', url: `/api/pipelines?projectId=${id}&pageSize=50` })).json().result;
    expect(listed.list.map((p: { pipeId: string }) => p.pipeId).sort()).toEqual(INSIDE.map((_, i) => `TRI-IN-${i}`));
    const figures = (await api({ method: 'GET', url: `/api/projects/${id}` })).json().result;
    expect(figures.pipeLengthM.water).toBeCloseTo(120, -1);
  });
});
