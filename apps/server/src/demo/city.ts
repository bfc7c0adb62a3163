import type { AreaGeometry, LineGeometry, NetworkType } from '@console/contract';
import { seededRandom } from './random.ts';

/**
 * A plausible city district for demos, tests and benchmarks: a street grid around Hangzhou's
 * Binjiang district with water, gas and drainage pipes along the streets, a river and parks for
 * the basemap, and project areas. Deterministic for a seed; the size follows `pipes`.
 */
export interface CityOptions {
  seed?: number;
  /** About how many pipe segments to make (default 20,000; benchmarks use 1,000,000). */
  pipes?: number;
  /** Centre [lon, lat]. */
  center?: [number, number];
}

export interface DemoPipe {
  pipeId: string;
  networkType: NetworkType;
  material: string;
  diameterMm: number;
  pressureClass: string | null;
  installYear: number;
  depthM: number;
  geometry: LineGeometry;
}

export interface DemoFeature {
  kind: 'street' | 'mainStreet' | 'river' | 'park';
  name: string;
  geometry: LineGeometry | AreaGeometry;
}

export interface DemoProjectArea {
  key: 'binjiangLeak' | 'jiangnanCorridor' | 'gasNorth';
  networkType: NetworkType[];
  area: AreaGeometry;
}

export interface DemoCity {
  pipes: DemoPipe[];
  basemap: DemoFeature[];
  projectAreas: DemoProjectArea[];
  /** [minX, minY, maxX, maxY] of the street grid. */
  extent: [number, number, number, number];
}

/** Street spacing in metres. */
const BLOCK_M = 180;
const M_PER_DEG_LAT = 111_320;

/** Pipes per street segment on average: water on all, gas on 60 %, drainage on 70 % (all three under main streets). */
const PIPES_PER_STREET = 2.3;

/**
 * Street names of the district's kind (north-south roads, east-west streets), each street its
 * own: an incident's title names the nearest one, so two places never share a name.
 */
const STREET_STEMS = ['江南', '滨盛', '江陵', '长河', '西兴', '浦沿', '信诚', '江晖', '南环', '滨文', '聚才', '伟业', '东信', '秋溢', '火炬', '春晓', '月明', '江虹', '六和', '闻涛', '丹枫', '时代', '共联', '立业', '建业', '阡陌', '网商', '星民', '明德', '协同', '诚业', '滨康', '滨安', '滨兴', '滨和', '长江', '钱江', '冠山', '白马', '越达'];
const ORDINALS = ['', '二', '三', '四', '五', '六', '七', '八', '九'];
const streetName = (i: number, suffix: '路' | '街') => `${STREET_STEMS[i % STREET_STEMS.length]}${ORDINALS[Math.floor(i / STREET_STEMS.length) % ORDINALS.length]}${suffix}`;

