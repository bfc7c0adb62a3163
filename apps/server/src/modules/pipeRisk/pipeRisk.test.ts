import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_WEIGHTS, riskLevelOf, weightedScore, type ImportJobView, type SettlementDataset } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { metresPerDegree } from '../../geo/local.ts';
import { pipeRiskRuns } from '../../db/schema.ts';
import { nonEmpty } from '../../testing/lists.ts';
import { queryRows } from '../../db/client.ts';

const demo = useDemoServer();
type Api = ReturnType<typeof as>;

// A quiet place far from the demo city: only the fixture's pipes and site are here.
const LON = 121.9, LAT = 31.5;
const [M_LON, M_LAT] = metresPerDegree(LAT);
const east = (metres: number) => LON + metres / M_LON;
const north = (metres: number) => LAT + metres / M_LAT;

async function addPipe(api: Api, payload: Record<string, unknown>) {
  const response = await api({ method: 'POST', url: '/api/pipelines', payload });
  expect(response.statusCode, response.body).toBe(200);
}
async function assess(api: Api) {
  const response = await api({ method: 'POST', url: '/api/pipe-risk/runs' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}
const risk = async (api: Api, pipeId: string) => {
  const { list } = (await api({ method: 'GET', url: `/api/pipe-risk/pipes?keyword=${pipeId}` })).json().result;
  return list.find((r: { pipeId: string }) => r.pipeId === pipeId);
};

describe('composite risk per pipe segment', () => {
  it('scores each factor, weighs likelihood and consequence, places R on the matrix and flags a factor at its maximum', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    // A: an old steel gas main, DN100, medium pressure, with road works 2 m beside it.
    await addPipe(api, { pipeId: 'RISK-A', networkType: 'gas', material: 'steel', diameterMm: 100, pressureClass: '中压', installYear: 1980, geometry: { type: 'LineString', coordinates: [[LON, LAT], [LON, north(100)]] } });
    // B: a young PE water pipe, DN300, laid 0.8 m deep, 1 km east.
    await addPipe(api, { pipeId: 'RISK-B', networkType: 'water', material: 'PE', diameterMm: 300, installYear: 2020, depthM: 0.8, geometry: { type: 'LineString', coordinates: [[east(1000), LAT], [east(1000), north(100)]] } });
    const site = (await api({ method: 'POST', url: '/api/construction/sites', payload: { siteNo: 'RISK-SITE', name: '道路施工', buildType: 'road', point: [east(-12), north(50)], radiusM: 10 } })).json().result;
    const works = { high: 5, medium: 4, low: 3, none: 2 }[site.criticality as 'high' | 'medium' | 'low' | 'none'];

    const run = await assess(api);
    expect(run).toMatchObject({ status: 'succeeded', reason: 'manual' });
    const a = await risk(api, 'RISK-A');
    // Age 46 years -> 5, steel +1 (capped at 5); DN100 -> 4; the works by the site's criticality.
    expect(a.factors).toEqual({ ageMaterial: 5, diameter: 4, leaks: 1, settlement: 1, construction: works, riskAreas: 1, weather: 1, medium: 5, size: 3, sensitive: 1 });
    // Default weights: L = 5*.2 + 4*.1 + 1*.2 + 1*.15 + works*.15 + 1*.1 + 1*.1; C = 5*.5 + 3*.3 + 1*.2 = 3.6 -> 4.
    const likelihood = Math.round(1 + 0.4 + 0.2 + 0.15 + works * 0.15 + 0.1 + 0.1);
    expect(a).toMatchObject({ likelihood, consequence: 4, score: likelihood * 4, masked: true });
    const b = await risk(api, 'RISK-B');
    // Age 6 -> 1, PE -1 (at least 1); DN300 -> 2; L = 1*.2 + 2*.1 + .2 + .15 + .15 + .1 + .1 = 1.1 -> 1; C = 3*.5 + 3*.3 + 1*.2 = 2.6 -> 3.
    expect(b).toMatchObject({ factors: { ageMaterial: 1, diameter: 2, leaks: 1, settlement: 1, construction: 1, riskAreas: 1, weather: 1, medium: 3, size: 3, sensitive: 1 }, likelihood: 1, consequence: 3, score: 3, level: 'IV', masked: false });
    // The index within R is the product of the unrounded means: B's 1.1 x 2.6 = 2.86.
    expect(b.riskIndex).toBeCloseTo(2.86, 2);
    expect(a.riskIndex).toBeCloseTo((1 + 0.4 + 0.2 + 0.15 + works * 0.15 + 0.1 + 0.1) * 3.6, 2);

    // Worst first by R, then by the index within R; the percentile (within the level) follows the same order.
    const ranked = (await api({ method: 'GET', url: '/api/pipe-risk/pipes?pageSize=1000' })).json().result.list as { score: number; riskIndex: number; percentile: number; level: string }[];
    expect(ranked.length).toBeGreaterThan(10);
    for (let i = 1; i < ranked.length; i++) {
      const [before, row] = [ranked[i - 1], ranked[i]];
      expect(row.score < before.score || (row.score === before.score && row.riskIndex <= before.riskIndex), `row ${i}`).toBe(true);
      if (row.level === before.level) expect(row.percentile).toBeLessThanOrEqual(before.percentile);
      // A level ends with its lowest: above none of its level.
      else expect(before.percentile).toBe(0);
    }
    // The last of each level is above none of its level.
    expect(ranked.at(-1)!.percentile).toBe(0);
    // Every stored percentile is percent_rank() within the level by (R, index), over the whole network.
    const { rows: off } = (await demo.database.db.execute(sql`
      select count(*)::int as count from (
        select percentile, (100 * percent_rank() over (partition by level order by score, risk_index))::real as ranked
        from pipe_risks where enterprise_id = ${demo.ids.gas}) r where percentile <> ranked`)) as unknown as { rows: { count: number }[] };
    expect(off[0].count).toBe(0);
    // Every stored segment's L, C, R, level and mask follow from its own ten scores (the grades are
    // worked out once per distinct set of scores and joined back: a wrong join shows here).
    const { rows: stored } = (await demo.database.db.execute(sql`
      select age_material, diameter, leaks, settlement, construction, risk_areas, weather, medium, size, sensitive, likelihood, consequence, score, level, masked
      from pipe_risks where enterprise_id = ${demo.ids.gas}`)) as unknown as { rows: Record<string, number | string | boolean>[] };
    expect(stored.length).toBeGreaterThan(10);
    for (const r of stored) {
      const f = (k: string) => Number(r[k]);
      const L = weightedScore({ ageMaterial: f('age_material'), diameter: f('diameter'), leaks: f('leaks'), settlement: f('settlement'), construction: f('construction'), riskAreas: f('risk_areas'), weather: f('weather') }, DEFAULT_RISK_WEIGHTS.likelihood);
      const C = weightedScore({ medium: f('medium'), size: f('size'), sensitive: f('sensitive') }, DEFAULT_RISK_WEIGHTS.consequence);
      const scores = ['age_material', 'diameter', 'leaks', 'settlement', 'construction', 'risk_areas', 'weather', 'medium', 'size', 'sensitive'].map(f);
      expect({ L: r.likelihood, C: r.consequence, R: r.score, level: r.level, masked: r.masked }).toEqual({ L, C, R: L * C, level: riskLevelOf(L * C), masked: Math.max(...scores) === 5 });
    }
    // Segments of one R are told apart: some R holds several indexes.
    const indexesByScore = new Map<number, Set<number>>();
    for (const r of ranked) (indexesByScore.get(r.score) ?? indexesByScore.set(r.score, new Set()).get(r.score)!).add(r.riskIndex);
    expect(Math.max(...[...indexesByScore.values()].map((set) => set.size))).toBeGreaterThan(1);

    // The list: worst first, level and masking filters, totals from the run's figures.
    const masked = (await api({ method: 'GET', url: '/api/pipe-risk/pipes?masked=true&keyword=RISK-' })).json().result;
    expect(masked.list.map((r: { pipeId: string }) => r.pipeId)).toEqual(['RISK-A']);
    const summary = (await api({ method: 'GET', url: '/api/pipe-risk/summary' })).json().result;
    const all = (await api({ method: 'GET', url: '/api/pipe-risk/pipes?pageSize=1' })).json().result;
    expect(all.total).toBe(summary.segments);
    const blue = (await api({ method: 'GET', url: '/api/pipe-risk/pipes?level=IV&pageSize=1000' })).json().result;
    expect(blue.total).toBe(summary.levels.IV);
    expect(nonEmpty(blue.list).every((r: { level: string; score: number }) => r.level === 'IV' && r.score <= 3)).toBe(true);

    // Explained: the site that set the works factor.
    const explained = (await api({ method: 'GET', url: `/api/pipe-risk/pipes/${a.pipeRowId}` })).json().result;
    expect(explained.sources.construction.map((s: { siteNo: string }) => s.siteNo)).toEqual(['RISK-SITE']);
    expect(explained.history).toEqual([]);
  });

  it('weights set by an admin assess the network again; the change of level is kept with its day', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const before = await risk(api, 'RISK-A');
    const refused = await api({ method: 'PUT', url: '/api/pipe-risk/weights', payload: { likelihood: { ageMaterial: 0, diameter: 0, leaks: 0, settlement: 0, construction: 0, riskAreas: 0, weather: 0 }, consequence: { medium: 1, size: 0, sensitive: 0 } } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('likelihood: give at least one factor a weight above 0');
    // Each assessment is a table of its own swapped in for the enterprise's partition (migration
    // 0043): no row of the old one is deleted, and no other enterprise's assessment is touched.
    const figures = async () =>
      ((await demo.database.db.execute(sql`select to_regclass(${`pipe_risks_of_${demo.ids.gas}`})::oid::int as partition,
        (select count(*)::int from pipe_risks where enterprise_id = ${demo.ids.gas}) as gas, (select count(*)::int from pipes where enterprise_id = ${demo.ids.gas}) as "gasPipes",
        (select count(*)::int from pipe_risks where enterprise_id = ${demo.ids.water}) as water`)) as unknown as { rows: { partition: number; gas: number; gasPipes: number; water: number }[] }).rows[0];
    const partitionBefore = await figures();
    // Age alone: A's likelihood 5, C 4 -> R 20, major.
    const saved = await api({ method: 'PUT', url: '/api/pipe-risk/weights', payload: { likelihood: { ageMaterial: 1, diameter: 0, leaks: 0, settlement: 0, construction: 0, riskAreas: 0, weather: 0 }, consequence: { medium: 0.6, size: 0.4, sensitive: 0 } } });
    expect(saved.statusCode, saved.body).toBe(200);
    await demo.app.pipeRisk.idle();
    const after = await risk(api, 'RISK-A');
    expect(after).toMatchObject({ likelihood: 5, score: 20, level: 'I' });
    const explained = (await api({ method: 'GET', url: `/api/pipe-risk/pipes/${after.pipeRowId}` })).json().result;
    expect(explained.history).toEqual([{ changedOn: after.assessedOn, fromLevel: before.level, toLevel: 'I' }]);
    const runs = (await api({ method: 'GET', url: '/api/pipe-risk/runs' })).json().result;
    expect(runs[0]).toMatchObject({ reason: 'weights', status: 'succeeded' });
    expect(runs[0].changed).toBeGreaterThan(0);
    const partitionAfter = await figures();
    expect(partitionAfter.partition).not.toBe(partitionBefore.partition);
    expect(partitionAfter).toMatchObject({ gas: partitionAfter.gasPipes, water: partitionBefore.water });
  });

  it('a cold wave in force over a shallow water pipe raises its weather factor', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    const polygon = [[LAT - 0.01, LON - 0.01], [LAT - 0.01, LON + 0.03], [LAT + 0.01, LON + 0.03], [LAT + 0.01, LON - 0.01], [LAT - 0.01, LON - 0.01]].map(([y, x]) => `${y},${x}`).join(' ');
    const cap = `<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>risk-cold-${Date.now()}</identifier><sender>test</sender><sent>${at(-60)}</sent><status>Actual</status><msgType>Alert</msgType><scope>Public</scope>
      <info><event>寒潮</event><urgency>Expected</urgency><severity>Moderate</severity><certainty>Likely</certainty><onset>${at(-60)}</onset><expires>${at(300)}</expires><headline>寒潮黄色预警</headline><area><areaDesc>x</areaDesc><polygon>${polygon}</polygon></area></info></alert>`;
    const kept = await api({ method: 'POST', url: '/api/weather/uploads', ...multipartFile('file', 'cold.xml', cap) });
    expect(kept.statusCode, kept.body).toBe(200);
    await assess(api);
    const b = await risk(api, 'RISK-B');
    expect(b.factors.weather).toBe(3); // yellow
    const explained = (await api({ method: 'GET', url: `/api/pipe-risk/pipes/${b.pipeRowId}` })).json().result;
    expect(explained.sources.weather).toEqual([expect.objectContaining({ type: 'coldWave', level: 'III' })]);
  });

  it('a sensitive sites layer imported whole raises the consequence of the segments near its sites, by distance', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const point = (x: number, y: number, properties: Record<string, string>) => ({ type: 'Feature', properties, geometry: { type: 'Point', coordinates: [x, y] } });
    const upload = async (name: string, features: unknown[]) => {
      const job = (await api({ method: 'POST', url: '/api/pipe-risk/sensitive-sites/imports', ...multipartFile('file', name, JSON.stringify({ type: 'FeatureCollection', features })) })).json().result;
      const started = await api({ method: 'POST', url: `/api/pipe-risk/sensitive-sites/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping } });
      expect(started.statusCode, started.body).toBe(200);
      await demo.app.imports.settled(job.id);
      return (await api({ method: 'GET', url: `/api/pipe-risk/sensitive-sites/imports/${job.id}`, headers: { 'accept-language': 'zh-CN' } })).json().result;
    };
    // A school 30 m east of A (5); a hospital 150 m west of B (3); a station 2 km away (none).
    const good = await upload('sites.geojson', [
      point(east(30), north(50), { 名称: '滨江实验小学', 类型: '学校' }),
      point(east(850), north(50), { 名称: '区人民医院', 类型: '医院' }),
      point(east(3000), north(50), { 名称: '地铁站', 类型: '地铁站' }),
    ]);
    expect(good).toMatchObject({ status: 'succeeded', rowsWritten: 3 });
    await assess(api);
    expect((await risk(api, 'RISK-A')).factors.sensitive).toBe(5);
    const b = await risk(api, 'RISK-B');
    expect(b.factors.sensitive).toBe(3);
    const explained = (await api({ method: 'GET', url: `/api/pipe-risk/pipes/${b.pipeRowId}` })).json().result;
    expect(explained.sources.sensitive).toEqual([expect.objectContaining({ name: '区人民医院', kind: 'hospital' })]);
    expect(explained.sources.sensitive[0].distanceM).toBeGreaterThan(148);
    expect(explained.sources.sensitive[0].distanceM).toBeLessThan(152);

    // A bad layer (a line, an unknown kind) is refused whole: the kept layer stays.
    const bad = await upload('bad.geojson', [
      point(east(10), north(10), { 名称: '寺庙', 类型: '寺庙' }),
      { type: 'Feature', properties: { 名称: '道路', 类型: '其他' }, geometry: { type: 'LineString', coordinates: [[LON, LAT], [east(10), LAT]] } },
    ]);
    expect(bad.status).toBe('failed');
    expect(bad.problems.map((p: { row: number; field: string }) => [p.row, p.field.split(' ')[0]])).toEqual([[1, 'kind'], [2, 'geometry']]);
    expect(bad.problems[0].reason).toContain('不是敏感场所类型');
    const layer = (await api({ method: 'GET', url: '/api/pipe-risk/sensitive-sites' })).json().result;
    expect(layer.map((s: { name: string }) => s.name).sort()).toEqual(['区人民医院', '地铁站', '滨江实验小学']);
    // The other enterprise keeps its own layer (the demo's), none of these.
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const waterLayer = (await water({ method: 'GET', url: '/api/pipe-risk/sensitive-sites' })).json().result.map((s: { name: string }) => s.name);
    expect(waterLayer).toHaveLength(14);
    expect(waterLayer).not.toContain('滨江实验小学');
  });

  it('one assessment at a time; exports the list; each enterprise sees only its own segments', async () => {
    const api = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const [held] = await demo.database.db.insert(pipeRiskRuns).values({ enterpriseId: demo.ids.gas, status: 'running', reason: 'test', weights: { likelihood: {} as never, consequence: {} as never } }).returning();
    const busy = await api({ method: 'POST', url: '/api/pipe-risk/runs' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe('A risk assessment is already running for this enterprise');
    await demo.database.db.delete(pipeRiskRuns).where((await import('drizzle-orm')).eq(pipeRiskRuns.id, held.id));

    const csv = (await api({ method: 'GET', url: '/api/pipe-risk/pipes/export?format=csv&keyword=RISK-' })).body;
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header).toContain('pipeId,networkType,material,diameterMm,installYear,lengthM,ageMaterial,diameter,leaks');
    expect(lines.map((l) => /RISK-[AB]/.exec(l)?.[0]).sort()).toEqual(['RISK-A', 'RISK-B']);

    const a = await risk(api, 'RISK-A');
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    expect((await water({ method: 'GET', url: `/api/pipe-risk/pipes/${a.pipeRowId}` })).statusCode).toBe(404);
    expect((await water({ method: 'GET', url: '/api/pipe-risk/pipes?keyword=RISK-' })).json().result.list).toEqual([]);
    const viewer = as(demo.app, await login(demo.app, 'viewer'), demo.ids.water);
    expect((await viewer({ method: 'POST', url: '/api/pipe-risk/runs' })).statusCode).toBe(403);
    expect((await viewer({ method: 'GET', url: '/api/pipe-risk/pipes' })).statusCode).toBe(200);
  });

  it('several enterprises assessed at the same moment all succeed (each swaps its own partition in, one after the other)', async () => {
    const gas = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const runs = await Promise.all([gas, water, gas, water].map((api) => api({ method: 'POST', url: '/api/pipe-risk/runs' })));
    // Each enterprise runs one (the other request of it is told one is running) and both succeed.
    const succeeded = runs.filter((r) => r.statusCode === 200).map((r) => r.json().result.status);
    expect(succeeded).toEqual(['succeeded', 'succeeded']);
    expect(runs.filter((r) => r.statusCode === 409)).toHaveLength(2);
    const counts = (await demo.database.db.execute(sql`select enterprise_id as "enterprise", count(*)::int as "segments" from pipe_risks where enterprise_id in (${demo.ids.gas}, ${demo.ids.water}) group by 1`)) as unknown as { rows: { enterprise: number; segments: number }[] };
    const pipesOf = (await demo.database.db.execute(sql`select enterprise_id as "enterprise", count(*)::int as "segments" from pipes where enterprise_id in (${demo.ids.gas}, ${demo.ids.water}) group by 1`)) as unknown as { rows: { enterprise: number; segments: number }[] };
    expect(new Map(counts.rows.map((r) => [r.enterprise, r.segments]))).toEqual(new Map(pipesOf.rows.map((r) => [r.enterprise, r.segments])));
  });

  it('assesses in steps: what is asked meanwhile is answered between them, and readers see the old assessment until the new one is swapped in whole', async () => {
    const water = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const db = demo.database.db;
    const scores = `pipe_risk_work_${demo.ids.water}_scores`;
    // A network of many steps' worth: 20,000 copies of one pipe beside the demo's.
    await db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select enterprise_id, 'W-STEP-' || n, network_type, material, geometry, tile_line, length_m, minx, miny, maxx, maxy
      from pipes, generate_series(1, 20000) n where enterprise_id = ${demo.ids.water} and pipe_id = (select min(pipe_id) from pipes where enterprise_id = ${demo.ids.water})`);
    const [{ segments }] = await queryRows<{ segments: number }>(db, sql`select count(*)::int as segments from pipes where enterprise_id = ${demo.ids.water}`);
    const [{ before }] = await queryRows<{ before: number }>(db, sql`select count(*)::int as before from pipe_risks where enterprise_id = ${demo.ids.water}`);
    let finished = false;
    const run = water({ method: 'POST', url: '/api/pipe-risk/runs' }).finally(() => (finished = true));
    // Statements of ours while it runs (the embedded database answers one at a time: one long
    // statement would hold each of them until it ended): the scores of part of the network, and
    // the old assessment still whole.
    const partway: { scored: number; old: number }[] = [];
    while (!finished) {
      const [{ exists }] = await queryRows<{ exists: boolean }>(db, sql`select to_regclass(${scores}) is not null as exists`);
      const scored = exists ? await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(scores)}`).then(([r]) => r.n, () => 0) : 0;
      const [{ old }] = await queryRows<{ old: number }>(db, sql`select count(*)::int as old from pipe_risks where enterprise_id = ${demo.ids.water}`);
      if (!finished && scored > 0 && scored < segments) partway.push({ scored, old });
      // The embedded database answers without leaving the event loop: let the run's timers in.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const response = await run;
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result).toMatchObject({ status: 'succeeded', segments });
    expect(partway.length).toBeGreaterThan(0);
    expect(partway.map((p) => p.old)).toEqual(partway.map(() => before));
    // The work tables go with the run; the new assessment holds every segment.
    expect((await queryRows<{ name: string }>(db, sql`select relname as name from pg_class where relname like ${`pipe_risk_work_${demo.ids.water}_%`}`)).map((r) => r.name)).toEqual([]);
    const [{ after }] = await queryRows<{ after: number }>(db, sql`select count(*)::int as after from pipe_risks where enterprise_id = ${demo.ids.water}`);
    expect(after).toBe(segments);
  });
});

describe('assessed again by itself', () => {
  const quick = useDemoServer({ riskDelayMs: 300 });
  it('a change to what risk is made of (a site recorded) is followed by an assessment once changes stop', async () => {
    const api = as(quick.app, await login(quick.app, 'both'), quick.ids.gas);
    const before = (await api({ method: 'GET', url: '/api/pipe-risk/runs' })).json().result.length;
    await api({ method: 'POST', url: '/api/construction/sites', payload: { siteNo: 'SOON-1', name: '施工', buildType: 'road', point: [LON, LAT], radiusM: 10 } });
    await api({ method: 'POST', url: '/api/construction/sites', payload: { siteNo: 'SOON-2', name: '施工', buildType: 'road', point: [LON, LAT], radiusM: 10 } });
    await expect.poll(async () => (await api({ method: 'GET', url: '/api/pipe-risk/runs' })).json().result, { timeout: 10_000 }).toEqual(
      expect.arrayContaining([expect.objectContaining({ reason: 'change', status: 'succeeded' })]),
    );
    // Two changes in a row made one assessment.
    await quick.app.pipeRisk.idle();
    expect((await api({ method: 'GET', url: '/api/pipe-risk/runs' })).json().result.length).toBe(before + 1);
  });

  it('an import analyses settlement again inside its job, then assesses the network once, and nothing asks for another', async () => {
    const api = as(quick.app, await login(quick.app, 'member'), quick.ids.water);
    const runs = async () => (await api({ method: 'GET', url: '/api/pipe-risk/runs' })).json().result as { reason: string; status: string }[];
    const datasets = async () => (await api({ method: 'GET', url: '/api/settlement/datasets' })).json().result as SettlementDataset[];
    expect((await datasets()).length).toBeGreaterThan(0);
    const before = (await runs()).length;
    const csv = 'pipe_id,network_type,wkt\nREANALYSE-1,water,"LINESTRING (120.21 30.23, 120.211 30.23)"\n';
    const analysed = (await api({ method: 'POST', url: '/api/pipelines/imports', ...multipartFile('file', 'one.csv', csv) })).json().result as ImportJobView;
    expect((await api({ method: 'POST', url: `/api/pipelines/imports/${analysed.id}/start`, payload: { mapping: analysed.suggestedMapping, mode: 'append' } })).statusCode).toBe(200);
    await quick.app.imports.settled(analysed.id);
    const job = (await api({ method: 'GET', url: `/api/pipelines/imports/${analysed.id}` })).json().result as ImportJobView;
    expect(job.status).toBe('succeeded');
    // Every dataset was analysed again while the job ran, before it ended.
    for (const d of await datasets()) {
      expect(d.analysis.status).toBe('done');
      expect(Date.parse(d.analysis.analysedAt!)).toBeGreaterThanOrEqual(Date.parse(job.startedAt!));
      expect(Date.parse(d.analysis.analysedAt!)).toBeLessThanOrEqual(Date.parse(job.finishedAt!));
    }
    expect((await runs()).length).toBe(before + 1);
    // Well past the delay after which a request made at the job's end would have started.
    await new Promise((r) => setTimeout(r, 1_500));
    await quick.app.pipeRisk.idle();
    expect((await runs()).length).toBe(before + 1);
  });
});
