import { describe, expect, it } from 'vitest';
import type { ImportJobView } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { metresPerDegree } from '../../geo/local.ts';
import { nonEmpty } from '../../testing/lists.ts';

// Composite risk assessed by a pipe import's job (as `npm start` runs it), never by the hour-long debounce.
const demo = useDemoServer({ riskDelayMs: 3_600_000 });
type Api = ReturnType<typeof as>;

// A quiet district far from the demo city: only this file's pipes, site and area are here.
const LON = 121.95, LAT = 31.55;
const [M_LON, M_LAT] = metresPerDegree(LAT);
const at = (eastM: number, northM: number) => [Math.round((LON + eastM / M_LON) * 1e8) / 1e8, Math.round((LAT + northM / M_LAT) * 1e8) / 1e8];
const wkt = (points: number[][]) => `"LINESTRING (${points.map((p) => p.join(' ')).join(', ')})"`;
const polygon = (west: number, south: number, east: number, north: number) => ({
  type: 'Polygon',
  coordinates: [[at(west, south), at(east, south), at(east, north), at(west, north), at(west, south)]],
});

/**
 * A utility's register as it exports it (Chinese headers, WKT): 96 water service pipes north of a
 * metro station's works, 3 m apart, each 5 m from the site's edge; 252 drainage laterals in a low
 * street 2 km east, inside one waterlogging zone.
 */
function register(): string {
  const rows = ['管线编号,管线类型,管径,材质,WKT'];
  for (let i = 0; i < 96; i++) rows.push(`MT-${String(i + 1).padStart(3, '0')},给水,100,球墨铸铁,${wkt([at(-142.5 + 3 * i, 15), at(-142.5 + 3 * i, 35)])}`);
  for (let row = 0; row < 3; row++) for (let i = 0; i < 84; i++) {
    rows.push(`WL-${row}-${String(i + 1).padStart(2, '0')},排水,300,混凝土,${wkt([at(2000 + 4 * i, 20 * row), at(2000 + 4 * i, 20 * row + 12)])}`);
  }
  return rows.join('\r\n');
}

async function importRegister(api: Api, content = register()): Promise<ImportJobView> {
  const analysed = await api({ method: 'POST', url: '/api/pipelines/imports', ...multipartFile('file', '管线台账.csv', content) });
  expect(analysed.statusCode, analysed.body).toBe(200);
  const job = analysed.json().result as ImportJobView;
  const started = await api({ method: 'POST', url: `/api/pipelines/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, mode: 'append' } });
  expect(started.statusCode, started.body).toBe(200);
  await demo.app.imports.settled(job.id);
  return (await api({ method: 'GET', url: `/api/pipelines/imports/${job.id}` })).json().result;
}

/** Every row of a paged list, page by page. */
async function everyPage<T>(api: Api, url: string, pageSize: number): Promise<{ total: number; rows: T[] }> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const result = (await api({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}page=${page}&pageSize=${pageSize}` })).json().result;
    rows.push(...result.list);
    if (rows.length >= result.total || !result.list.length) return { total: result.total, rows };
  }
}

