import type { AreaGeometry, BuildType, SiteInput } from '@console/contract';
import type { Db } from '../db/client.ts';
import { metresPerDegree } from '../geo/local.ts';
import { briefSite, closeSite, createSite, guardSite, judgeSite, addWatchLog } from '../modules/construction/service.ts';
import type { DemoPipe } from './city.ts';
import { seededRandom } from './random.ts';

/** Where a demo site stands: beside a pipe of this network, this far from it (metres, edge to pipe), this big. */
interface DemoSite {
  name: string;
  buildType: BuildType;
  network: 'gas' | 'water' | 'drainage';
  /** Mains (the wider pipes) for the big works. */
  main: boolean;
  offsetM: number;
  widthM: number;
  lengthM: number;
  source: SiteInput['source'];
  changeType?: string;
  detectedAt?: string;
  unit?: [string, string, string];
  /** The case steps taken, in order. */
  steps: ('threat' | 'noThreat' | 'brief' | 'guard' | 'watch' | 'close')[];
}

const GAS_SITES: DemoSite[] = [
  { name: '江南大道人行道改造（燃气中压管上方）', buildType: 'municipalRoad', network: 'gas', main: true, offsetM: 0.3, widthM: 6, lengthM: 40, source: 'patrol', unit: ['杭州市政建设集团', '周海', '13905710001'], steps: ['threat', 'brief', 'guard', 'watch', 'watch'] },
  { name: '滨盛路电力排管顶管工作井', buildType: 'other', network: 'gas', main: true, offsetM: 1.2, widthM: 8, lengthM: 8, source: 'satellite', changeType: '开挖', detectedAt: '2026-10-18', steps: ['threat', 'brief'] },
  { name: '地铁7号线江陵路站基坑', buildType: 'metro', network: 'gas', main: true, offsetM: 3.5, widthM: 24, lengthM: 120, source: 'report', unit: ['中铁十一局集团', '刘强', '13905710002'], steps: ['threat', 'brief', 'guard', 'watch'] },
  { name: '长河路雨水管改造', buildType: 'stormSewer', network: 'gas', main: false, offsetM: 6, widthM: 4, lengthM: 60, source: 'patrol', steps: ['threat'] },
  { name: '信诚路商业综合体桩基', buildType: 'building', network: 'gas', main: false, offsetM: 12, widthM: 60, lengthM: 80, source: 'satellite', changeType: '桩基施工', detectedAt: '2026-11-02', steps: [] },
  { name: '西兴路绿化提升', buildType: 'other', network: 'gas', main: false, offsetM: 22, widthM: 15, lengthM: 30, source: 'satellite', changeType: '地表变化', detectedAt: '2026-09-21', steps: ['noThreat', 'close'] },
  { name: '浦沿路道路大修', buildType: 'road', network: 'gas', main: true, offsetM: 2.5, widthM: 10, lengthM: 90, source: 'manual', unit: ['杭州路桥集团', '沈涛', '13905710003'], steps: ['threat', 'brief', 'guard', 'watch', 'close'] },
  { name: '聚才路通信管道施工', buildType: 'other', network: 'gas', main: false, offsetM: 65, widthM: 3, lengthM: 50, source: 'report', steps: [] },
];

const WATER_SITES: DemoSite[] = [
  { name: '江南大道供水主管旁地铁出入口', buildType: 'metro', network: 'water', main: true, offsetM: 1.5, widthM: 12, lengthM: 30, source: 'report', unit: ['中铁十一局集团', '刘强', '13905710002'], steps: ['threat', 'brief', 'guard', 'watch'] },
  { name: '滨文路污水管开挖', buildType: 'stormSewer', network: 'drainage', main: false, offsetM: 4, widthM: 5, lengthM: 70, source: 'patrol', steps: ['threat', 'brief'] },
  { name: '伟业路办公楼基坑', buildType: 'building', network: 'water', main: false, offsetM: 8, widthM: 40, lengthM: 50, source: 'satellite', changeType: '基坑开挖', detectedAt: '2026-11-10', steps: [] },
  { name: '南环路路面翻修', buildType: 'road', network: 'water', main: true, offsetM: 14, widthM: 10, lengthM: 100, source: 'satellite', changeType: '路面变化', detectedAt: '2026-08-12', steps: ['noThreat'] },
  { name: '江晖路市政道路拓宽', buildType: 'municipalRoad', network: 'water', main: false, offsetM: 5.5, widthM: 8, lengthM: 80, source: 'manual', steps: ['threat', 'brief', 'guard', 'watch', 'close'] },
  { name: '滨江公园景观工程', buildType: 'other', network: 'water', main: false, offsetM: 80, widthM: 30, lengthM: 30, source: 'satellite', changeType: '地表变化', detectedAt: '2026-10-05', steps: [] },
];

