import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readIsdCsv, readOpenMeteoCsv, readOpenMeteoJson, readStationCsv } from './readers.ts';
import { readCap } from './cap.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const reasons = (result: ReturnType<typeof readOpenMeteoJson> | ReturnType<typeof readCap>) => ('problems' in result ? result.problems.map((p) => [p.row, p.field, p.reason['en-US']]) : null);

describe('Open-Meteo readers', () => {
  it('reads the JSON answer: local times to UTC by its offset, wind from km/h to m/s, the place', async () => {
    const read = readOpenMeteoJson(fixture('open-meteo-hangzhou.json'));
    if ('problems' in read) throw new Error(JSON.stringify(read.problems));
    const [result] = read.stations;
    expect(result.place).toEqual({ lon: 120.2, lat: 30.2 });
    expect(result.hours).toHaveLength(5);
    expect(result.hours[0]).toEqual({ time: '2026-06-30T16:00:00.000Z', precipitation: 0, temperature: 26.1, windSpeed: 3, windGust: 6 });
    expect(result.hours[2]).toMatchObject({ precipitation: 21.3, windSpeed: 10, windGust: 17 });
  });

  it('reads the CSV download: the place line, units from the header, an empty value as none', async () => {
    const read = readOpenMeteoCsv(fixture('open-meteo-hangzhou.csv'));
    if ('problems' in read) throw new Error(JSON.stringify(read.problems));
    const [result] = read.stations;
    expect(result.place).toEqual({ lon: 120.2, lat: 30.2 });
    expect(result.hours.map((h) => [h.time, h.temperature, h.precipitation, h.windSpeed])).toEqual([
      ['2026-01-09T16:00:00.000Z', 6.2, 0, 3.1],
      ['2026-01-09T17:00:00.000Z', 5.8, 0.2, 3.4],
      ['2026-01-09T18:00:00.000Z', 5.1, null, 2.9],
    ]);
  });

  it('reports bad files by row and field and reads nothing of them', async () => {
    const good = JSON.parse(fixture('open-meteo-hangzhou.json'));
    expect(reasons(readOpenMeteoJson('{"hourly": '))).toEqual([[null, 'file', expect.stringMatching(/^file: cannot be read as Open-Meteo JSON/)]]);
    expect(reasons(readOpenMeteoJson(JSON.stringify({ ...good, hourly: { ...good.hourly, precipitation: [0, 1] } })))).toEqual([[null, 'hourly.precipitation', 'must hold one value per hour of hourly.time (5)']]);
    expect(reasons(readOpenMeteoJson(JSON.stringify({ ...good, hourly_units: { wind_speed_10m: 'bft' } })))).toEqual([[null, 'wind_speed_10m', '"bft" is not a unit this import knows (it reads m/s, ms, 米/秒, km/h, kmh, kph, mph, kn, kt, knots)']]);
    const badValues = { ...good, hourly: { ...good.hourly, time: ['2026-07-01T00:00', '2026-07-01 01:00', '2026-07-01T02:00', '2026-07-01T03:00', '2026-13-01T04:00'], temperature_2m: [26.1, 'warm', 25.5, 25.4, 25.9] } };
    expect(reasons(readOpenMeteoJson(JSON.stringify(badValues)))).toEqual([
      [2, 'time', 'must be a date and time like 2026-01-31T08:30:00Z'],
      [2, 'temperature_2m', '"warm" is not a number'],
      [5, 'time', 'must be a date and time like 2026-01-31T08:30:00Z'],
    ]);
    const csv = fixture('open-meteo-hangzhou.csv').replace('5.8,0.2', '5.8,lots');
    expect(reasons(readOpenMeteoCsv(csv))).toEqual([[2, 'precipitation', '"lots" is not a number']]);
  });
});

