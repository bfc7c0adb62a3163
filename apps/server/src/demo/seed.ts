import { sql } from 'drizzle-orm';
import { creditCodeCheckChar } from '@console/contract';
import type { Db } from '../db/client.ts';
import { basemapFeatures, enterprises, mapSettings, memberships, pipes, projects, users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/crypto.ts';
import { bboxColumns, bboxOf, lengthM } from '../geo/geometry.ts';
import { encodeTileLine } from '../geo/tileLine.ts';
import { generateCity, type DemoProjectArea } from './city.ts';
import { seedLeakSurvey } from './leaks.ts';
import { seedDemoSettlement } from './settlement.ts';
import { seedDemoConstruction } from './construction.ts';
import { seedDemoRiskAreas } from './riskAreas.ts';
import { seedDemoOfficialWarnings, seedDemoWeather } from './weather.ts';
import { seedDemoSensors } from './sensors.ts';
import { PipeRiskJobs } from '../modules/pipeRisk/jobs.ts';
import { seedDemoAlerts } from './alerts.ts';
import { seedDemoSensitiveSites } from './sensitiveSites.ts';
import { analyseDataset } from '../modules/settlement/analysis.ts';
import { getDataset } from '../modules/settlement/service.ts';

/** Every demo account signs in with this password. */
export const DEMO_PASSWORD = 'Demo123456';

/** A valid unified social credit code from a 17-character body. */
const creditCode = (body: string) => body + creditCodeCheckChar(body);

export const DEMO_ENTERPRISES = {
  water: { name: '杭州滨江水务有限公司', creditCode: creditCode('91330108MA2B00001'), status: 'verified' },
  gas: { name: '杭州滨江燃气有限公司', creditCode: creditCode('91330108MA2B00002'), status: 'verified' },
  drainage: { name: '杭州钱塘排水有限公司', creditCode: creditCode('91330114MA2B00003'), status: 'pending' },
} as const;

/** Demo accounts: who they are and where they belong. */
export const DEMO_USERS = [
  { username: 'admin', realname: '王建国', phone: '13800000001', note: 'admin of the water utility', roles: { water: 'admin' } },
  { username: 'member', realname: '李娜', phone: '13800000002', note: 'member of the water utility', roles: { water: 'member' } },
  { username: 'viewer', realname: '张伟', phone: '13800000003', note: 'viewer of the water utility', roles: { water: 'viewer' } },
  {
    username: 'both',
    realname: '陈静',
    phone: '13800000004',
    note: 'member of the water utility and admin of the gas utility',
    roles: { water: 'member', gas: 'admin' },
  },
  { username: 'newcomer', realname: '刘洋', phone: '13800000005', note: 'registrant of the unverified drainage company', roles: { drainage: 'admin' } },
  { username: 'platform', realname: '平台管理员', phone: '13800000006', note: 'platform administrator', roles: {}, isPlatformAdmin: true },
] as const;

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  return Number(row.count) === 0;
}

/** The demo's projects: which enterprise runs them and how they read. */
const DEMO_PROJECTS: Record<DemoProjectArea['key'], { enterprise: 'water' | 'gas'; name: string; code: string; district: string; status: 'planned' | 'active' | 'closed'; startDate: string; endDate: string; description: string }> = {
  binjiangLeak: {
    enterprise: 'water',
    name: '滨江区供水管网卫星漏损监测',
    code: 'BJ-LEAK-2026',
    district: '滨江区',
    status: 'active',
    startDate: '2026-01-01',
    endDate: '2026-12-31',
    description: 'L 波段卫星漏损探测，季度交付兴趣点，现场听漏核实。',
  },
  jiangnanCorridor: {
    enterprise: 'water',
    name: '江南大道管廊沉降监测',
    code: 'JN-INSAR-2026',
    district: '滨江区',
    status: 'active',
    startDate: '2026-03-01',
    endDate: '2027-02-28',
    description: 'InSAR 地面沉降监测，关注主干道沿线供水与排水管道。',
  },
  gasNorth: {
    enterprise: 'gas',
    name: '滨江北片燃气管网风险监测',
    code: 'GAS-N-2026',
    district: '滨江区',
    status: 'planned',
    startDate: '2026-07-01',
    endDate: '2027-06-30',
    description: '施工第三方破坏与地面沉降综合风险监测。',
  },
};