export function generateCity(options: CityOptions = {}): DemoCity {
  const random = seededRandom(options.seed ?? 20260101);
  const [lon0, lat0] = options.center ?? [120.205, 30.2];
  const target = options.pipes ?? 20_000;
  // An n x n grid has 2n(n-1) street segments.
  const n = Math.max(3, Math.ceil((1 + Math.sqrt(1 + (2 * target) / PIPES_PER_STREET)) / 2));
  const mPerDegLon = M_PER_DEG_LAT * Math.cos((lat0 * Math.PI) / 180);
  const dLat = BLOCK_M / M_PER_DEG_LAT;
  const dLon = BLOCK_M / mPerDegLon;
  const west = lon0 - ((n - 1) / 2) * dLon;
  const south = lat0 - ((n - 1) / 2) * dLat;

  // Intersections, jittered so the grid does not look ruled.
  const nodes: number[][][] = [];
  for (let i = 0; i < n; i++) {
    nodes.push([]);
    for (let j = 0; j < n; j++) {
      nodes[i].push([west + i * dLon + random.between(-0.12, 0.12) * dLon, south + j * dLat + random.between(-0.12, 0.12) * dLat]);
    }
  }

  const offset = (line: number[][], metres: number) => {
    // Shift a two-point line sideways by `metres` (pipes run beside the street's centre line).
    const [a, b] = line;
    const dx = (b[0] - a[0]) * mPerDegLon;
    const dy = (b[1] - a[1]) * M_PER_DEG_LAT;
    const len = Math.hypot(dx, dy) || 1;
    const ox = ((-dy / len) * metres) / mPerDegLon;
    const oy = ((dx / len) * metres) / M_PER_DEG_LAT;
    return line.map((p) => [round(p[0] + ox), round(p[1] + oy)]);
  };

  const pipes: DemoPipe[] = [];
  const counters: Record<string, number> = { water: 0, gas: 0, drainage: 0 };
  const nextId = (type: 'water' | 'gas' | 'drainage') => `${{ water: 'W', gas: 'G', drainage: 'D' }[type]}-${String(++counters[type]).padStart(7, '0')}`;

  /** The sizes of the pipes under a main street, kept from one end of the street to the other. */
  interface MainSizes {
    water: number;
    gas: number;
    drainage: number;
  }
  // Every fifth street (900 m apart) is a main street and every twentieth (3.6 km) a trunk
  // corridor, so a map that shows only mains or trunk mains (the tiles' scale ranges) draws whole
  // streets, not scattered blocks.
  const mainSizes = (i: number): MainSizes | null => {
    if (i % 5 !== 0) return null;
    if (i % 20 === 0) return { water: random.pick([800, 1000]), gas: 315, drainage: random.pick([1500, 1800]) };
    return { water: random.pick([400, 500, 600]), gas: 200, drainage: random.pick([1000, 1200]) };
  };

  // The city grew outwards, as most do: an old core west of the centre, laid 1965-1992 and much of
  // it in grey cast iron and steel, and the rest mostly laid since 2000 (a third of the pipes in the
  // last 10 years, one in twenty over 30). Each draw stays one draw, so the rest of the city is the same.
  const inOldCore = (a: number[]) => {
    const x = (a[0] - west) / ((n - 1) * dLon);
    const y = (a[1] - south) / ((n - 1) * dLat);
    return x >= 0.12 && x <= 0.52 && y >= 0.28 && y <= 0.72;
  };
  const laidIn = (old: boolean) => (old ? random.int(1965, 1992) : 2024 - Math.floor(40 * random.next() ** 2));

  const addStreetPipes = (a: number[], b: number[], main: MainSizes | null) => {
    if (pipes.length >= target) return;
    const centre = [a, b];
    const old = inOldCore(a);
    pipes.push({
      pipeId: nextId('water'),
      networkType: 'water',
      material: random.weighted(old ? ([['cast iron', 45], ['ductile iron', 25], ['steel', 20], ['PVC', 10]] as const) : ([['ductile iron', 42], ['PE', 42], ['steel', 6], ['cast iron', 2], ['PVC', 8]] as const)),
      // The old core's service mains are the narrow ones of their day.
      diameterMm: main ? main.water : random.weighted(old ? ([[80, 25], [100, 45], [150, 20], [200, 10]] as const) : ([[100, 35], [150, 25], [200, 20], [300, 15], [80, 5]] as const)),
      pressureClass: null,
      installYear: laidIn(old),
      depthM: round2(random.between(0.8, 2.0)),
      geometry: { type: 'LineString', coordinates: offset(centre, 4) },
    });
    if ((main || random.chance(0.6)) && pipes.length < target) {
      pipes.push({
        pipeId: nextId('gas'),
        networkType: 'gas',
        material: random.weighted([['PE', 70], ['steel', 30]] as const),
        diameterMm: main ? main.gas : random.pick([63, 110, 160]),
        pressureClass: main ? random.weighted([['medium', 70], ['sub-high', 30]] as const) : random.weighted([['low', 60], ['medium', 40]] as const),
        installYear: random.int(1995, 2024),
        depthM: round2(random.between(0.9, 1.5)),
        geometry: { type: 'LineString', coordinates: offset(centre, -4) },
      });
    }
    if ((main || random.chance(0.7)) && pipes.length < target) {
      pipes.push({
        pipeId: nextId('drainage'),
        networkType: 'drainage',
        material: random.weighted([['concrete', 55], ['HDPE', 30], ['PVC', 15]] as const),
        diameterMm: main ? main.drainage : random.pick([300, 400, 500, 600, 800]),
        pressureClass: null,
        installYear: laidIn(old),
        depthM: round2(random.between(1.5, 4.0)),
        geometry: { type: 'LineString', coordinates: offset(centre, 0) },
      });
    }
  };

  const basemap: DemoFeature[] = [];
  for (let i = 0; i < n; i++) {
    const mainX = mainSizes(i);
    const mainY = mainSizes(i);
    const ns: number[][] = [];
    const ew: number[][] = [];
    for (let j = 0; j < n; j++) {
      ns.push(nodes[i][j]);
      ew.push(nodes[j][i]);
      if (j > 0) {
        addStreetPipes(nodes[i][j - 1], nodes[i][j], mainX);
        addStreetPipes(nodes[j - 1][i], nodes[j][i], mainY);
      }
    }
    basemap.push({ kind: mainX ? 'mainStreet' : 'street', name: streetName(i, '路'), geometry: { type: 'LineString', coordinates: ns.map(roundP) } });
    basemap.push({ kind: mainY ? 'mainStreet' : 'street', name: streetName(i, '街'), geometry: { type: 'LineString', coordinates: ew.map(roundP) } });
  }

  const east = west + (n - 1) * dLon;
  const north = south + (n - 1) * dLat;
  // A river along the north edge and parks inside some blocks.
  const river: number[][] = [];
  for (let k = 0; k <= 40; k++) {
    const x = west - dLon + ((east - west + 2 * dLon) * k) / 40;
    river.push(roundP([x, north + dLat * (0.6 + 0.3 * Math.sin(k / 4))]));
  }
  const riverBand = [...river, ...[...river].reverse().map((p) => roundP([p[0], p[1] + dLat * 0.8]))];
  riverBand.push(riverBand[0]);
  basemap.push({ kind: 'river', name: '钱塘江', geometry: { type: 'Polygon', coordinates: [riverBand] } });
  for (let k = 0; k < Math.max(2, Math.floor(n / 8)); k++) {
    const i = random.int(0, n - 2);
    const j = random.int(0, n - 2);
    const [x0, y0] = nodes[i][j];
    const w = dLon * 0.7;
    const h = dLat * 0.7;
    const ring = [[x0 + dLon * 0.15, y0 + dLat * 0.15], [x0 + dLon * 0.15 + w, y0 + dLat * 0.15], [x0 + dLon * 0.15 + w, y0 + dLat * 0.15 + h], [x0 + dLon * 0.15, y0 + dLat * 0.15 + h]].map(roundP);
    ring.push(ring[0]);
    basemap.push({ kind: 'park', name: `公园 ${k + 1}`, geometry: { type: 'Polygon', coordinates: [ring] } });
  }

  const rect = (x0: number, y0: number, x1: number, y1: number): AreaGeometry => ({
    type: 'Polygon',
    coordinates: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]].map(roundP)],
  });
  const midLat = (south + north) / 2;
  const projectAreas: DemoProjectArea[] = [
    { key: 'binjiangLeak', networkType: ['water'], area: rect(west - dLon / 2, south - dLat / 2, (west + east) / 2, north + dLat / 2) },
    { key: 'jiangnanCorridor', networkType: ['water', 'drainage'], area: rect(west - dLon / 2, midLat - dLat * 1.5, east + dLon / 2, midLat + dLat * 1.5) },
    { key: 'gasNorth', networkType: ['gas'], area: rect((west + east) / 2, midLat, east + dLon / 2, north + dLat / 2) },
  ];

  return { pipes, basemap, projectAreas, extent: [west, south, east, north].map(round) as DemoCity['extent'] };
}

const round = (v: number) => Math.round(v * 1e7) / 1e7;
const round2 = (v: number) => Math.round(v * 100) / 100;
const roundP = (p: number[]) => [round(p[0]), round(p[1])];
