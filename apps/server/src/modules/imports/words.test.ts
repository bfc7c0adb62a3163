import { describe, expect, it } from 'vitest';
import { readBuildType, readGasPressure, readNetworkType, readRiskKind, readRiskLevel, type ImportJobView } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { metresPerDegree } from '../../geo/local.ts';

const demo = useDemoServer();
type Api = ReturnType<typeof as>;

// A quiet district far from the demo city.
const LON = 121.97, LAT = 31.62;
const [M_LON, M_LAT] = metresPerDegree(LAT);
const at = (eastM: number, northM: number) => [(LON + eastM / M_LON).toFixed(7), (LAT + northM / M_LAT).toFixed(7)];

async function upload(api: Api, kind: 'construction' | 'risk-areas', fileName: string, content: string) {
  const analysed = await api({ method: 'POST', url: `/api/${kind}/imports`, ...multipartFile('file', fileName, content) });
  expect(analysed.statusCode, analysed.body).toBe(200);
  return analysed.json().result as ImportJobView;
}
async function start(api: Api, kind: 'construction' | 'risk-areas', job: ImportJobView, body: Record<string, unknown>) {
  const started = await api({ method: 'POST', url: `/api/${kind}/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, ...body } });
  expect(started.statusCode, started.body).toBe(200);
  await demo.app.imports.settled(job.id);
  return (await api({ method: 'GET', url: `/api/${kind}/imports/${job.id}` })).json().result as ImportJobView;
}

/**
 * A district's construction register as its office keeps it: 60 numbered works in their own
 * words, some on the same street within a few metres of each other, with one word no table knows.
 */
function constructionRegister() {
  const kinds = ['地铁建设', '道路改造', '市政道路改造', '雨污水改造', '管线迁改', '房建', '桥梁', '地铁 施工', '轨道交通工程', '基坑开挖', '道路大修', '燃气抢修'];
  const rows = ['工地编号,工程名称,施工类型,经度,纬度,半径'];
  for (let i = 0; i < 60; i++) {
    // Pairs 12 m apart: a register lists each of them under its own number.
    const [lon, lat] = at(Math.floor(i / 2) * 400 + (i % 2) * 12, 0);
    rows.push(`JS-2026-${String(i + 1).padStart(3, '0')},工程${i + 1},${kinds[i % kinds.length]},${lon},${lat},20`);
  }
  return rows.join('\r\n');
}

describe('registers read in their own words', () => {
  it('reads kinds, levels, network types and pressure classes whatever their width, spacing or numerals', () => {
    expect(['地铁建设', '道路改造', '市政道路改造', '雨污水改造', '管线迁改', '房建', '桥梁', 'ＭＥＴＲＯ', ' metro '].map(readBuildType)).toEqual(['metro', 'road', 'municipalRoad', 'stormSewer', 'stormSewer', 'building', 'municipalRoad', 'metro', 'metro']);
    expect(['内涝点', '地面塌陷', '地下空洞', '滑坡', '地面沉降', '易涝点隐患'].map(readRiskKind)).toEqual(['waterlogging', 'collapse', 'void', 'geoHazard', 'subsidence', 'waterlogging']);
    const levels = ['红色', '橙色', '黄色', '蓝色', 'Ⅰ级', 'Ⅱ级', 'Ⅲ级', 'Ⅳ级', 'I级', 'II 级', '一级', '三级', '1级', '4 级', 'Ⅳ', 'level 2', '红色预警', '橙'];
    expect(levels.map(readRiskLevel)).toEqual(['I', 'II', 'III', 'IV', 'I', 'II', 'III', 'IV', 'I', 'II', 'I', 'III', 'I', 'IV', 'IV', 'II', 'I', 'II']);
    expect(['五级', '紫色', ''].map(readRiskLevel)).toEqual([null, null, null]);
    expect(['给水管线', '燃气', 'ＲＱ', '雨水管', '热力管网', '光缆'].map(readNetworkType)).toEqual(['water', 'gas', 'gas', 'drainage', 'heat', null]);
    expect(['中压A', '次高压B', 'SHP', '高压', '2.5MPa', '0.8 MPa', null].map(readGasPressure)).toEqual(['lowMedium', 'subHigh', 'subHigh', 'high', 'high', 'subHigh', 'lowMedium']);
  });

  it('asks once for a construction word no table knows, remembers the answer, and keeps every numbered site of a register', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const job = await upload(api, 'construction', '2026年施工台账.csv', constructionRegister());
    const asked = await start(api, 'construction', job, { source: 'report' });
    // Back at the mapping step with the one word, how often it came and where first.
    expect(asked.status).toBe('analysed');
    expect(asked.unknownWords).toEqual([{ field: 'buildType', word: '燃气抢修', count: 5, row: 12 }]);
    // An answer that is none of ours is refused, naming it.
    const wrong = await api({ method: 'POST', url: `/api/construction/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, source: 'report', words: [{ field: 'buildType', word: '燃气抢修', value: 'gasWorks' }] } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('words: “gasWorks” is not a value of buildType');
    // Answered: the same upload goes in whole, each site under its own number.
    // The same word twice in one answer (as written and spaced) is one word: the last answer counts.
    const done = await start(api, 'construction', job, { source: 'report', words: [{ field: 'buildType', word: '燃 气 抢 修', value: 'road' }, { field: 'buildType', word: '燃气抢修', value: 'other' }] });
    expect(done.status, JSON.stringify(done.problems)).toBe('succeeded');
    expect(done.result).toMatchObject({ inserted: 60, updated: 0 });
    const listed = (await api({ method: 'GET', url: '/api/construction/sites?keyword=JS-2026-&pageSize=100' })).json().result;
    expect(listed.total).toBe(60);
    const byNo = new Map(listed.list.map((s: { siteNo: string; buildType: string }) => [s.siteNo, s.buildType]));
    expect([byNo.get('JS-2026-001'), byNo.get('JS-2026-007'), byNo.get('JS-2026-012')]).toEqual(['metro', 'municipalRoad', 'other']);

    // The next register with the same word is not asked again; a satellite delivery still merges a detection 12 m from a case.
    const again = await upload(api, 'construction', '12月台账.csv', ['编号,名称,类型,经度,纬度', `JS-2026-101,抢修点,燃 气 抢 修,${at(20_000, 0).join(',')}`].join('\n'));
    expect((await start(api, 'construction', again, { source: 'report' })).status).toBe('succeeded');
    const seen = await upload(api, 'construction', 'change-detection.csv', ['id,type,lon,lat', `SAT-1,道路施工,${at(0, 12).join(',')}`].join('\n'));
    expect((await start(api, 'construction', seen, { source: 'satellite' })).result).toMatchObject({ inserted: 0, updated: 1 });
  });

  it('reads a risk-prone area register written with colours, Roman and Chinese numerals, and asks for its one unknown kind', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const levels = ['红色', '橙色', '黄色', '蓝色', 'Ⅰ级', 'Ⅱ级', 'Ⅲ级', 'Ⅳ级', 'I级', '一级', '二级', '1级'];
    const kinds = ['内涝点', '地面塌陷', '地下空洞', '地质灾害', '地面沉降', '积水点'];
    const rows = ['名称,隐患类型,风险等级,经度,纬度'];
    for (let i = 0; i < 24; i++) rows.push(`隐患点${i + 1},${kinds[i % kinds.length]},${levels[i % levels.length]},${at(i * 300, 5_000).join(',')}`);
    rows.push(`隐患点25,管涌,Ⅱ级,${at(0, 6_000).join(',')}`);
    const job = await upload(api, 'risk-areas', '隐患点台账.csv', rows.join('\n'));
    const asked = await start(api, 'risk-areas', job, {});
    expect(asked.unknownWords).toEqual([{ field: 'riskKind', word: '管涌', count: 1, row: 25 }]);
    const done = await start(api, 'risk-areas', job, { words: [{ field: 'riskKind', word: '管涌', value: 'void' }] });
    expect(done.status, JSON.stringify(done.problems)).toBe('succeeded');
    expect(done.result).toMatchObject({ inserted: 25 });
    const areas = (await api({ method: 'GET', url: '/api/risk-areas/areas?keyword=隐患点&pageSize=100' })).json().result.list as { name: string; level: string; kind: string }[];
    const level = (name: string) => areas.find((a) => a.name === name)!.level;
    expect(['隐患点1', '隐患点2', '隐患点3', '隐患点4', '隐患点6', '隐患点8', '隐患点10', '隐患点11', '隐患点12'].map(level)).toEqual(['I', 'II', 'III', 'IV', 'II', 'IV', 'I', 'II', 'I']);
    expect(areas.find((a) => a.name === '隐患点25')).toMatchObject({ kind: 'void', level: 'II' });
  });
});