describe('NOAA ISD and station CSV readers', () => {
  it('reads ISD reports into whole hours: scaled values, the report nearest the hour, one-hour rain only, missing and erroneous values as none', async () => {
    const read = await readIsdCsv(fixture('isd-58457.csv'));
    if ('problems' in read) throw new Error(JSON.stringify(read.problems));
    expect(read.stations).toHaveLength(1);
    const [station] = read.stations;
    expect(station).toMatchObject({ code: '58457099999', name: 'HANGZHOU, CH', place: { lon: 120.1666666, lat: 30.2333333 } });
    expect(station.hours).toEqual([
      // 00:00 SYNOP: the 6-hour total is not an hour's rain; AA2 holds the hour's 18.4 mm.
      { time: '2026-06-18T00:00:00.000Z', precipitation: 18.4, temperature: 26.2, windSpeed: 3, windGust: 9 },
      // 00:30 METAR goes to 01:00 (nearer), but the 01:00 SYNOP is nearer still for what it gives; its gust is missing, so the METAR's.
      { time: '2026-06-18T01:00:00.000Z', precipitation: 31.2, temperature: 25.5, windSpeed: 5.2, windGust: 11 },
      // 02:00: no temperature or rain (9s); the 02:50 METAR goes to 03:00 and its wind is flagged erroneous.
      { time: '2026-06-18T02:00:00.000Z', precipitation: null, temperature: null, windSpeed: 0, windGust: null },
      { time: '2026-06-18T03:00:00.000Z', precipitation: null, temperature: 25.1, windSpeed: null, windGust: null },
    ]);
  });

  it('refuses an ISD file with a malformed field or time, by row and field', async () => {
    const text = fixture('isd-58457.csv').replace('"+0255,1"', '"25.5"').replace('2026-06-18T02:00:00', '2026-06-18 2h');
    expect(reasons(await readIsdCsv(text) as never)).toEqual([
      [3, 'TMP', '"25.5" is not in the ISD field\'s format'],
      [4, 'DATE', 'must be a date and time like 2026-01-31T08:30:00Z'],
    ]);
  });

  it('reads a station CSV with Chinese headers: several stations, Beijing time unless a zone is given, empty values as none', async () => {
    const read = await readStationCsv(fixture('station-hourly.csv'));
    if ('problems' in read) throw new Error(JSON.stringify(read.problems));
    expect(read.stations.map((s) => [s.code, s.name, s.place, s.hours.length])).toEqual([
      ['58457', '杭州站', { lon: 120.1667, lat: 30.2333 }, 2],
      ['K1001', '滨江自动站', { lon: 120.21, lat: 30.208 }, 2],
    ]);
    expect(read.stations[0].hours[1]).toEqual({ time: '2026-06-18T01:00:00.000Z', precipitation: 31.2, temperature: 25.5, windSpeed: 5.2, windGust: null });
    expect(read.stations[1].hours[1].time).toBe('2026-06-18T10:00:00.000Z');
  });

  it('refuses a station CSV by row and column: no station column, a bad number, a repeated hour, a place out of range', async () => {
    expect(reasons(await readStationCsv('时间,气温\n2026-06-18 08:00,20\n') as never)).toEqual([[null, 'station', 'is required']]);
    const text = fixture('station-hourly.csv').replace('31.2,25.5', '31.2,暖').replace('2026-06-18T10:00:00Z', '2026-06-18 08:00').replace('30.2080,2026-06-18 08:00', '95.2080,2026-06-18 08:00');
    expect(reasons(await readStationCsv(text) as never)).toEqual([
      [2, '气温', '"暖" is not a number'],
      [3, '纬度', 'must be between -90 and 90'],
      [4, '观测时间', 'the station already has a row for 2026-06-18T00:00:00.000Z'],
    ]);
    // U+0000 in a station's code or name (a register exported by a careless tool): that row's problem.
    const nul = fixture('station-hourly.csv').replace('58457,杭州站,120.1667,30.2333,2026-06-18 08:00', '58457,杭州\u0000站,120.1667,30.2333,2026-06-18 08:00');
    expect(reasons(await readStationCsv(nul) as never)).toEqual([[1, '站名', 'must not contain the NUL character (U+0000)']]);
  });
});

