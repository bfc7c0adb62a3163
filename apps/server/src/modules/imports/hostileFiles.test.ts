import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ImportJobView } from '@console/contract';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { MAX_RECORD_CHARS } from './sources/csv.ts';
import { nonEmpty } from '../../testing/lists.ts';

const demo = useDemoServer();
type Api = ReturnType<typeof as>;

const pipeUpload = (api: Api, fileName: string, content: Buffer | string, lang = 'en-US') => {
  const body = multipartFile('file', fileName, content);
  return api({ method: 'POST', url: '/api/pipelines/imports', payload: body.payload, headers: { ...body.headers, 'accept-language': lang } });
};

/** A utility's pipe register as a GIS export writes it, with `rows` lines. */
const register = (rows: number, row: (i: number) => string = (i) => `GX-${i},供水,DN300,${(120.1 + i * 1e-4).toFixed(5)},30.2`) =>
  ['管线编号,管线类型,规格,经度,纬度', ...Array.from({ length: rows }, (_, i) => row(i))].join('\r\n');

const feature = (properties: string) => `{"type":"Feature","properties":${properties},"geometry":{"type":"LineString","coordinates":[[120.2,30.2],[120.21,30.21]]}}`;

describe('U+0000 inside an import file', () => {
  it('refuses it at analysis naming the record and field: CSV values and column names, GeoJSON properties, KML', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const cases: [name: string, content: string, en: string][] = [
      ['pipes.csv', register(3, (i) => `GX-${i},供水,${i === 1 ? 'DN\u0000300' : 'DN300'},120.1,30.2`), 'file: record 2, field 规格 holds the NUL character (U+0000), which cannot be stored'],
      ['pipes.csv', '管线编号,管\0线类型,经度,纬度\r\nGX-1,供水,120.1,30.2', 'file: column 2 of the header holds the NUL character (U+0000)'],
      ['pipes.geojson', `{"type":"FeatureCollection","features":[${feature('{"id":"a"}')},${feature('{"id":"b","owner":"x\\u0000y"}')}]}`, 'file: record 2, field owner holds the NUL character (U+0000), which cannot be stored'],
      ['pipes.geojson', `{"type":"FeatureCollection","features":[${feature('{"id":"a","survey":{"notes":["ok","\\u0000"]}}')}]}`, 'file: record 1, field survey holds the NUL character (U+0000), which cannot be stored'],
      ['pipes.kml', '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>GX&#0;1</name><LineString><coordinates>120.2,30.2 120.21,30.21</coordinates></LineString></Placemark></Document></kml>', 'file: record 1, field name holds the NUL character (U+0000), which cannot be stored'],
    ];
    for (const [name, content, en] of cases) {
      const response = await pipeUpload(api, name, content);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      expect(response.json().message).toBe(en);
    }
    const zh = await pipeUpload(api, 'pipes.csv', cases[0][1], 'zh-CN');
    expect(zh.json().message).toBe('file：第 2 条记录的字段 规格 含空字符（U+0000），无法保存');
  });

  it('ends a started job as failed naming the record when the NUL lies past the analysed sample, writing nothing', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const before = (await api({ method: 'GET', url: '/api/pipelines?pageSize=1' })).json().result.total;
    const content = register(400, (i) => `NUL-${i},供水,${i === 350 ? 'DN\u0000300' : 'DN300'},${(120.1 + i * 1e-4).toFixed(5)},30.2,${(120.1 + i * 1e-4).toFixed(5)},30.21`).replace('经度,纬度', '起点经度,起点纬度');
    const csv = content.replace(/^.*$/m, 'pipeId,networkType,spec,wkt').replace(/^(NUL-\d+,[^,]*,[^,]*),([\d.]+),([\d.]+),([\d.]+),([\d.]+)$/gm, '$1,"LINESTRING($2 $3,$4 $5)"');
    const analysed = await pipeUpload(api, 'pipes.csv', csv);
    expect(analysed.statusCode, analysed.body).toBe(200);
    const job = analysed.json().result as ImportJobView;
    const started = await api({ method: 'POST', url: `/api/pipelines/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping } });
    expect(started.statusCode, started.body).toBe(200);
    await demo.app.imports.settled(job.id);
    const ended = (await api({ method: 'GET', url: `/api/pipelines/imports/${job.id}` })).json().result as ImportJobView;
    expect(ended.status).toBe('failed');
    expect(ended.problems.map((p) => p.reason)).toEqual(['file: record 351, field spec holds the NUL character (U+0000), which cannot be stored']);
    expect(ended.problems.map((p) => p.row)).toEqual([351]);
    expect((await api({ method: 'GET', url: '/api/pipelines?pageSize=1' })).json().result.total).toBe(before);
  });
});

describe('XML with a document type declaration', () => {
  const xxe = (body: string) => `<?xml version="1.0"?>\n<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n${body}`;

  it('is refused before parsing: KML at analysis, CAP warnings, and nothing is kept', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const kml = await pipeUpload(api, 'pipes.kml', xxe('<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>&xxe;</name><Point><coordinates>120.2,30.2</coordinates></Point></Placemark></Document></kml>'));
    expect(kml.statusCode).toBe(400);
    expect(kml.json().message).toBe('file: XML with a document type declaration (<!DOCTYPE>) is not accepted, as it can define entities; remove the declaration');
    const capText = readFileSync(new URL('../weather/fixtures/cap-rainstorm.xml', import.meta.url), 'utf8')
      .replace('<?xml version="1.0" encoding="UTF-8"?>', '')
      .replace(/<headline>[^<]*<\/headline>/, '<headline>&xxe;</headline>');
    const cap = await api({ method: 'POST', url: '/api/weather/uploads', ...multipartFile('file', 'warning.xml', xxe(capText)) });
    expect(cap.statusCode, cap.body).toBe(400);
    expect(cap.json().message).toContain('<!DOCTYPE>');
    const kept = (await api({ method: 'GET', url: '/api/weather/warnings?from=2026-06-17T00:00:00Z&to=2026-06-19T00:00:00Z' })).json().result as { headline: string }[];
    expect(kept.filter((w) => w.headline?.includes('xxe'))).toEqual([]);
  });

  it('refuses a CAP message holding &#0; naming the message and field', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const capText = readFileSync(new URL('../weather/fixtures/cap-rainstorm.xml', import.meta.url), 'utf8').replace(/<headline>([^<]*)<\/headline>/, '<headline>$1&#0;</headline>');
    const cap = await api({ method: 'POST', url: '/api/weather/uploads', ...multipartFile('file', 'warning.xml', capText) });
    expect(cap.statusCode, cap.body).toBe(400);
    expect(cap.json().message).toMatch(/headline: must not contain the NUL character/);
  });
});

describe('a CSV without line breaks', () => {
  it('is refused with 400 once a line passes the cap (a quoted field too), and leaves nothing behind', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const jobsBefore = await readdir(join(demo.dataDir, 'imports')).catch(() => []);
    const line = Buffer.alloc(MAX_RECORD_CHARS + 1024 * 1024, 'x');
    const response = await pipeUpload(api, 'pipes.csv', line);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
    expect(response.json().message).toBe('file: line 1 is longer than 16 MB (a CSV has one record a line)');
    // A quoted field that never closes is held to the same cap.
    const open = await pipeUpload(api, 'pipes.csv', Buffer.concat([Buffer.from('id,wkt\r\n1,"'), Buffer.alloc(MAX_RECORD_CHARS + 1024 * 1024, 'a\n')]));
    expect(open.statusCode).toBe(400);
    expect(open.json().message).toMatch(/^file: line \d+ is longer than 16 MB/);
    expect(await readdir(join(demo.dataDir, 'imports')).catch(() => [])).toEqual(jobsBefore);
  });
});

describe('uploads left on disk', () => {
  const quotaServer = useDemoServer({ importQuota: 1024 * 1024 });
  /** A pipe register of about `kb` kilobytes. */
  const registerOf = (kb: number, tag: string) => register(Math.ceil((kb * 1024) / 40), (i) => `${tag}-${i},供水,DN300,${(120.1 + (i % 1000) * 1e-4).toFixed(5)},30.2`);

  it('count against the enterprise\'s quota, checked and counted in one step when uploads arrive at once', async () => {
    const api = as(quotaServer.app, await login(quotaServer.app, 'admin'), quotaServer.ids.water);
    // Ten 300 KB uploads at once against 1 MB: three fit, the rest are refused naming what is held.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => pipeUpload(api, `q${i}.csv`, registerOf(300, `Q${i}`))));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 413, 413, 413, 413, 413, 413, 413]);
    const refused = answers.find((a) => a.statusCode === 413)!.json().message as string;
    expect(refused).toMatch(/^file: your enterprise's unfinished imports hold \d+ MB of the 1 MB allowed, and this file needs 1 MB/);
    // Another enterprise has its own quota.
    const gas = as(quotaServer.app, await login(quotaServer.app, 'both'), quotaServer.ids.gas);
    expect((await pipeUpload(gas, 'gas.csv', registerOf(300, 'G'))).statusCode).toBe(200);
  });

  it('are removed when an analysed job is left for an hour, which frees the quota', async () => {
    const api = as(quotaServer.app, await login(quotaServer.app, 'admin'), quotaServer.ids.water);
    const jobs = (await api({ method: 'GET', url: '/api/pipelines/imports' })).json().result as ImportJobView[];
    const waiting = jobs.filter((j) => j.status === 'analysed');
    expect(waiting).toHaveLength(3);
    const folders = await readdir(join(quotaServer.dataDir, 'imports'));
    expect(folders.length).toBeGreaterThanOrEqual(4);
    // An hour passes for the water utility's uploads.
    await quotaServer.database.db.execute(sql`update import_jobs set heartbeat_at = now() - interval '61 minutes' where enterprise_id = ${quotaServer.ids.water}`);
    const after = (await api({ method: 'GET', url: '/api/pipelines/imports' })).json().result as ImportJobView[];
    for (const job of after.filter((j) => waiting.some((w) => w.id === j.id))) {
      expect(job.status).toBe('failed');
      expect(job.problems.map((p) => p.reason)).toEqual(['Left at the field mapping step for over an hour: the upload was removed. Upload the file again to import it']);
    }
    // Their folders are gone (the gas utility's stays), and a new upload fits again.
    expect(await readdir(join(quotaServer.dataDir, 'imports'))).toHaveLength(folders.length - 3);
    expect((await pipeUpload(api, 'again.csv', registerOf(300, 'A'))).statusCode).toBe(200);
  });
});

describe('settlement files wide and doubled', () => {
  const upload = (api: Api, content: string) => {
    const body = multipartFile('file', 'insar.csv', content);
    return api({ method: 'POST', url: '/api/settlement/imports', payload: body.payload, headers: body.headers });
  };
  /** An InSAR delivery: point id, place, velocity and one column per date. */
  const delivery = (dates: string[], rows = 3) =>
    [['pid', 'lon', 'lat', 'mean_velocity', ...dates].join(','), ...Array.from({ length: rows }, (_, i) => [`P${i}`, 120.2 + i * 1e-4, 30.2, -3.2, ...dates.map((_, k) => (-k * 0.1).toFixed(1))].join(','))].join('\n');
  const daily = (n: number) => Array.from({ length: n }, (_, k) => new Date(Date.UTC(2015, 0, 1) + k * 86_400_000).toISOString().slice(0, 10).replaceAll('-', ''));

  it('refuses more columns than are read before reading rows, and more dates than a dataset holds', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const wide = await upload(api, delivery(daily(100_000), 1));
    expect(wide.statusCode).toBe(400);
    expect(wide.json().message).toBe('file: the file has 100004 columns; at most 2100 are read');
    const dates = await upload(api, delivery(daily(2_050)));
    expect(dates.statusCode).toBe(400);
    expect(dates.json().message).toBe('file: the file has 2050 date columns; at most 2000 are read');
  });

  it('refuses two columns of one date naming both, and keeps date columns without samples', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const doubled = await upload(api, delivery(['20210101', '20210103', '2021-01-03']));
    expect(doubled.statusCode).toBe(400);
    expect(doubled.json().message).toBe('file: fields "20210103" and "2021-01-03" are the same date: keep one');
    const fine = await upload(api, delivery(daily(1_000)));
    expect(fine.statusCode, fine.body.slice(0, 200)).toBe(200);
    const fields = fine.json().result.fields as { name: string; samples: string[] }[];
    expect(fields).toHaveLength(1_002);
    expect(fields.find((f) => f.name === 'pid')!.samples).toEqual(['P0', 'P1', 'P2']);
    expect(nonEmpty(fields.filter((f) => /^\d{8}$/.test(f.name))).every((f) => f.samples.length === 0)).toBe(true);
  });
});

describe('a weather file of bad rows', () => {
  it('is streamed and answered small: the first 100 problems listed and how many more', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    // A station export of 400,000 hours (about 20 MB), every temperature unreadable.
    const rows = 400_000;
    const lines = ['站号,站名,经度,纬度,观测时间,气温'];
    const start = Date.UTC(2000, 0, 1);
    for (let i = 0; i < rows; i++) lines.push(`58457,杭州,120.17,30.23,${new Date(start + i * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')},缺测`);
    const body = multipartFile('file', 'hours.csv', lines.join('\n'));
    expect(body.payload.length).toBeGreaterThan(18 * 1024 * 1024);
    const response = await api({ method: 'POST', url: '/api/weather/uploads', payload: body.payload, headers: body.headers });
    expect(response.statusCode).toBe(400);
    expect(response.body.length).toBeLessThan(100 * 1024);
    const answer = response.json();
    expect(answer.message).toBe('file: 400000 problem(s), first: row 1 58457 气温: "缺测" is not a number; nothing was written');
    expect(answer.result.problems).toHaveLength(100);
    expect(answer.result).toMatchObject({ problemCount: rows, more: rows - 100 });
    // A row that never ends is not weather.
    const endless = multipartFile('file', 'hours.csv', `站号,观测时间,气温\n58457,2026-01-01 08:00,${'9'.repeat(100_000)}`);
    const refused = await api({ method: 'POST', url: '/api/weather/uploads', payload: endless.payload, headers: endless.headers });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^file: 1 problem\(s\), first: file: cannot be read as station CSV/);
  });
});
