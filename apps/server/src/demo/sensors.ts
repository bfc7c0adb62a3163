import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { NetworkType, SensorKind } from '@console/contract';
import type { Db } from '../db/client.ts';
import { sensorDevices } from '../db/schema.ts';
import { hashSecret } from '../modules/sensors/credentials.ts';
import { createSensor } from '../modules/sensors/service.ts';
import { simulatedValue } from '../modules/sensors/simulator.ts';
import { markSilent, ReadingStore } from '../modules/sensors/store.ts';
import type { DemoPipe } from './city.ts';
import { seededRandom } from './random.ts';

/** The demo's devices per enterprise: kind, how many, on which network, named how. */
const PLAN: { enterprise: 'water' | 'gas'; kind: SensorKind; count: number; network: NetworkType; prefix: string; name: string; gateway: string }[] = [
  { enterprise: 'gas', kind: 'gas', count: 12, network: 'gas', prefix: 'CH4', name: '燃气井可燃气体探测器', gateway: 'GW-GAS-01' },
  { enterprise: 'gas', kind: 'pressure', count: 6, network: 'gas', prefix: 'GP', name: '燃气管网压力计', gateway: 'GW-GAS-02' },
  { enterprise: 'water', kind: 'pressure', count: 8, network: 'water', prefix: 'WP', name: '供水管网压力计', gateway: 'GW-WATER-01' },
  { enterprise: 'water', kind: 'flow', count: 6, network: 'water', prefix: 'WF', name: '供水管网流量计', gateway: 'GW-WATER-01' },
  { enterprise: 'water', kind: 'level', count: 8, network: 'drainage', prefix: 'DL', name: '排水井液位计', gateway: 'GW-DRAIN-01' },
  { enterprise: 'water', kind: 'cover', count: 6, network: 'drainage', prefix: 'MC', name: '智能井盖', gateway: 'GW-DRAIN-01' },
];
/**
 * What the demo's devices are doing as it is made, so every sensor rule has something to raise:
 * a gas detector in alarm, a pressure meter whose pressure just fell (a burst), a flow meter silent
 * for hours and a level sensor reading the impossible (these two no longer played: broken devices).
 */
const STORIES: { code: string; enterprise: 'water' | 'gas'; readings?: [number, number][]; silentHours?: number; impossible?: number }[] = [
  { code: 'CH4-001', enterprise: 'gas', readings: [[0, 58]] },
  // Both after the day of history: its last value may itself be the hourly dip (minutes 40-44), and a fall is measured from the reading before.
  { code: 'GP-001', enterprise: 'gas', readings: [[0, 0.31], [1_000, 0.16]] },
  { code: 'WF-006', enterprise: 'water', silentHours: 3 },
  { code: 'DL-008', enterprise: 'water', impossible: -5 },
];
const HISTORY_HOURS = 24;
const HISTORY_STEP_MS = 5 * 60_000;
const DEMO_INTERVAL_S = 60;

/**
 * Devices in the demo city's wells and on its mains, each on the middle of a pipe of its network,
 * with a day of readings behind them (so the charts are not empty at the first start), marked
 * simulated: the server plays them through its embedded broker from then on.
 */
export async function seedDemoSensors(db: Db, options: { pipes: DemoPipe[]; enterpriseIds: { water: number; gas: number }; madeAt: number }) {
  const random = seededRandom(4901);
  for (const plan of PLAN) {
    const candidates = options.pipes.filter((p) => p.networkType === plan.network && p.diameterMm >= 200);
    const pool = candidates.length ? candidates : options.pipes.filter((p) => p.networkType === plan.network);
    for (let i = 0; i < plan.count && pool.length; i++) {
      const pipe = pool[Math.floor(random.next() * pool.length)];
      const line = pipe.geometry.type === 'LineString' ? pipe.geometry.coordinates : pipe.geometry.coordinates[0];
      const [lon, lat] = line[Math.floor(line.length / 2)];
      const enterpriseId = options.enterpriseIds[plan.enterprise];
      const code = `${plan.prefix}-${String(i + 1).padStart(3, '0')}`;
      const device = await createSensor(db, enterpriseId, { code, name: `${plan.name} ${i + 1}`, kind: plan.kind, lon, lat, pipeId: pipe.pipeId, gateway: plan.gateway, intervalSeconds: DEMO_INTERVAL_S }, true);
      // Credentials nobody is shown: the server publishes for it; an admin makes new ones to try a real device.
      await db.update(sensorDevices).set({ credentialHash: hashSecret(randomBytes(18).toString('base64url')) }).where(eq(sensorDevices.id, device.id));
      await seedHistory(db, device.id, plan.kind, i, options.madeAt);
    }
  }
  const store = new ReadingStore(db);
  for (const story of STORIES) {
    const [device] = await db.select({ id: sensorDevices.id }).from(sensorDevices).where(and(eq(sensorDevices.enterpriseId, options.enterpriseIds[story.enterprise]), eq(sensorDevices.code, story.code)));
    if (!device) continue;
    if (story.readings) await store.write(story.readings.map(([ago, value]) => ({ deviceId: device.id, at: options.madeAt + 1000 + ago, value })), [], []);
    if (story.silentHours) {
      const since = options.madeAt - story.silentHours * 3_600_000;
      await db.execute(sql`delete from sensor_readings where device_id = ${device.id} and at > to_timestamp(${since} / 1000.0)`);
      await db.execute(sql`update sensor_devices set simulated = false, last_at = (select max(at) from sensor_readings where device_id = ${device.id}) where id = ${device.id}`);
      await markSilent(db);
    }
    if (story.impossible !== undefined) {
      await db.update(sensorDevices).set({ simulated: false }).where(eq(sensorDevices.id, device.id));
      await store.write([], [{ enterpriseId: options.enterpriseIds[story.enterprise], code: story.code, deviceId: device.id, reason: 'impossible', sample: JSON.stringify({ value: story.impossible }), count: 1 }], [{ deviceId: device.id, at: options.madeAt + 1000 }]);
    }
  }
}

async function seedHistory(db: Db, deviceId: number, kind: SensorKind, rank: number, madeAt: number) {
  const end = madeAt;
  const ats: number[] = [];
  for (let at = end - HISTORY_HOURS * 3_600_000; at <= end; at += HISTORY_STEP_MS) ats.push(at);
  for (const month of new Set(ats.map((at) => new Date(at).toISOString().slice(0, 7)))) {
    await db.execute(sql`select sensor_readings_month_add(${`${month}-01T00:00:00Z`}::timestamptz)`);
  }
  const values = ats.map((at) => Number(simulatedValue(kind, rank, at).toFixed(3)));
  await db.execute(sql`insert into sensor_readings (device_id, at, value)
    select ${deviceId}::int, to_timestamp(a / 1000.0), v from unnest(${`{${ats.join(',')}}`}::float8[], ${`{${values.join(',')}}`}::float8[]) as r(a, v)`);
  await db.execute(sql`update sensor_devices set last_at = to_timestamp(${end} / 1000.0), last_value = ${values[values.length - 1]},
    state = sensor_state(thresholds, 'normal', ${values[values.length - 1]}), state_since = now() where id = ${deviceId}`);
}