describe('CAP 1.2 reader', () => {
  it('reads a feed in the order sent: type and level from the event and colour or severity, times in UTC, the polygon as lon/lat; exercises skipped', async () => {
    const read = readCap(fixture('cap-rainstorm.xml'));
    if ('problems' in read) throw new Error(JSON.stringify(read.problems));
    expect(read.skipped).toEqual([{ identifier: '33010041600000_20260618070000_TEST', status: 'Exercise' }]);
    const [first, update] = read.messages;
    expect(first).toMatchObject({ msgType: 'Alert', type: 'rainstorm', level: 'II', sent: '2026-06-17T22:00:00.000Z', start: '2026-06-17T22:00:00.000Z', end: '2026-06-18T10:00:00.000Z', senderName: '杭州市气象台', areaDesc: '滨江区' });
    expect(first.instruction).toContain('检查排水管网');
    expect(first.area).toEqual({ type: 'Polygon', coordinates: [[[120.1, 30.15], [120.3, 30.15], [120.3, 30.25], [120.1, 30.25], [120.1, 30.15]]] });
    expect(update).toMatchObject({ msgType: 'Update', level: 'I', references: [{ sender: '杭州市气象台', identifier: '33010041600000_20260618060000' }] });
    const cancel = readCap(fixture('cap-cancel.xml'));
    expect('messages' in cancel && cancel.messages[0]).toMatchObject({ msgType: 'Cancel', area: null });
  });

  it('refuses a CAP file missing what CAP requires, or with a level it cannot tell, or a bad polygon', async () => {
    expect(reasons(readCap('<alert><identifier>x'))).toEqual([[null, 'file', expect.stringMatching(/^file: cannot be read as CAP XML/)]]);
    expect(reasons(readCap('<rss/>'))).toEqual([[null, 'alert', 'is required']]);
    const text = fixture('cap-rainstorm.xml');
    expect(reasons(readCap(text.replace('<msgType>Alert</msgType>', '')))).toEqual([[2, 'msgType', 'is required']]);
    expect(reasons(readCap(text.replace('<severity>Severe</severity>', '<severity>Unknown</severity>').replace('发布暴雨橙色预警信号', '发布暴雨预警信号')))).toEqual([[2, 'severity', 'the level cannot be told: give a signal colour in the event or headline, or a severity']]);
    expect(reasons(readCap(text.replace('30.15,120.10 30.15,120.30', '30.15;120.10 30.15,120.30')))).toEqual([[1, 'area', 'a polygon or circle is not "lat,lon ..." / "lat,lon radius" in range']]);
  });
});

/** A CAP message of the city observatory, as its feed sends it. */
const cap = (identifier: string, msgType: string, headline: string, references = '') => `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>${identifier}</identifier><sender>杭州市气象台</sender><sent>2026-07-02T10:00:00+08:00</sent><status>Actual</status>
  <msgType>${msgType}</msgType><scope>Public</scope>${references ? `<references>${references}</references>` : ''}
  <info><category>Met</category><event>暴雨</event><urgency>Immediate</urgency><severity>Severe</severity><certainty>Likely</certainty>
    <expires>2026-07-02T20:00:00+08:00</expires><headline>${headline}</headline>
    <area><areaDesc>滨江区</areaDesc><polygon>30.15,120.10 30.15,120.30 30.25,120.30 30.25,120.10 30.15,120.10</polygon></area></info>
</alert>`;