/** The built-in vector basemap as an XYZ template ({grid} is filled with the map's srid). */
export const DEMO_BASEMAP_URL = '/api/tiles/basemap/{grid}/{z}/{x}/{y}.pbf';

/** Demo pipes go in batches: one statement per batch keeps the seed fast on both databases. */
const PIPE_BATCH = 1000;

export interface SeedOptions {
  /** How many pipe segments the demo city has (main: 20,000; tests use fewer). */
  cityPipes?: number;
  /** InSAR points of the demo settlement dataset (default five per segment; 0: none). */
  settlementPoints?: number;
  /** Assess every segment's composite risk (default true; benchmarks time it themselves). */
  assessRisk?: boolean;
}

/**
 * Seeds the deterministic demo in one transaction (all of it or nothing), then the settlement
 * dataset, which is written by COPY the way an import writes it (outside that transaction), and
 * its first analysis.
 */
export async function seedDemo(db: Db, options: SeedOptions = {}): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const city = generateCity({ pipes: options.cityPipes ?? 20_000 });
  const seeded = await db.transaction(async (tx) => {
    const enterpriseIds: Record<string, number> = {};
    const userIds: Record<string, number> = {};
    for (const [key, e] of Object.entries(DEMO_ENTERPRISES)) {
      const [row] = await tx
        .insert(enterprises)
        .values({
          name: e.name,
          creditCode: e.creditCode,
          contact: '王建国',
          contactPhone: '13800000001',
          address: '浙江省杭州市滨江区江南大道 1 号',
          status: e.status,
          decidedAt: e.status === 'verified' ? new Date() : null,
        })
        .returning({ id: enterprises.id });
      enterpriseIds[key] = row.id;
    }
    for (const u of DEMO_USERS) {
      const [user] = await tx
        .insert(users)
        .values({
          username: u.username,
          realname: u.realname,
          phone: u.phone,
          passwordHash,
          isPlatformAdmin: 'isPlatformAdmin' in u ? u.isPlatformAdmin : false,
        })
        .returning({ id: users.id });
      userIds[u.username] = user.id;
      for (const [key, role] of Object.entries(u.roles)) {
        await tx.insert(memberships).values({ enterpriseId: enterpriseIds[key], userId: user.id, role, status: 'active' });
      }
      if (u.username === 'newcomer') {
        await tx.update(enterprises).set({ createdBy: user.id }).where(sql`${enterprises.id} = ${enterpriseIds.drainage}`);
      }
    }

    // Water and drainage pipes belong to the water utility, gas pipes to the gas utility.
    const rows = city.pipes.map((p) => {
      const enterprise = p.networkType === 'gas' ? 'gas' : 'water';
      return {
        ...p,
        enterpriseId: enterpriseIds[enterprise],
        owner: DEMO_ENTERPRISES[enterprise].name,
        lengthM: Math.round(lengthM(p.geometry) * 100) / 100,
        tileLine: encodeTileLine(p.geometry),
        ...bboxColumns(bboxOf(p.geometry)),
      };
    });
    for (let i = 0; i < rows.length; i += PIPE_BATCH) await tx.insert(pipes).values(rows.slice(i, i + PIPE_BATCH));

    for (const f of city.basemap) {
      await tx.insert(basemapFeatures).values({ kind: f.kind, name: f.name, geometry: f.geometry, ...bboxColumns(bboxOf(f.geometry)) });
    }
    // The demo enterprises draw on the built-in basemap, which needs no internet.
    for (const key of ['water', 'gas'] as const) {
      await tx.insert(mapSettings).values({
        enterpriseId: enterpriseIds[key],
        serviceType: 'XYZ',
        serviceUrl: DEMO_BASEMAP_URL,
        srid: 3857,
        zoomLevel: 13,
        extent: city.extent,
        layerName: 'basemap',
      });
    }

    const projectIds: Partial<Record<DemoProjectArea['key'], number>> = {};
    for (const area of city.projectAreas) {
      const p = DEMO_PROJECTS[area.key];
      const [project] = await tx.insert(projects).values({
        enterpriseId: enterpriseIds[p.enterprise],
        name: p.name,
        code: p.code,
        city: '杭州市',
        district: p.district,
        area: area.area,
        ...bboxColumns(bboxOf(area.area)),
        networkTypes: area.networkType,
        startDate: p.startDate,
        endDate: p.endDate,
        status: p.status,
        description: p.description,
      }).returning({ id: projects.id });
      projectIds[area.key] = project.id;
    }

    // A year of satellite leak survey on the water utility's leak project.
    const leakArea = city.projectAreas.find((a) => a.key === 'binjiangLeak')!;
    const [w, s, e, n] = city.extent;
    await seedLeakSurvey(tx, {
      enterpriseId: enterpriseIds.water,
      projectId: projectIds.binjiangLeak!,
      area: leakArea.area,
      cityArea: { type: 'Polygon', coordinates: [[[w - 0.05, s - 0.05], [e + 0.05, s - 0.05], [e + 0.05, n + 0.05], [w - 0.05, n + 0.05], [w - 0.05, s - 0.05]]] },
      pipes: rows.filter((r) => r.enterpriseId === enterpriseIds.water),
      crew: [userIds.member, userIds.both],
    });
    return { enterpriseIds, projectIds, userIds };
  });
  // Construction sites and risk-prone areas, measured against the pipes just written.
  await seedDemoConstruction(db, { pipes: city.pipes, gas: { enterpriseId: seeded.enterpriseIds.gas, userId: seeded.userIds.both }, water: { enterpriseId: seeded.enterpriseIds.water, userId: seeded.userIds.member } });
  await seedDemoRiskAreas(db, { pipes: city.pipes, enterpriseId: seeded.enterpriseIds.water, userId: seeded.userIds.member, extent: city.extent });
  // A year of weather at the city's station, after the areas its warnings touch.
  const cityCentre = { enterpriseId: seeded.enterpriseIds.water, lon: (city.extent[0] + city.extent[2]) / 2, lat: (city.extent[1] + city.extent[3]) / 2 };
  // Dated from when the demo is made, the observations and the official warnings from the same hour.
  const madeAt = Date.now();
  await seedDemoWeather(db, cityCentre, madeAt);
  await seedDemoOfficialWarnings(db, cityCentre, madeAt);
  // Schools, hospitals and stations the consequence of a nearby failure is scored by.
  await seedDemoSensitiveSites(db, city.extent, [seeded.enterpriseIds.water, seeded.enterpriseIds.gas]);
  // Gas detectors in the wells, pressure and flow meters on the mains, level sensors and smart covers in the drains.
  await seedDemoSensors(db, { pipes: city.pipes, enterpriseIds: { water: seeded.enterpriseIds.water, gas: seeded.enterpriseIds.gas }, madeAt });
  // Every segment's composite risk: the water network first as it stood a month ago (before the
  // settlement analysis), so the rises the analysis brings show in its history.
  const risk = new PipeRiskJobs(db);
  const assess = options.assessRisk ?? true;
  if (assess) await risk.runNow(seeded.enterpriseIds.water, 'demo', new Date(Date.now() - 30 * 86_400_000));
  // Five InSAR points per pipe segment: 100,000 over the 20,000-segment city.
  const points = options.settlementPoints ?? city.pipes.length * 5;
  if (points) {
    const datasetId = await seedDemoSettlement(db, city, { enterpriseId: seeded.enterpriseIds.water, projectId: seeded.projectIds.jiangnanCorridor ?? null, points });
    await analyseDataset(db, await getDataset(db, seeded.enterpriseIds.water, datasetId), new AbortController().signal);
  }
  if (!assess) return;
  await risk.runNow(seeded.enterpriseIds.water, 'demo');
  await risk.runNow(seeded.enterpriseIds.gas, 'demo');
  // The rules run over all of it, and some alerts are worked.
  await seedDemoAlerts(db, { enterpriseId: seeded.enterpriseIds.water, adminId: seeded.userIds.admin, crewId: seeded.userIds.member });
  await seedDemoAlerts(db, { enterpriseId: seeded.enterpriseIds.gas, adminId: seeded.userIds.both, crewId: seeded.userIds.both });
}

/** How to sign in, printed by the start command. */
export function demoSignInText(url: string): string {
  const lines = DEMO_USERS.map((u) => `    ${u.username.padEnd(10)} ${u.note}`);
  return [
    `Console: ${url}`,
    `Sign in with one of the demo accounts, password ${DEMO_PASSWORD}:`,
    ...lines,
    `API docs: ${url}/api/docs`,
  ].join('\n');
}
