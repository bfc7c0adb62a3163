import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJobView, SensorDevice, SensorRefusalCount } from '@console/contract';
import { buildApp } from '../../app.ts';
import { readConfig, type Config } from '../../config.ts';
import { queryRows } from '../../db/client.ts';
import { as, createTestApp, demoEnterpriseIds, login, multipartFile, useDemoServer, type TestApp } from '../../testing/app.ts';
import { readPayload } from './payload.ts';
import { ReadingStore, settles, type KnownDevice } from './store.ts';

/** The machine's Mosquitto (.ci/run starts it where it is not running). */
const BROKER = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';
const tag = () => randomBytes(4).toString('hex');

/** Waits until the server's session with the broker is up (a hook cannot use expect.poll). */
async function brokerConnected(api: ReturnType<typeof as>) {
  for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((r) => setTimeout(r, 100))) {
    if ((await api({ method: 'GET', url: '/api/sensors/broker' })).json().result.connected) return;
  }
  throw new Error('the server did not connect to the broker within 10 s');
}
const NOW = Date.parse('2026-11-29T08:00:00Z');

describe('payloads devices send', () => {
  const read = (payload: string, kind: Parameters<typeof readPayload>[1] = 'gas') => readPayload(Buffer.from(payload), kind, NOW);

  it('reads a bare number, an object in another unit of the quantity, and SenML with base time and unit', () => {
    expect(read('12.5')).toEqual({ readings: [{ at: NOW, value: 12.5 }], refusals: [] });
    expect(read('{"value": "350", "unit": "kPa", "ts": "2026-11-29T07:59:00Z"}', 'pressure').readings).toEqual([{ at: NOW - 60_000, value: 0.35 }]);
    expect(read(`{"v": 68, "u": "°F", "t": ${NOW / 1000 - 60}}`, 'temperature').readings).toEqual([{ at: NOW - 60_000, value: 20 }]);
    const senml = read(JSON.stringify([{ bn: 'GW-1/CH4-1/', bt: NOW / 1000 - 120, bu: '%LEL', n: 'gas', v: 11 }, { t: 60, v: 12 }, { t: 120, v: 13, u: 'LEL%' }]));
    expect(senml).toEqual({ readings: [{ at: NOW - 120_000, value: 11 }, { at: NOW - 60_000, value: 12 }, { at: NOW, value: 13 }], refusals: [] });
    // Times relative to now when there is no base time; a cover's open flag.
    expect(read('[{"n": "tilt", "vb": true, "t": -30}]', 'cover').readings).toEqual([{ at: NOW - 30_000, value: 90 }]);
    expect(read(`[{"value": 1, "ts": ${NOW}}, {"value": 2, "ts": ${NOW / 1000}}]`).readings).toEqual([{ at: NOW, value: 1 }, { at: NOW, value: 2 }]);
  });

  it('refuses each impossible reading alone, and a payload it cannot read whole', () => {
    const reasons = (payload: string, kind: Parameters<typeof readPayload>[1] = 'gas') => read(payload, kind).refusals.map((r) => r.reason);
    expect(reasons('NaN')).toEqual(['notANumber']);
    expect(reasons('{"value": null}')).toEqual(['notANumber']);
    expect(reasons('{"value": "twelve"}')).toEqual(['notANumber']);
    expect(reasons(`{"value": 5, "ts": ${NOW + 3_600_000}}`)).toEqual(['future']);
    expect(reasons(`{"value": 5, "ts": ${NOW - 500 * 86_400_000}}`)).toEqual(['tooOld']);
    expect(reasons('{"value": 5, "unit": "MPa"}')).toEqual(['unit']);
    expect(reasons('{"value": 150}')).toEqual(['impossible']);
    expect(reasons('{"value": 5, "ts": "yesterday"}')).toEqual(['unreadable']);
    expect(reasons('garbage{')).toEqual(['unreadable']);
    expect(reasons('{"temperature": 5}')).toEqual(['unreadable']);
    expect(reasons('x'.repeat(1024 * 1024))).toEqual(['tooLarge']);
    // One bad reading of three: the other two are kept.
    const mixed = read('[{"value": 5}, {"value": "NaN"}, {"value": 6}]');
    expect(mixed.readings.map((r) => r.value)).toEqual([5, 6]);
    expect(mixed.refusals.map((r) => r.reason)).toEqual(['notANumber']);
  });
});

/** A device's credentials made through the API, and a place on one of the enterprise's pipes. */
async function addDevice(api: ReturnType<typeof as>, db: TestApp['database']['db'], enterpriseId: number, body: Record<string, unknown>) {
  const [pipe] = await queryRows<{ lon: number; lat: number }>(db, sql`select (minx + maxx) / 2 as lon, (miny + maxy) / 2 as lat from pipes where enterprise_id = ${enterpriseId} order by id limit 1`);
  const made = await api({ method: 'POST', url: '/api/sensors', payload: { lon: Number(pipe.lon), lat: Number(pipe.lat), ...body } });
  expect(made.statusCode, made.body).toBe(200);
  const device = made.json().result as SensorDevice;
  const credentials = await api({ method: 'POST', url: `/api/sensors/${device.id}/credentials` });
  expect(credentials.statusCode).toBe(200);
  return { device, credentials: credentials.json().result as { username: string; password: string; topic: string } };
}