/** A rectangle beside a straight pipe: its near long edge `offsetM` from the pipe, centred on the pipe's middle. */
function besidePipe(pipe: DemoPipe, site: DemoSite): AreaGeometry {
  const line = pipe.geometry.type === 'LineString' ? pipe.geometry.coordinates : pipe.geometry.coordinates[0];
  const [a, b] = [line[0], line[line.length - 1]];
  const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const [mx, my] = metresPerDegree(mid[1]);
  const dx = (b[0] - a[0]) * mx, dy = (b[1] - a[1]) * my;
  const length = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / length, dy / length];
  const [nx, ny] = [-uy, ux];
  const corner = (along: number, across: number) => [
    Math.round((mid[0] + (ux * along + nx * across) / mx) * 1e7) / 1e7,
    Math.round((mid[1] + (uy * along + ny * across) / my) * 1e7) / 1e7,
  ];
  const near = site.offsetM, far = site.offsetM + site.widthM, half = site.lengthM / 2;
  const ring = [corner(-half, near), corner(half, near), corner(half, far), corner(-half, far), corner(-half, near)];
  return { type: 'Polygon', coordinates: [ring] };
}

const DAY = 86_400_000;

/**
 * Construction sites along the demo city's streets for the gas and the water utility, some inside
 * gas protection ranges and some far off, their cases at every state, recorded and worked through
 * the same service the console uses (so each is measured and has its history).
 */
export async function seedDemoConstruction(db: Db, input: { pipes: DemoPipe[]; gas: { enterpriseId: number; userId: number }; water: { enterpriseId: number; userId: number } }) {
  const random = seededRandom(20261123);
  const used = new Set<string>();
  for (const [owner, plans] of [['gas', GAS_SITES], ['water', WATER_SITES]] as const) {
    const { enterpriseId, userId } = input[owner];
    for (const [i, plan] of plans.entries()) {
      const candidates = input.pipes.filter((p) => p.networkType === plan.network && (plan.main ? p.diameterMm >= (plan.network === 'gas' ? 200 : 400) : true) && !used.has(p.pipeId));
      // Spread over the city: each site takes a pipe from its own stretch of the list.
      const slice = Math.floor(candidates.length / plans.length);
      const pipe = candidates[i * slice + random.int(0, Math.max(0, slice - 1))];
      if (!pipe) continue;
      used.add(pipe.pipeId);
      const site = await createSite(db, enterpriseId, userId, {
        siteNo: `${owner === 'gas' ? 'GS' : 'WS'}-2026-${String(i + 1).padStart(3, '0')}`,
        name: plan.name,
        buildType: plan.buildType,
        geometry: besidePipe(pipe, plan),
        source: plan.source,
        detectedAt: plan.detectedAt,
        changeType: plan.changeType,
        buildState: plan.steps.includes('close') ? 'completed' : plan.steps.length ? 'inProgress' : 'notStarted',
        address: `杭州市滨江区${plan.name.slice(0, 3)}`,
        district: '滨江区',
        plannedStart: '2026-09-01',
        plannedEnd: '2027-03-31',
        constructionUnit: plan.unit?.[0],
        constructionContact: plan.unit?.[1],
        constructionPhone: plan.unit?.[2],
        supervisingUnit: plan.unit ? '浙江江南工程管理股份有限公司' : undefined,
      });
      let at = Date.parse('2026-11-01T09:00:00+08:00') + i * DAY;
      for (const step of plan.steps) {
        at += DAY;
        if (step === 'threat' || step === 'noThreat') await judgeSite(db, enterpriseId, userId, site.id, { result: step, notes: step === 'threat' ? '机械开挖临近管线，需交底和看护' : '施工范围未涉及管线' });
        if (step === 'brief') await briefSite(db, enterpriseId, userId, site.id, { briefedBy: '陈静', briefedAt: new Date(at).toISOString(), notes: '已现场标识管位，签订保护协议' });
        if (step === 'guard') await guardSite(db, enterpriseId, userId, site.id, { guard: '赵师傅' });
        if (step === 'watch') await addWatchLog(db, enterpriseId, userId, site.id, { at: new Date(at).toISOString(), person: '赵师傅', remark: random.pick(['人工开挖探沟，管位明确，无异常', '大型机械已撤离管线上方', '围挡完好，警示标识清晰']) });
        if (step === 'close') await closeSite(db, enterpriseId, userId, site.id, { notes: '临近管线段施工完毕，回填完成' });
      }
    }
  }
}
