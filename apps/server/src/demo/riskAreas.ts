import type { Db } from '../db/client.ts';
import { metresPerDegree } from '../geo/local.ts';
import { createArea, stepArea } from '../modules/riskAreas/service.ts';
import type { DemoPipe } from './city.ts';

const firstPoint = (p: DemoPipe) => (p.geometry.type === 'LineString' ? p.geometry.coordinates[0] : p.geometry.coordinates[0][0]);
const middle = (p: DemoPipe) => {
  const line = p.geometry.type === 'LineString' ? p.geometry.coordinates : p.geometry.coordinates[0];
  return [(line[0][0] + line[line.length - 1][0]) / 2, (line[0][1] + line[line.length - 1][1]) / 2];
};
const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

/**
 * The water utility's risk-prone areas in the demo city: waterlogging points at low street
 * corners with their rain triggers, two voids found by radar over a drainage main, a past collapse
 * and a geological hazard zone, some already remediated; recorded through the console's service,
 * so each knows its pipes.
 */
export async function seedDemoRiskAreas(db: Db, input: { pipes: DemoPipe[]; enterpriseId: number; userId: number; extent: [number, number, number, number] }) {
  const { enterpriseId, userId } = input;
  const water = input.pipes.filter((p) => p.networkType === 'water');
  const drains = input.pipes.filter((p) => p.networkType === 'drainage' && p.diameterMm >= 1000);
  const at = (list: DemoPipe[], share: number) => list[Math.floor(list.length * share)];
  const waterlogging = [
    { name: '江南大道与滨盛路口积水点', share: 0.12, rain: 50, hours: 1, level: 'II' as const, unit: '滨江区排水管理所' },
    { name: '长河路下穿通道积水点', share: 0.37, rain: 30, hours: 1, level: 'I' as const, unit: '滨江区城管局' },
    { name: '信诚路低洼路段积水点', share: 0.58, rain: 60, hours: 3, level: 'III' as const, unit: '滨江区排水管理所' },
    { name: '西兴路菜场门口积水点', share: 0.81, rain: 80, hours: 6, level: 'IV' as const, unit: '西兴街道' },
  ];
  const ids: number[] = [];
  for (const w of waterlogging) {
    const p = firstPoint(at(water, w.share));
    const area = await createArea(db, enterpriseId, userId, {
      name: w.name, kind: 'waterlogging', level: w.level, point: [round7(p[0]), round7(p[1])], bufferM: 50, triggerRainMm: w.rain, triggerHours: w.hours,
      cause: '地势低洼，雨水口排水能力不足', source: 'survey', responsibleUnit: w.unit, responsiblePerson: '周敏', responsiblePhone: '13905710010',
    });
    ids.push(area.id);
  }
  // Two voids found by ground-penetrating radar right over a drainage main (a leaking sewer washes out the ground).
  for (const [i, share] of [0.2, 0.65].entries()) {
    const [x, y] = middle(at(drains, share));
    const [mx] = metresPerDegree(y);
    await createArea(db, enterpriseId, userId, {
      name: `地下空洞 K-${i + 1}`, kind: 'void', level: i === 0 ? 'I' : 'II', point: [round7(x + 1.5 / mx), round7(y)], bufferM: 30,
      voidAreaM2: i === 0 ? 8.4 : 3.2, burialDepthM: i === 0 ? 0.9 : 1.6, clearHeightM: i === 0 ? 0.7 : 0.4,
      cause: '排水管渗漏冲刷路基', source: 'survey', responsibleUnit: '滨江区排水管理所', notes: '探地雷达普查发现',
    });
  }
  const [cx, cy] = middle(at(water, 0.45));
  await createArea(db, enterpriseId, userId, { name: '浦沿路 2024 年路面塌陷', kind: 'collapse', level: 'II', point: [round7(cx), round7(cy)], bufferM: 50, cause: '供水管爆管冲刷', source: 'report' });
  // A 500 m cell of collapse-prone ground at the city's south-west.
  const [w, s] = input.extent;
  const [mx, my] = metresPerDegree(s);
  const cell = (dx: number, dy: number) => [round7(w + dx / mx), round7(s + dy / my)];
  await createArea(db, enterpriseId, userId, {
    name: '钱塘江冲积软土区', kind: 'geoHazard', level: 'II', geometry: { type: 'Polygon', coordinates: [[cell(200, 200), cell(700, 200), cell(700, 700), cell(200, 700), cell(200, 200)]] },
    bufferM: 0, cause: '软土层厚，地面沉降易发', source: 'survey', responsibleUnit: '杭州市规划和自然资源局滨江分局',
  });
  // Work done: one waterlogging point remediated, one under remediation.
  await stepArea(db, enterpriseId, userId, ids[3], 'start', { notes: '增设雨水口两处' });
  await stepArea(db, enterpriseId, userId, ids[3], 'finish', { notes: '2026 年汛期未再积水' });
  await stepArea(db, enterpriseId, userId, ids[0], 'start', { notes: '管网提标改造施工中' });
}