describe('weather that cannot be, units from the file, signals lowered and lifted', () => {
  it('converts °F, inches and mph an Open-Meteo answer names in hourly_units', async () => {
    const body = {
      latitude: 30.2, longitude: 120.2, utc_offset_seconds: 0,
      hourly_units: { time: 'iso8601', temperature_2m: '°F', precipitation: 'inch', wind_speed_10m: 'mph', wind_gusts_10m: 'kn' },
      hourly: { time: ['2026-01-20T00:00', '2026-01-20T01:00'], temperature_2m: [14, 50], precipitation: [0.5, 0], wind_speed_10m: [10, 0], wind_gusts_10m: [20, 0] },
    };
    const read = readOpenMeteoJson(JSON.stringify(body));
    if ('problems' in read) throw new Error(JSON.stringify(read.problems));
    expect(read.stations[0].hours[0]).toEqual({ time: '2026-01-20T00:00:00.000Z', temperature: -10, precipitation: 12.7, windSpeed: 4.47, windGust: 10.29 });
    expect(read.stations[0].hours[1]).toMatchObject({ temperature: 10, precipitation: 0 });
  });

  it('refuses readings that cannot be, by row and field, in both languages, and reads nothing of the file', async () => {
    const body = {
      hourly: { time: ['2026-01-20T00:00', '2026-01-20T01:00', '2026-01-20T02:00'], temperature_2m: [20, 71.5, -95], precipitation: [-0.4, 2, 0], wind_speed_10m: [5, -3, 4] },
    };
    const read = readOpenMeteoJson(JSON.stringify(body));
    expect(reasons(read)).toEqual([
      [1, 'precipitation', '-0.4 mm cannot be: a reading lies between 0 and 500 mm'],
      [2, 'temperature_2m', '71.5 °C cannot be: a reading lies between -80 and 60 °C'],
      [2, 'wind_speed_10m', '-0.83 m/s cannot be: a reading lies between 0 and 120 m/s'],
      [3, 'temperature_2m', '-95 °C cannot be: a reading lies between -80 and 60 °C'],
    ]);
    expect('problems' in read && read.problems[1].reason['zh-CN']).toBe('71.5 °C 不可能出现：读数应在 -80 至 60 °C 之间');
  });

  it('reads a station CSV whose headers give their units, and names a unit it does not know', async () => {
    const csv = ['站号,站名,经度,纬度,观测时间,降水量(in),气温（℉）,风速[km/h],极大风速', '58457,杭州站,120.17,30.23,2026-01-20 08:00,0.1,23,36,12'].join('\n');
    const read = await readStationCsv(csv);
    if ('problems' in read) throw new Error(JSON.stringify(read.problems));
    expect(read.stations[0].hours[0]).toMatchObject({ precipitation: 2.54, temperature: -5, windSpeed: 10, windGust: 12 });
    const unknown = await readStationCsv(['站号,观测时间,气温(度)', '58457,2026-01-20 08:00,3'].join('\n'));
    expect(reasons(unknown)?.[0]).toEqual([null, '气温(度)', expect.stringMatching(/^"度" is not a unit this import knows/)]);
  });

  it('reads a CAP signal lowered to its new level and a lift as the end of the warning, whatever colour its words name', async () => {
    const lowered = readCap(cap('B', 'Update', '杭州市气象台将暴雨橙色预警信号降级为黄色预警信号', '杭州市气象台,A,2026-07-02T08:00:00+08:00'));
    if ('problems' in lowered) throw new Error(JSON.stringify(lowered.problems));
    expect(lowered.messages[0]).toMatchObject({ msgType: 'Update', level: 'III' });
    const english = readCap(cap('B2', 'Update', 'Rainstorm warning downgraded to yellow from orange', '杭州市气象台,A,2026-07-02T08:00:00+08:00'));
    expect('messages' in english && english.messages[0].level).toBe('III');
    const raised = readCap(cap('B3', 'Update', '暴雨黄色预警信号升级为橙色', '杭州市气象台,A,2026-07-02T08:00:00+08:00'));
    expect('messages' in raised && raised.messages[0].level).toBe('II');
    const lifted = readCap(cap('C', 'Update', '杭州市气象台解除暴雨橙色预警信号', '杭州市气象台,B,2026-07-02T09:00:00+08:00'));
    expect('messages' in lifted && lifted.messages[0]).toMatchObject({ msgType: 'Cancel', level: null });
    const liftedAlone = readCap(cap('D', 'Alert', '杭州市气象台解除暴雨橙色预警信号'));
    expect('messages' in liftedAlone && liftedAlone.messages[0]).toMatchObject({ msgType: 'Cancel', type: 'rainstorm' });
  });
});
