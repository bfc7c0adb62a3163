import type { SensitiveKind } from '@console/contract';
import type { Db } from '../db/client.ts';
import { sensitiveSites } from '../db/schema.ts';

/** The demo city's sensitive sites, placed by their share of the city's extent. */
const SITES: { name: string; kind: SensitiveKind; x: number; y: number }[] = [
  { name: '滨江区实验小学', kind: 'school', x: 0.22, y: 0.31 },
  { name: '江南中学', kind: 'school', x: 0.58, y: 0.64 },
  { name: '阳光幼儿园', kind: 'kindergarten', x: 0.41, y: 0.52 },
  { name: '滨江区人民医院', kind: 'hospital', x: 0.47, y: 0.38 },
  { name: '社区卫生服务中心', kind: 'hospital', x: 0.76, y: 0.27 },
  { name: '江陵路地铁站', kind: 'station', x: 0.5, y: 0.5 },
  { name: '滨和路公交枢纽', kind: 'station', x: 0.69, y: 0.72 },
  { name: '星光大道商场', kind: 'market', x: 0.33, y: 0.74 },
  { name: '区政府', kind: 'government', x: 0.61, y: 0.45 },
  // The old core is dense with them.
  { name: '西兴老街小学', kind: 'school', x: 0.18, y: 0.55 },
  { name: '长河中医院', kind: 'hospital', x: 0.3, y: 0.62 },
  { name: '西兴地铁站', kind: 'station', x: 0.26, y: 0.45 },
  { name: '长河菜市场', kind: 'market', x: 0.36, y: 0.36 },
  { name: '江南敬老院', kind: 'other', x: 0.44, y: 0.66 },
];

export async function seedDemoSensitiveSites(db: Db, extent: readonly number[], enterpriseIds: number[]) {
  const [minx, miny, maxx, maxy] = extent;
  for (const enterpriseId of enterpriseIds) {
    await db.insert(sensitiveSites).values(
      SITES.map(({ name, kind, x, y }) => {
        const lon = minx + (maxx - minx) * x;
        const lat = miny + (maxy - miny) * y;
        return { enterpriseId, name, kind, lon, lat, minx: lon, miny: lat, maxx: lon, maxy: lat };
      }),
    );
  }
}
