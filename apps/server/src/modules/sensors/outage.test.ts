import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOverHttp, startServerProcess, TestCluster, testPort, until } from '../../testing/process.ts';

/**
 * The server as `npm start` runs it, subscribed to the machine's Mosquitto, on a PostgreSQL server
 * of the test's own that is stopped while devices publish: nothing is acknowledged that is not
 * stored, so the broker holds what comes meanwhile; the process lives on and stores every reading
 * once the database is back. Runs with the PostgreSQL suite (CI: `npm run test:pg`).
 */
const BROKER = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';

describe.skipIf(!process.env.TEST_DATABASE_URL)('sensors while the database is away', () => {
  const cluster = new TestCluster(testPort(56000));
  const tag = randomBytes(4).toString('hex');
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let call: Awaited<ReturnType<typeof signInOverHttp>>;

  beforeAll(async () => {
    await cluster.run('init');
    await cluster.query('create database console');
    server = await startServerProcess({
      DATABASE_URL: cluster.url.replace(/\/postgres$/, '/console'),
      DB_CHECK_S: '0.5',
      DB_TIMEOUT_S: '2',
      MQTT_URL: BROKER,
      MQTT_CLIENT_ID: `console-outage-${tag}`,
      MQTT_SHARE_GROUP: `outage${tag}`,
      MQTT_SESSION_EXPIRY_S: '120',
    });
    call = await signInOverHttp(server.base, 'admin');
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await cluster.run('remove');
  });

  const stored = async (id: number) => (await cluster.query<{ n: number }>(`select count(*)::int as n from sensor_readings where device_id = ${id}`, 'console'))[0].n;

  async function publish(topic: string, from: number, count: number) {
    const client = await mqtt.connectAsync(BROKER, { protocolVersion: 5, clientId: `device-outage-${tag}-${from}`, reconnectPeriod: 0 });
    try {
      // Five readings a message, as a device sends what it buffered (well within its throttle: a burst of 120 messages).
      const t = Date.now() - 600_000;
      for (let i = from; i < from + count; i += 5) {
        const readings = Array.from({ length: Math.min(5, from + count - i) }, (_, k) => ({ value: 0.3 + (i + k) / 10_000, ts: t + (i + k) * 1000 }));
        await client.publishAsync(topic, JSON.stringify(readings), { qos: 1 });
      }
    } finally {
      await client.endAsync();
    }
  }

  it('stores every reading published while PostgreSQL was stopped once it is back, acknowledging none before, and the process lives on', async () => {
    await until(async () => (await (await call('/sensors/broker')).json()).result.connected === true, 'the server subscribed', 15_000);
    const made = await call('/sensors', { method: 'POST', json: { code: `OUT-${tag}`, name: '停库压力计', kind: 'pressure', lon: 120.2, lat: 30.2 } });
    expect(made.status).toBe(200);
    const device = (await made.json()).result as { id: number; topic: string };
    const credentials = await call(`/sensors/${device.id}/credentials`, { method: 'POST' });
    expect(credentials.status).toBe(200);
    const { topic } = (await credentials.json()).result as { topic: string };

    await publish(topic, 0, 50);
    await until(async () => (await stored(device.id)) === 50, '50 readings stored before the stop');

    await cluster.run('stop');
    // Devices go on publishing; the broker takes them (its PUBACK to the device), the server cannot store them.
    await publish(topic, 50, 150);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(server.alive).toBe(true);
    expect((await fetch(`${server.base}/api/ready`)).status).toBe(503);

    await cluster.run('start');
    await until(async () => (await stored(device.id)) === 200, 'all 200 readings stored once the database is back', 60_000);
    expect(server.alive).toBe(true);
    // Once each, and the device's last value is the last reading.
    const [{ n, distinct }] = await cluster.query<{ n: number; distinct: number }>(`select count(*)::int as n, count(distinct at)::int as distinct from sensor_readings where device_id = ${device.id}`, 'console');
    expect({ n, distinct }).toEqual({ n: 200, distinct: 200 });
    await until(async () => (await (await call(`/sensors/${device.id}`)).json()).result.lastValue === 0.3 + 199 / 10_000, 'the last value is the last reading', 15_000);
  }, 180_000);
});
