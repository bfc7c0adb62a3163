import { daysFromFirst, linearFit } from '@console/contract';
import type { Db } from '../db/client.ts';
import { settlementDatasets } from '../db/schema.ts';
import { createPointTable, finishDataset } from '../modules/settlement/points.ts';
import { encodePoint } from '../modules/settlement/rows.ts';
import { BinaryRows } from '../db/copy.ts';
import { metresPerDegree } from '../geo/local.ts';
import type { DemoCity } from './city.ts';
import { seededRandom } from './random.ts';

/** Sentinel-1's repeat cycle: three years of it from the first date. */
const FIRST_DATE = Date.UTC(2023, 0, 4);
const CYCLE_DAYS = 12;
const DATE_COUNT = 92;

export interface DemoSettlementOptions {
  enterpriseId: number;
  projectId: number | null;
  /** Points to make (100,000 for the 20,000-pipe city). */
  points: number;
}

/** Where the ground moves in the demo city, so every view has something to show. */
export interface DemoGroundMotion {
  /** A subsidence bowl centred under a gas main: [lon, lat], radius (m), velocity at its centre (mm/yr). */
  bowl: { center: [number, number]; radiusM: number; velocity: number };
  /** Subsidence along a straight construction corridor from `from` to `to`, `halfWidthM` wide each side. */
  corridor: { from: [number, number]; to: [number, number]; halfWidthM: number; velocity: number };
  /** Small uplift spots (e.g. groundwater recovery): centre, radius, velocity. */
  uplift: { center: [number, number]; radiusM: number; velocity: number }[];
}

/** The demo's ground motion, placed on the city's own streets and pipes. */
export function demoGroundMotion(city: DemoCity): DemoGroundMotion {
  const [w, s, e, n] = city.extent;
  // The bowl: under the gas main nearest a point west of the centre.
  const target = [w + (e - w) * 0.35, s + (n - s) * 0.62];
  let best: [number, number] = [target[0], target[1]];
  let bestDistance = Infinity;
  for (const pipe of city.pipes) {
    if (pipe.networkType !== 'gas' || pipe.diameterMm < 200 || pipe.geometry.type !== 'LineString') continue;
    const [a, b] = pipe.geometry.coordinates;
    const mid: [number, number] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const d = Math.hypot(mid[0] - target[0], mid[1] - target[1]);
    if (d < bestDistance) (bestDistance = d), (best = mid);
  }
  // The corridor: along the middle latitude (the corridor project's street), a third of the city long.
  const mid = (s + n) / 2;
  return {
    bowl: { center: best, radiusM: 260, velocity: -24 },
    corridor: { from: [w + (e - w) * 0.15, mid], to: [w + (e - w) * 0.5, mid], halfWidthM: 70, velocity: -15 },
    uplift: [
      { center: [w + (e - w) * 0.75, s + (n - s) * 0.3], radiusM: 150, velocity: 6 },
      { center: [w + (e - w) * 0.62, s + (n - s) * 0.82], radiusM: 110, velocity: 5 },
    ],
  };
}

/** The velocity the demo ground has at a place (mm/yr, negative = subsidence). */
export function demoVelocityAt(motion: DemoGroundMotion, lon: number, lat: number): number {
  const [mx, my] = metresPerDegree(lat);
  const distance = (c: number[]) => Math.hypot((lon - c[0]) * mx, (lat - c[1]) * my);
  let v = motion.bowl.velocity * Math.exp(-((distance(motion.bowl.center) / motion.bowl.radiusM) ** 2));
  const { from, to, halfWidthM, velocity } = motion.corridor;
  const ax = (to[0] - from[0]) * mx, ay = (to[1] - from[1]) * my;
  const px = (lon - from[0]) * mx, py = (lat - from[1]) * my;
  const t = (px * ax + py * ay) / (ax * ax + ay * ay);
  if (t >= 0 && t <= 1) v += velocity * Math.exp(-((Math.hypot(px - t * ax, py - t * ay) / halfWidthM) ** 2));
  for (const spot of motion.uplift) v += spot.velocity * Math.exp(-((distance(spot.center) / spot.radiusM) ** 2));
  return v;
}