describe('every pipe a site or an area holds counts, whatever a list shows', () => {
  it('scores all 96 pipes of a metro corridor and all 252 of a level I area, pages them in the drawers and names the site and area in each explanation', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect(await importRegister(api)).toMatchObject({ status: 'succeeded', rowsWritten: 348 });
    // The metro works: 300 m by 20 m along the street.
    const site = (await api({ method: 'POST', url: '/api/construction/sites', payload: { siteNo: 'MT-SITE-1', name: '地铁 9 号线车站', buildType: 'metro', source: 'report', geometry: polygon(-150, -10, 150, 10) } })).json().result;
    expect(site).toMatchObject({ criticality: 'high', measure: { corridorCount: { water: 96 } } });
    // The waterlogging zone over the low street, level I.
    const area = (await api({ method: 'POST', url: '/api/risk-areas/areas', payload: { name: '低洼路段积水区', kind: 'waterlogging', level: 'I', bufferM: 5, geometry: polygon(1995, -5, 2340, 57) } })).json().result;
    expect(area.pipes.count).toEqual({ drainage: 252 });

    // The drawers page the whole sets, nearest first.
    const corridor = await everyPage<{ pipeId: string; distanceM: number }>(api, `/api/construction/sites/${site.id}/pipes`, 20);
    expect(corridor.total).toBe(96);
    expect(new Set(corridor.rows.map((p) => p.pipeId)).size).toBe(96);
    expect(nonEmpty(corridor.rows).every((p) => Math.abs(p.distanceM - 5) < 0.01)).toBe(true);
    const held = await everyPage<{ pipeId: string; distanceM: number }>(api, `/api/risk-areas/areas/${area.id}/pipes`, 50);
    expect(held.total).toBe(252);
    expect(new Set(held.rows.map((p) => p.pipeId)).size).toBe(252);
    // Another enterprise's site or area is not there.
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    expect((await water({ method: 'GET', url: `/api/construction/sites/${site.id}/pipes` })).statusCode).toBe(404);
    expect((await water({ method: 'GET', url: `/api/risk-areas/areas/${area.id}/pipes` })).statusCode).toBe(404);

    // Composite risk: every pipe of the corridor gets the works factor of a high site, every pipe of the area level I's.
    expect((await api({ method: 'POST', url: '/api/pipe-risk/runs' })).statusCode).toBe(200);
    const metro = await everyPage<{ pipeId: string; pipeRowId: number; factors: Record<string, number> }>(api, '/api/pipe-risk/pipes?keyword=MT-', 500);
    expect(metro.rows).toHaveLength(96);
    expect(metro.rows.filter((r) => r.factors.construction !== 5).map((r) => r.pipeId)).toEqual([]);
    const low = await everyPage<{ pipeId: string; pipeRowId: number; factors: Record<string, number> }>(api, '/api/pipe-risk/pipes?keyword=WL-', 500);
    expect(low.rows).toHaveLength(252);
    expect(low.rows.filter((r) => r.factors.riskAreas !== 5).map((r) => r.pipeId)).toEqual([]);

    // Each explanation names what scores it, the last pipe of each set as well as the first.
    for (const pipe of [metro.rows[0], metro.rows[95]]) {
      const explained = (await api({ method: 'GET', url: `/api/pipe-risk/pipes/${pipe.pipeRowId}` })).json().result;
      expect(explained.sources.construction.map((s: { siteNo: string }) => s.siteNo)).toEqual(['MT-SITE-1']);
    }
    for (const pipe of [low.rows[0], low.rows[251]]) {
      const explained = (await api({ method: 'GET', url: `/api/pipe-risk/pipes/${pipe.pipeRowId}` })).json().result;
      expect(explained.sources.riskAreas.map((a: { name: string }) => a.name)).toEqual(['低洼路段积水区']);
    }

    // The site judged a threat: its alert carries every pipe of the corridor.
    expect((await api({ method: 'POST', url: `/api/construction/sites/${site.id}/judge`, payload: { result: 'threat' } })).statusCode).toBe(200);
    expect((await api({ method: 'POST', url: '/api/alerts/check' })).statusCode).toBe(200);
    const alert = (await api({ method: 'GET', url: '/api/alerts/alerts?keyword=MT-SITE-1' })).json().result.list.find((a: { rule: string }) => a.rule === 'constructionThreat');
    expect(alert.pipeCount).toBe(96);
    const detail = (await api({ method: 'GET', url: `/api/alerts/alerts/${alert.id}` })).json().result;
    expect(detail.pipeIds).toHaveLength(96);
  });
});

describe("a pipe import's job", () => {
  it('succeeds only once the sites and areas near the new pipes are measured again and the network assessed', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    // Four more service pipes in the metro corridor, as the next month's register brings them.
    const rows = ['管线编号,管线类型,管径,材质,WKT', ...[0, 1, 2, 3].map((i) => `MT-NEW-${i},给水,100,PE,${wkt([at(-140 + 3 * i, -15), at(-140 + 3 * i, -35)])}`)];
    const job = await importRegister(api, rows.join('\r\n'));
    expect(job).toMatchObject({ status: 'succeeded', rowsWritten: 4, progress: 1 });
    const [site] = (await api({ method: 'GET', url: '/api/construction/sites?keyword=MT-SITE-1' })).json().result.list;
    expect(site.measure.corridorCount).toEqual({ water: 100 });
    expect(Date.parse(site.measure.measuredAt)).toBeLessThanOrEqual(Date.parse(job.finishedAt!));
    const [run] = (await api({ method: 'GET', url: '/api/pipe-risk/runs' })).json().result;
    expect(run).toMatchObject({ status: 'succeeded', reason: 'change' });
    expect(Date.parse(run.finishedAt)).toBeLessThanOrEqual(Date.parse(job.finishedAt!));
    const fresh = (await api({ method: 'GET', url: '/api/pipe-risk/pipes?keyword=MT-NEW-' })).json().result.list as { factors: Record<string, number> }[];
    expect(fresh.map((r) => r.factors.construction)).toEqual([5, 5, 5, 5]);
  });
});