async function publishAll(url: string, topic: string, payloads: string[], options: mqtt.IClientOptions = {}) {
  const client = await mqtt.connectAsync(url, { protocolVersion: 5, clientId: `device-${tag()}`, reconnectPeriod: 0, ...options });
  try {
    for (const payload of payloads) await client.publishAsync(topic, payload, { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

const getDevice = async (api: ReturnType<typeof as>, id: number) => (await api({ method: 'GET', url: `/api/sensors/${id}` })).json().result as SensorDevice;
const refusals = async (api: ReturnType<typeof as>, code: string) =>
  Object.fromEntries(((await api({ method: 'GET', url: `/api/sensors/refusals?code=${code}` })).json().result as SensorRefusalCount[]).map((r) => [r.reason, r.count]));
const stored = async (db: TestApp['database']['db'], id: number) => Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from sensor_readings where device_id = ${id}`))[0].n);

describe('which readings may leave their device for the device flush', () => {
  const device = (over: Partial<KnownDevice> = {}): KnownDevice => ({ id: 1, enterpriseId: 1, code: 'P-1', kind: 'pressure', hasCredentials: true, thresholds: { belowWarning: 0.2, belowAlarm: 0.15, hysteresis: 0.02 }, state: 'normal', lastValue: 0.3, ...over });
  it('settles only a normal device far from every bound, and no possible fall', () => {
    expect(settles(device(), 0.3)).toBe(true);
    expect(settles(device(), 0.22)).toBe(false); // within the hysteresis band of the warning bound
    expect(settles(device(), 0.1)).toBe(false);
    expect(settles(device({ state: 'warning' }), 0.3)).toBe(false); // the reading may clear it
    expect(settles(device({ state: 'new' }), 0.3)).toBe(false);
    expect(settles(device({ state: 'silent' }), 0.3)).toBe(false);
    const gas = device({ kind: 'gas', thresholds: { aboveWarning: 25, aboveAlarm: 50, hysteresis: 5 } });
    expect(settles(gas, 19)).toBe(true);
    expect(settles(gas, 21)).toBe(false);
    const falls = device({ thresholds: { belowWarning: 0.2, dropPerMinute: 0.05 } });
    expect(settles(falls, 0.31)).toBe(true);
    expect(settles(falls, 0.29)).toBe(false); // lower than the last: may be a fall
    expect(settles({ ...falls, lastValue: null }, 0.31)).toBe(false);
  });
});

describe('a device register through the import engine', () => {
  const demo = useDemoServer();

  it('adds and updates devices from a register in its own words, asks once for an unknown kind, and refuses a bad file whole', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const db = demo.database.db;
    const pipes = await queryRows<{ lon: number; lat: number }>(db, sql`select (minx + maxx) / 2 as lon, (miny + maxy) / 2 as lat from pipes where enterprise_id = ${demo.ids.water} order by id limit 4`);
    const place = (i: number) => `${Number(pipes[i].lon).toFixed(7)},${Number(pipes[i].lat).toFixed(7)}`;
    const tagged = tag().toUpperCase();
    const code = (n: string) => `${n}-${tagged}`;
    const upload = async (fileName: string, content: string) => {
      const analysed = await api({ method: 'POST', url: '/api/sensors/imports', ...multipartFile('file', fileName, content) });
      expect(analysed.statusCode, analysed.body).toBe(200);
      return analysed.json().result as ImportJobView;
    };
    const start = async (job: ImportJobView, body: Record<string, unknown> = {}) => {
      const started = await api({ method: 'POST', url: `/api/sensors/imports/${job.id}/start`, payload: { mapping: job.suggestedMapping, ...body } });
      expect(started.statusCode, started.body).toBe(200);
      await demo.app.imports.settled(job.id);
      return (await api({ method: 'GET', url: `/api/sensors/imports/${job.id}` })).json().result as ImportJobView;
    };
    const byCode = async (c: string) => ((await api({ method: 'GET', url: `/api/sensors?keyword=${c}` })).json().result.list as SensorDevice[]).find((d) => d.code === c);

    const register = [
      '设备编号,设备名称,设备类型,经度,纬度,网关,上报间隔,报警值',
      `${code('GAS')},长河路燃气井,可燃气体探测器,${place(0)},GW-${tagged},300,40`,
      `${code('P')},长河路压力监测点,压力计,${place(1)},GW-${tagged},60,`,
      `${code('L')},雨水井液位,液位传感器,${place(2)},,600,`,
      `${code('X')},井下多参数,井下多参数仪,${place(3)},,,`,
    ].join('\r\n');
    const job = await upload('传感器台账.csv', register);
    expect(job.suggestedMapping).toMatchObject({ code: '设备编号', name: '设备名称', kind: '设备类型', gateway: '网关', intervalSeconds: '上报间隔', aboveAlarm: '报警值' });
    const asked = await start(job);
    expect(asked.status).toBe('analysed');
    expect(asked.unknownWords).toEqual([{ field: 'sensorKind', word: '井下多参数仪', count: 1, row: 4 }]);
    const done = await start(job, { words: [{ field: 'sensorKind', word: '井下多参数仪', value: 'gas' }] });
    expect(done.status, JSON.stringify(done.problems)).toBe('succeeded');
    expect(done.result).toMatchObject({ inserted: 4, updated: 0 });
    const gas = await byCode(code('GAS'));
    expect(gas).toMatchObject({ kind: 'gas', name: '长河路燃气井', gateway: `GW-${tagged}`, intervalSeconds: 300, thresholds: { aboveWarning: 25, aboveAlarm: 40, hysteresis: 5 } });
    expect(gas!.pipeId).not.toBeNull();
    expect(await byCode(code('P'))).toMatchObject({ kind: 'pressure', intervalSeconds: 60, thresholds: { belowWarning: 0.2, belowAlarm: 0.15 } });
    expect(await byCode(code('L'))).toMatchObject({ kind: 'level', gateway: null, intervalSeconds: 600 });
    expect(await byCode(code('X'))).toMatchObject({ kind: 'gas', intervalSeconds: 60 });

    // The next register: a known code is updated (its credentials kept), a new one added, the answered word not asked again.
    expect((await api({ method: 'POST', url: `/api/sensors/${gas!.id}/credentials` })).statusCode).toBe(200);
    const next = await upload('12月台账.csv', ['设备编号,设备名称,设备类型,经度,纬度', `${code('GAS')},长河路燃气井（迁移）,燃气,${place(1)}`, `${code('Y')},新井,井下多参数仪,${place(2)}`].join('\n'));
    const updated = await start(next);
    expect(updated.status, JSON.stringify(updated.problems)).toBe('succeeded');
    expect(updated.result).toMatchObject({ inserted: 1, updated: 1 });
    expect(await byCode(code('GAS'))).toMatchObject({ id: gas!.id, name: '长河路燃气井（迁移）', hasCredentials: true, thresholds: { aboveAlarm: 50 } });

    // A code twice, a code that cannot be a topic, a place off the globe, an alarm under its warning: the file fails whole, each named.
    const bad = [
      '设备编号,设备名称,设备类型,经度,纬度,预警值,报警值',
      `${code('B1')},甲,压力计,${place(0)},,`,
      `${code('B1')},乙,压力计,${place(1)},,`,
      `B 2,丙,液位,${place(2)},,`,
      `${code('B3')},丁,燃气,999,31,,`,
      `${code('B4')},戊,燃气,${place(3)},30,20`,
    ].join('\n');
    const failed = await start(await upload('bad.csv', bad));
    expect(failed.status).toBe('failed');
    expect(failed.problems.map((p) => [p.row, p.field])).toEqual([[2, 'code (设备编号)'], [3, 'code (设备编号)'], [4, 'geometry'], [5, 'aboveAlarm (报警值)']]);
    expect(await byCode(code('B1'))).toBeUndefined();
  });
});

describe('the reading store', () => {
  const demo = useDemoServer();

  it('moves a device at once on a reading that may change its state, gives settled readings within the flush, and keeps a reading sent twice once', async () => {
    const db = demo.database.db;
    const [{ id }] = await queryRows<{ id: number }>(
      db,
      sql`insert into sensor_devices (enterprise_id, code, name, kind, lon, lat, interval_seconds, thresholds, state)
          values (${demo.ids.water}, ${`ST-${tag()}`}, 'store', 'pressure', 120.2, 30.2, 60, '{"belowWarning": 0.2, "belowAlarm": 0.15, "hysteresis": 0.02}', 'normal') returning id`,
    );
    const device = async () => (await queryRows<{ value: number | null; state: string }>(db, sql`select last_value as value, state from sensor_devices where id = ${id}`))[0];
    // Settled last values wait up to a minute: the test is not raced by its clock.
    const store = new ReadingStore(db, 60_000);
    const t = Date.now() - 600_000;
    await store.write([{ deviceId: id, at: t, value: 0.3, settled: false }], [], []);
    expect(await device()).toEqual({ value: 0.3, state: 'normal' });
    const settled = await store.write([{ deviceId: id, at: t + 1000, value: 0.31, settled: true }], [], []);
    expect(settled.stored).toBe(1);
    expect(await device()).toEqual({ value: 0.3, state: 'normal' });
    expect(store.devicesWaiting).toBe(true);
    const urgent = await store.write([{ deviceId: id, at: t + 2000, value: 0.1, settled: false }], [], []);
    expect(await device()).toEqual({ value: 0.1, state: 'alarm' });
    expect(urgent.states.get(id)).toBe('alarm');
    // The device written is told in the batch's steps (a slow batch is logged with them).
    expect(urgent.steps.devices).toBe(1);
    expect(store.devicesWaiting).toBe(false);
    await store.write([{ deviceId: id, at: t + 3000, value: 0.3, settled: true }], [], [], true);
    expect(await device()).toEqual({ value: 0.3, state: 'normal' });
    // Sent again (and twice in one batch): stored once, the rest counted.
    const again = await store.write([
      { deviceId: id, at: t + 3000, value: 0.3, settled: true },
      { deviceId: id, at: t + 4000, value: 0.3, settled: true },
      { deviceId: id, at: t + 4000, value: 0.3, settled: true },
    ], [], [], true);
    expect({ stored: again.stored, duplicates: again.duplicates }).toEqual({ stored: 1, duplicates: 2 });
    expect(await stored(db, id)).toBe(5);
  });
});

describe('readings through the machine\'s Mosquitto (MQTT 5, a shared subscription)', () => {
  const group = `t${tag()}`;
  const demo = useDemoServer({ mqttUrl: BROKER, mqttClientId: `console-test-${group}`, mqttShareGroup: group, mqttProtocol: 5 });
  let api: ReturnType<typeof as>;

  beforeAll(async () => {
    api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    await brokerConnected(api);
  });

  it('stores what devices publish, and keeps each bad message or reading out, counted by device and reason', async () => {
    const code = `T-${tag()}`;
    const { device, credentials } = await addDevice(api, demo.database.db, demo.ids.water, { code, name: '测试液位计', kind: 'level', intervalSeconds: 60 });
    expect(device.pipeId).not.toBeNull();
    expect(credentials.topic).toBe(`sensors/${demo.ids.water}/${code}`);
    const t = Date.now() - 10 * 60_000;
    await publishAll(BROKER, credentials.topic, [
      JSON.stringify({ value: 0.5, ts: t }),
      JSON.stringify({ value: 60, unit: 'cm', ts: t + 60_000 }),
      JSON.stringify([{ bn: `${code}/`, bt: (t + 120_000) / 1000, u: 'm', v: 0.7 }, { t: 60, v: 0.8 }]),
      'NaN',
      JSON.stringify({ value: 1, ts: Date.now() + 3_600_000 }),
      JSON.stringify({ value: 1, unit: 'MPa', ts: t + 240_000 }),
      JSON.stringify({ value: 500, ts: t + 300_000 }),
      'garbage{',
      'x'.repeat(1024 * 1024),
      // The same reading again (QoS 1 sends at least once): kept once.
      JSON.stringify({ value: 0.5, ts: t }),
    ]);
    await expect.poll(() => refusals(api, code), { timeout: 10_000 }).toEqual({ notANumber: 1, future: 1, unit: 1, impossible: 1, unreadable: 1, tooLarge: 1, duplicate: 1 });
    expect(await stored(demo.database.db, device.id)).toBe(4);
    // Each batch's time is in /metrics.
    const batches = (await demo.app.metrics.registry.getSingleMetricAsString('console_sensor_batch_seconds')).match(/console_sensor_batch_seconds_count (\d+)/)?.[1];
    expect(Number(batches)).toBeGreaterThan(0);
    const after = await getDevice(api, device.id);
    expect(after.lastValue).toBe(0.8);
    expect(after.lastAt).toBe(new Date(t + 180_000).toISOString());
    expect(after.refused).toBe(7);
    // The impossible reading was the newest: the device reads as at fault.
    expect(after.state).toBe('fault');
    // A topic of a device the enterprise does not have is counted under its code.
    const stranger = `NO-${tag()}`;
    await publishAll(BROKER, `sensors/${demo.ids.water}/${stranger}`, ['1']);
    await expect.poll(() => refusals(api, stranger), { timeout: 10_000 }).toEqual({ unknownDevice: 1 });
    // The 24 h series: buckets of min / max / mean, counted.
    const series = (await api({ method: 'GET', url: `/api/sensors/${device.id}/series?period=24h` })).json().result;
    expect(series.buckets.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(4);
    expect(Math.max(...series.buckets.map((b: { max: number }) => b.max))).toBe(0.8);
  });

  it('moves a gas detector through warning and alarm with hysteresis, and back', async () => {
    const code = `G-${tag()}`;
    const gasApi = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const { device, credentials } = await addDevice(gasApi, demo.database.db, demo.ids.gas, { code, name: '燃气探测器', kind: 'gas' });
    expect(device.thresholds).toMatchObject({ aboveWarning: 25, aboveAlarm: 50, hysteresis: 5 });
    const t = Date.now() - 60 * 60_000;
    const steps: [number, SensorDevice['state']][] = [[10, 'normal'], [26, 'warning'], [22, 'warning'], [19, 'normal'], [55, 'alarm'], [47, 'alarm'], [44, 'warning']];
    for (const [i, [value, state]] of steps.entries()) {
      await publishAll(BROKER, credentials.topic, [JSON.stringify({ value, ts: t + i * 60_000 })]);
      await expect.poll(async () => (await getDevice(gasApi, device.id)).state, { timeout: 10_000 }).toBe(state);
    }
  });

  it('refuses what a device sends once its credentials are revoked', async () => {
    const code = `R-${tag()}`;
    const { device, credentials } = await addDevice(api, demo.database.db, demo.ids.water, { code, name: '流量计', kind: 'flow' });
    await publishAll(BROKER, credentials.topic, [JSON.stringify({ value: 120, ts: Date.now() - 1000 })]);
    await expect.poll(() => stored(demo.database.db, device.id), { timeout: 10_000 }).toBe(1);
    expect((await api({ method: 'POST', url: `/api/sensors/${device.id}/credentials/revoke` })).statusCode).toBe(200);
    await publishAll(BROKER, credentials.topic, [JSON.stringify({ value: 130, ts: Date.now() })]);
    await expect.poll(() => refusals(api, code), { timeout: 10_000 }).toEqual({ revoked: 1 });
    expect(await stored(demo.database.db, device.id)).toBe(1);
  });

  it('throttles a device that floods without holding back another', async () => {
    const flood = await addDevice(api, demo.database.db, demo.ids.water, { code: `F-${tag()}`, name: '故障压力计', kind: 'pressure' });
    const calm = await addDevice(api, demo.database.db, demo.ids.water, { code: `C-${tag()}`, name: '压力计', kind: 'pressure' });
    const t = Date.now() - 3_600_000;
    const floodClient = await mqtt.connectAsync(BROKER, { protocolVersion: 5, clientId: `device-${tag()}`, reconnectPeriod: 0 });
    await Promise.all(Array.from({ length: 1000 }, (_, i) => floodClient.publishAsync(flood.credentials.topic, JSON.stringify({ value: 0.3, ts: t + i }), { qos: 1 })));
    await floodClient.endAsync();
    await publishAll(BROKER, calm.credentials.topic, Array.from({ length: 10 }, (_, i) => JSON.stringify({ value: 0.3, ts: t + i * 1000 })));
    await expect.poll(() => stored(demo.database.db, calm.device.id), { timeout: 10_000 }).toBe(10);
    await expect.poll(async () => (await stored(demo.database.db, flood.device.id)) + ((await refusals(api, flood.device.code)).throttled ?? 0), { timeout: 10_000 }).toBe(1000);
    const kept = await stored(demo.database.db, flood.device.id);
    expect(kept).toBeGreaterThanOrEqual(120);
    expect(kept).toBeLessThan(1000);
  });

  it('raises alerts into incidents: a gas alarm and a pressure drop within 100 m are one; devices silent behind one gateway are one', async () => {
    const gasApi = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    const [pipe] = await queryRows<{ lon: number; lat: number }>(demo.database.db, sql`select (minx + maxx) / 2 as lon, (miny + maxy) / 2 as lat from pipes where enterprise_id = ${demo.ids.gas} order by id desc limit 1`);
    // Out of town (no other device within kilometres): only these three can meet.
    const at = (north: number) => ({ lon: Number(pipe.lon), lat: Number(pipe.lat) + 0.2 + north / 111_320 });
    const gateway = `GW-${tag()}`;
    const well = await addDevice(gasApi, demo.database.db, demo.ids.gas, { code: `W-${tag()}`, name: '燃气井', kind: 'gas', gateway, ...at(0) });
    const main = await addDevice(gasApi, demo.database.db, demo.ids.gas, { code: `M-${tag()}`, name: '燃气压力计', kind: 'pressure', gateway, ...at(60) });
    const far = await addDevice(gasApi, demo.database.db, demo.ids.gas, { code: `X-${tag()}`, name: '燃气井', kind: 'gas', ...at(900) });
    const t = Date.now() - 3 * 60_000;
    await publishAll(BROKER, well.credentials.topic, [JSON.stringify({ value: 62, ts: t })]);
    await publishAll(BROKER, far.credentials.topic, [JSON.stringify({ value: 30, ts: t })]);
    await publishAll(BROKER, main.credentials.topic, [JSON.stringify({ value: 0.35, ts: t }), JSON.stringify({ value: 0.2, ts: t + 60_000 })]);
    await expect.poll(async () => [(await getDevice(gasApi, well.device.id)).state, (await getDevice(gasApi, far.device.id)).state], { timeout: 10_000 }).toEqual(['alarm', 'warning']);
    await expect.poll(async () => (await queryRows<{ at: string | null }>(demo.database.db, sql`select drop_at as at from sensor_devices where id = ${main.device.id}`))[0].at, { timeout: 10_000 }).not.toBeNull();
    expect((await gasApi({ method: 'POST', url: '/api/alerts/check' })).statusCode).toBe(200);
    const incidents = (await gasApi({ method: 'GET', url: '/api/alerts/incidents?source=sensor&pageSize=100' })).json().result.list as { id: number; kind: string; level: string; memberCount: number; subject: string }[];
    const mine = async (code: string) => {
      const alerts = (await gasApi({ method: 'GET', url: '/api/alerts/alerts?source=sensor&pageSize=100' })).json().result.list as { subject: string; incidentId: number; rule: string; level: string }[];
      return alerts.filter((a) => a.subject === code);
    };
    const [wellAlert] = await mine(well.device.code);
    // The main's fall took its pressure to its warning bound too: two alerts of its own.
    const mainAlerts = await mine(main.device.code);
    expect(mainAlerts.map((a) => [a.rule, a.level]).sort()).toEqual([['sensorDrop', 'II'], ['sensorThreshold', 'III']]);
    const [farAlert] = await mine(far.device.code);
    expect([wellAlert.rule, wellAlert.level]).toEqual(['sensorThreshold', 'I']);
    expect([farAlert.rule, farAlert.level]).toEqual(['sensorThreshold', 'III']);
    expect(mainAlerts.map((a) => a.incidentId)).toEqual([wellAlert.incidentId, wellAlert.incidentId]);
    expect(farAlert.incidentId).not.toBe(wellAlert.incidentId);
    const joint = incidents.find((i) => i.id === wellAlert.incidentId)!;
    expect([joint.kind, joint.memberCount, joint.level]).toEqual(['sensors', 3, 'I']);
    // Both at the gateway go silent (three intervals without a reading): one incident for the two.
    await demo.database.db.execute(sql`update sensor_devices set last_at = now() - interval '1 hour', state = 'silent', state_since = now() where id in (${well.device.id}, ${main.device.id})`);
    expect((await gasApi({ method: 'POST', url: '/api/alerts/check' })).statusCode).toBe(200);
    const [wellSilent, mainSilent] = [(await mine(well.device.code)).find((a) => a.rule === 'sensorSilent'), (await mine(main.device.code)).find((a) => a.rule === 'sensorSilent')];
    expect(wellSilent?.incidentId).toBeDefined();
    expect(mainSilent?.incidentId).toBe(wellSilent?.incidentId);
    const silentIncident = (await gasApi({ method: 'GET', url: `/api/alerts/incidents/${wellSilent!.incidentId}` })).json().result;
    expect([silentIncident.kind, silentIncident.memberCount]).toEqual(['gateway', 2]);
  });

  it('keeps each enterprise\'s devices to itself', async () => {
    const { device } = await addDevice(api, demo.database.db, demo.ids.water, { code: `P-${tag()}`, name: '压力计', kind: 'pressure' });
    const gasApi = as(demo.app, await login(demo.app, 'both'), demo.ids.gas);
    expect((await gasApi({ method: 'GET', url: `/api/sensors/${device.id}` })).statusCode).toBe(404);
    expect((await gasApi({ method: 'GET', url: `/api/sensors/${device.id}/series` })).statusCode).toBe(404);
    expect((await gasApi({ method: 'POST', url: `/api/sensors/${device.id}/credentials/revoke` })).statusCode).toBe(404);
    const list = (await gasApi({ method: 'GET', url: '/api/sensors?pageSize=200' })).json().result.list as SensorDevice[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.map((d) => d.id)).not.toContain(device.id);
  });

  it('says which field is wrong, in the caller\'s language', async () => {
    const bad = await api({ method: 'POST', url: '/api/sensors', headers: { 'accept-language': 'zh-CN' }, payload: { code: 'a b', name: 'x', kind: 'gas', lon: 120, lat: 30 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('code');
    expect(bad.json().message).toContain('MQTT');
    const order = await api({ method: 'POST', url: '/api/sensors', payload: { code: `O-${tag()}`, name: 'x', kind: 'gas', lon: 120, lat: 30, thresholds: { aboveWarning: 50, aboveAlarm: 25 } } });
    expect(order.statusCode).toBe(400);
    expect(order.json().message).toContain('aboveAlarm');
  });
});

describe('the server stopped while devices publish', () => {
  let test: TestApp;
  let config: Config;
  beforeAll(async () => {
    const group = `s${tag()}`;
    test = await createTestApp({ mqttUrl: BROKER, mqttClientId: `console-test-${group}`, mqttShareGroup: group });
    config = { ...readConfig({}), webDist: '/nonexistent', dataDir: test.dataDir, riskDelayMs: 0, alertDelayMs: 0, databaseOwnerUrl: test.ownerUrl, mqttListen: null, mqttSessionExpirySeconds: 120, mqttUrl: BROKER, mqttClientId: `console-test-${group}`, mqttShareGroup: group };
  });
  afterAll(async () => {
    await test.close();
  });

  it('gets every reading published meanwhile once it is back (its session kept them)', async () => {
    let app = test.app;
    const ids = await demoEnterpriseIds(app);
    let api = as(app, await login(app, 'admin'), ids.water);
    await expect.poll(async () => (await api({ method: 'GET', url: '/api/sensors/broker' })).json().result.connected, { timeout: 10_000 }).toBe(true);
    const { device, credentials } = await addDevice(api, test.database.db, ids.water, { code: `S-${tag()}`, name: '压力计', kind: 'pressure' });
    await app.close();
    const t = Date.now() - 3_600_000;
    await publishAll(BROKER, credentials.topic, Array.from({ length: 50 }, (_, i) => JSON.stringify({ value: 0.3 + i / 1000, ts: t + i * 1000 })));
    app = await buildApp({ config, database: test.database });
    try {
      api = as(app, await login(app, 'admin'), ids.water);
      await expect.poll(() => stored(test.database.db, device.id), { timeout: 15_000 }).toBe(50);
      // Readings that change nothing give their device its last value within the device flush (five seconds).
      await expect.poll(async () => (await getDevice(api, device.id)).lastValue, { timeout: 15_000 }).toBe(0.349);
    } finally {
      await app.close();
    }
  });
});

describe('two servers of one console sharing the stream (MQTT 5 shared subscription)', () => {
  let test: TestApp;
  let second: Awaited<ReturnType<typeof buildApp>> | null = null;
  const group = `two${tag()}`;
  beforeAll(async () => {
    test = await createTestApp({ mqttUrl: BROKER, mqttClientId: `console-test-${group}-a`, mqttShareGroup: group });
  });
  afterAll(async () => {
    await second?.close();
    await test.close();
  });

  it('handles each reading once, and the one left takes everything when the other stops', async () => {
    const config = { ...readConfig({}), webDist: '/nonexistent', dataDir: test.dataDir, riskDelayMs: 0, alertDelayMs: 0, databaseOwnerUrl: test.ownerUrl, mqttListen: null, mqttSessionExpirySeconds: 120, mqttUrl: BROKER, mqttClientId: `console-test-${group}-b`, mqttShareGroup: group };
    second = await buildApp({ config, database: test.database });
    const ids = await demoEnterpriseIds(test.app);
    const api = as(test.app, await login(test.app, 'admin'), ids.water);
    await brokerConnected(api);
    await brokerConnected(as(second, await login(second, 'admin'), ids.water));
    const { device, credentials } = await addDevice(api, test.database.db, ids.water, { code: `T2-${tag()}`, name: '流量计', kind: 'flow' });
    const t = Date.now() - 3_600_000;
    // (Within the device's burst allowance on each server: a flood would be throttled, as it should.)
    await publishAll(BROKER, credentials.topic, Array.from({ length: 60 }, (_, i) => JSON.stringify({ value: i, ts: t + i * 1000 })));
    await expect.poll(() => stored(test.database.db, device.id), { timeout: 10_000 }).toBe(60);
    // Once each: no reading came to both (a second copy would be counted a duplicate).
    expect(await refusals(api, device.code)).toEqual({});
    const counted = async (app: typeof second) => (await app!.metrics.registry.getSingleMetricAsString('console_sensor_readings_total')).match(/console_sensor_readings_total (\d+)/)?.[1];
    const [a, b] = [Number(await counted(test.app)), Number(await counted(second))];
    expect(a + b).toBeGreaterThanOrEqual(60);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    // The second server stops (its session stays on the broker): the first takes every reading after.
    await second.close();
    second = null;
    await publishAll(BROKER, credentials.topic, Array.from({ length: 40 }, (_, i) => JSON.stringify({ value: i, ts: t + 100_000 + i * 1000 })));
    await expect.poll(() => stored(test.database.db, device.id), { timeout: 15_000 }).toBe(100);
    expect(await refusals(api, device.code)).toEqual({});
  });
});

describe('the embedded broker (no MQTT_URL)', () => {
  const demo = useDemoServer({ mqttListen: { host: '127.0.0.1', port: 0 } });
  let api: ReturnType<typeof as>;
  let url: string;
  beforeAll(async () => {
    api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const broker = (await api({ method: 'GET', url: '/api/sensors/broker' })).json().result;
    expect(broker).toMatchObject({ embedded: true, connected: true });
    url = broker.address;
  });

  it('takes a device\'s readings with its credentials, refuses a wrong password and another device\'s topic, and drops it when revoked', async () => {
    const { device, credentials } = await addDevice(api, demo.database.db, demo.ids.water, { code: `E-${tag()}`, name: '井盖', kind: 'cover' });
    const options = { protocolVersion: 4 as const, username: credentials.username, password: credentials.password };
    await publishAll(url, credentials.topic, [JSON.stringify({ open: false, ts: Date.now() - 5000 }), JSON.stringify({ open: true, ts: Date.now() - 1000 })], options);
    await expect.poll(() => stored(demo.database.db, device.id), { timeout: 10_000 }).toBe(2);
    expect((await getDevice(api, device.id)).state).toBe('alarm');
    await expect(publishAll(url, credentials.topic, ['1'], { ...options, password: 'wrong' })).rejects.toThrow(/Bad username or password|Not authorized/i);
    // Another device's topic: the broker refuses the message (and ends the connection).
    const other = await addDevice(api, demo.database.db, demo.ids.water, { code: `E-${tag()}`, name: '井盖', kind: 'cover' });
    const trespasser = await mqtt.connectAsync(url, { ...options, clientId: `device-${tag()}`, reconnectPeriod: 0 });
    const thrownOut = new Promise<void>((resolve) => trespasser.once('close', () => resolve()));
    trespasser.publish(other.credentials.topic, JSON.stringify({ value: 1 }), { qos: 1 });
    await thrownOut;
    trespasser.end(true);
    await demo.app.sensors.ingest!.drain();
    expect(await stored(demo.database.db, other.device.id)).toBe(0);
    // Revoked: the open connection ends, and it cannot connect again.
    const connected = await mqtt.connectAsync(url, { ...options, clientId: `device-${tag()}`, reconnectPeriod: 0 });
    const ended = new Promise<void>((resolve) => connected.once('close', () => resolve()));
    expect((await api({ method: 'POST', url: `/api/sensors/${device.id}/credentials/revoke` })).statusCode).toBe(200);
    await ended;
    await expect(publishAll(url, credentials.topic, ['1'], options)).rejects.toThrow(/Bad username or password|Not authorized/i);
  });

  it('plays the demo city\'s devices through it', async () => {
    const list = (await api({ method: 'GET', url: '/api/sensors?pageSize=200' })).json().result.list as (SensorDevice & { simulated: boolean })[];
    const played = list.filter((d) => d.simulated);
    expect(played.length).toBeGreaterThanOrEqual(20);
    // Each reports on its interval, the first round as the server starts: a second reading within
    // two minutes of the seeded history's last comes from the broker.
    const ids = `{${played.map((d) => d.id).join(',')}}`;
    const playedNow = async () =>
      Number((await queryRows<{ n: number }>(demo.database.db, sql`select count(*)::int as n from (select device_id from sensor_readings where device_id = any(${ids}::int[]) and at > now() - interval '2 minutes' group by 1 having count(*) >= 2) p`))[0].n);
    await expect.poll(playedNow, { timeout: 15_000 }).toBe(played.length);
  });
});

/** A free port on loopback. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('Mosquitto with accounts: its password file kept in step with the credentials', () => {
  let mosquitto: ChildProcess;
  let url: string;
  let dir: string;
  const ingest = { username: 'console-ingest', password: randomBytes(12).toString('hex') };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mosquitto-'));
    const port = await freePort();
    url = `mqtt://127.0.0.1:${port}`;
    // The machine's Mosquitto binary with the README's configuration: no anonymous clients, each device its own topic.
    await writeFile(join(dir, 'passwords'), '');
    await writeFile(join(dir, 'acl'), `user ${ingest.username}\ntopic read sensors/#\n\npattern write sensors/%u\n`);
    await writeFile(join(dir, 'mosquitto.conf'), [`pid_file ${join(dir, 'pid')}`, `listener ${port} 127.0.0.1`, 'allow_anonymous false', `password_file ${join(dir, 'passwords')}`, `acl_file ${join(dir, 'acl')}`, 'persistence false',
      // Started as root (CI), it would drop to its own user, who may not write this test's folder; as anyone else, the line is ignored.
      'user root'].join('\n') + '\n');
    mosquitto = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
    for (let i = 0; i < 50; i++) {
      if (await new Promise((resolve) => { const s = createServer(); s.once('error', () => resolve(true)); s.listen(port, '127.0.0.1', () => s.close(() => resolve(false))); })) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => {
    mosquitto?.kill();
  });

  const group = `p${tag()}`;
  it('lets a device in with the credentials made for it, to its own topic only, and out once revoked', async () => {
    // The broker's port is known only now: a server of its own on it, with the file to keep.
    const test = await createTestApp({
      mqttUrl: `mqtt://${ingest.username}:${ingest.password}@${new URL(url).host}`,
      mqttClientId: `console-test-${group}-own`,
      mqttShareGroup: group,
      mosquittoPasswordFile: join(dir, 'passwords'),
      mosquittoPidFile: join(dir, 'pid'),
    });
    try {
      const ids = await demoEnterpriseIds(test.app);
      const api = as(test.app, await login(test.app, 'admin'), ids.water);
      await brokerConnected(api);
      const { device, credentials } = await addDevice(api, test.database.db, ids.water, { code: `A-${tag()}`, name: '压力计', kind: 'pressure' });
      const options = { protocolVersion: 5 as const, username: credentials.username, password: credentials.password };
      await publishAll(url, credentials.topic, [JSON.stringify({ value: 0.3, ts: Date.now() - 1000 })], options);
      await expect.poll(() => stored(test.database.db, device.id), { timeout: 10_000 }).toBe(1);
      await expect(publishAll(url, credentials.topic, ['1'], { ...options, password: 'wrong' })).rejects.toThrow(/Bad User Name or Password|Not authorized/i);
      // Another device's topic: the broker's ACL refuses it (MQTT 5 says so in the acknowledgement).
      const other = await addDevice(api, test.database.db, ids.water, { code: `B-${tag()}`, name: '压力计', kind: 'pressure' });
      await expect(publishAll(url, other.credentials.topic, [JSON.stringify({ value: 0.3 })], options)).rejects.toThrow(/Not authorized|135/i);
      expect(await stored(test.database.db, other.device.id)).toBe(0);
      expect((await api({ method: 'POST', url: `/api/sensors/${device.id}/credentials/revoke` })).statusCode).toBe(200);
      await expect.poll(() => publishAll(url, credentials.topic, ['1'], options).then(() => 'in', (error: Error) => error.message), { timeout: 5_000 }).toMatch(/Bad User Name or Password|Not authorized/i);
      // The password file cannot be written (a directory holds its staging name): new credentials
      // are still answered and kept, and reach the broker once the file can be written again.
      const staged = `${join(dir, 'passwords')}.${process.pid}.tmp`;
      await mkdir(staged);
      const made = await api({ method: 'POST', url: `/api/sensors/${other.device.id}/credentials` });
      expect(made.statusCode).toBe(200);
      const fresh = made.json().result as { topic: string; username: string; password: string };
      const freshOptions = { protocolVersion: 5 as const, username: fresh.username, password: fresh.password };
      await expect(publishAll(url, fresh.topic, ['1'], freshOptions)).rejects.toThrow(/Bad User Name or Password|Not authorized/i);
      await rm(staged, { recursive: true });
      await expect.poll(() => publishAll(url, fresh.topic, [JSON.stringify({ value: 0.3, ts: Date.now() - 500 })], freshOptions).then(() => 'in', (error: Error) => error.message), { timeout: 10_000 }).toBe('in');
      await expect.poll(() => stored(test.database.db, other.device.id), { timeout: 10_000 }).toBeGreaterThan(0);
    } finally {
      await test.close();
    }
  });
});