/**
 * A demo InSAR dataset over the city: persistent scatterers mostly along the streets (buildings
 * and road furniture reflect), with a bowl under a gas main, a corridor of subsidence along a
 * construction line, two uplift spots, seasonal swing and noise; written the way an import writes.
 */
export async function seedDemoSettlement(db: Db, city: DemoCity, options: DemoSettlementOptions): Promise<number> {
  const random = seededRandom(20230104);
  const motion = demoGroundMotion(city);
  const dates = Array.from({ length: DATE_COUNT }, (_, i) => new Date(FIRST_DATE + i * CYCLE_DAYS * 86_400_000).toISOString().slice(0, 10));
  const days = daysFromFirst(dates);
  const years = days.map((d) => d / 365.25);
  const [dataset] = await db
    .insert(settlementDatasets)
    .values({
      enterpriseId: options.enterpriseId,
      projectId: options.projectId,
      name: 'Sentinel-1 升轨 T142 2023-2025',
      provider: '中科星图 InSAR 处理中心',
      sensor: 'Sentinel-1',
      track: '142',
      orbit: 'ascending',
      direction: 'vertical',
      referencePoint: '滨江区江南大道基岩参考点（稳定区）',
      dates,
      minx: 0,
      miny: 0,
      maxx: 0,
      maxy: 0,
      fileName: 'binjiang_s1_asc_t142_2023_2025.csv',
    })
    .returning({ id: settlementDatasets.id });
  const writer = await createPointTable(db, dataset.id);
  const rows = new BinaryRows();
  const displacements = new Int32Array(years.length);
  const noGaps = new Uint8Array(years.length);
  const streets = city.basemap.filter((f) => f.kind === 'street' || f.kind === 'mainStreet').map((f) => f.geometry.coordinates as number[][]);
  const [w, s, e, n] = city.extent;
  const [mx, my] = metresPerDegree((s + n) / 2);
  for (let i = 0; i < options.points; i++) {
    let lon: number, lat: number;
    if (random.chance(0.7)) {
      // Beside a street: a random place along one of its segments, up to 18 m off its line.
      const street = streets[Math.floor(random.between(0, streets.length))];
      const k = Math.floor(random.between(0, street.length - 1));
      const t = random.between(0, 1);
      lon = street[k][0] + (street[k + 1][0] - street[k][0]) * t + random.between(-18, 18) / mx;
      lat = street[k][1] + (street[k + 1][1] - street[k][1]) * t + random.between(-18, 18) / my;
    } else {
      lon = random.between(w, e);
      lat = random.between(s, n);
    }
    const v = demoVelocityAt(motion, lon, lat) + gaussian(random) * 0.8;
    const seasonal = random.between(0, 3);
    const phase = random.between(-0.3, 0.3);
    const series = years.map((t, k) => (k === 0 ? 0 : v * t + seasonal * (Math.sin(2 * Math.PI * (t + phase)) - Math.sin(2 * Math.PI * phase)) + gaussian(random) * 1.2));
    const rounded = series.map((d) => Math.round(d * 10) / 10);
    const fitted = linearFit(days, rounded)!.velocity;
    for (let k = 0; k < rounded.length; k++) displacements[k] = Math.round(rounded[k] * 100);
    encodePoint(rows, dataset.id, {
      pointId: `PS${String(i + 1).padStart(6, '0')}`,
      lon: Math.round(lon * 1e7) / 1e7,
      lat: Math.round(lat * 1e7) / 1e7,
      velocity: Math.round(fitted * 100) / 100,
      velocityStd: Math.round(random.between(0.3, 1.5) * 100) / 100,
      coherence: Math.round(random.between(0.55, 0.98) * 100) / 100,
      height: Math.round(random.between(4, 40) * 10) / 10,
      acceleration: null,
      cumulative: rounded[rounded.length - 1],
    }, displacements, noGaps, rounded.length);
    if (rows.length >= 1 << 20) await writer.writeRows(rows.take());
  }
  await writer.writeRows(rows.take());
  await writer.end();
  await finishDataset(db, dataset.id);
  return dataset.id;
}

/** A standard normal value (Box-Muller). */
function gaussian(random: { between(a: number, b: number): number }) {
  return Math.sqrt(-2 * Math.log(random.between(1e-12, 1))) * Math.cos(2 * Math.PI * random.between(0, 1));
}
