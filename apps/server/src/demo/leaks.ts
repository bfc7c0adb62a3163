import { DEFAULT_POI_RADIUS_M, type AreaGeometry, type LineGeometry } from '@console/contract';
import type { Db } from '../db/client.ts';
import { acquisitions, deliveries, poiEvents, pois, type PoiFinding, type PoiPipes } from '../db/schema.ts';
import { bboxColumns, bboxIntersects, bboxOf, circlePolygon, lengthInside, midpointOf, pointInArea } from '../geo/geometry.ts';
import { seededRandom } from './random.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Random = ReturnType<typeof seededRandom>;

export interface SurveyPipe {
  pipeId: string;
  networkType: string;
  material: string;
  diameterMm: number;
  geometry: LineGeometry;
}

const DAY = 86_400_000;
const at = (iso: string, days = 0, hours = 9) => new Date(Date.parse(`${iso}T00:00:00+08:00`) + days * DAY + hours * 3_600_000);

/** Monthly SAOCOM scenes over the city for a year, the last ones still processing or planned. */
const SCENES = ['2025-12-10', '2026-01-09', '2026-02-08', '2026-03-10', '2026-04-09', '2026-05-09', '2026-06-08', '2026-07-08', '2026-08-07', '2026-09-06', '2026-10-06', '2026-11-05', '2026-12-05'];

/**
 * Quarterly POI deliveries from three of the scenes, the older ones worked through further: what
 * a utility's leak survey looks like in November 2026 (share investigated, found, repaired).
 */
const DELIVERIES = [
  { scene: 2, deliveredAt: '2026-03-02', name: '2026年第一季度兴趣点', count: 36, worked: 1.0 },
  { scene: 5, deliveredAt: '2026-06-01', name: '2026年第二季度兴趣点', count: 32, worked: 0.85 },
  { scene: 8, deliveredAt: '2026-08-31', name: '2026年第三季度兴趣点', count: 30, worked: 0.45 },
] as const;

function pipesInside(area: AreaGeometry, candidates: SurveyPipe[]): PoiPipes {
  const box = bboxOf(area);
  const result: PoiPipes = { lengthM: {}, count: 0, pipeIds: [] };
  for (const pipe of candidates) {
    if (!bboxIntersects(bboxOf(pipe.geometry), box)) continue;
    const inside = lengthInside(pipe.geometry, area);
    if (inside <= 0) continue;
    result.lengthM[pipe.networkType] = Math.round(((result.lengthM[pipe.networkType] ?? 0) + inside) * 10) / 10;
    result.count++;
    if (result.pipeIds.length < 50) result.pipeIds.push(pipe.pipeId);
  }
  return result;
}

function finding(random: Random, pipe: SurveyPipe): PoiFinding {
  const serviceSide = random.chance(0.45);
  return {
    leakType: serviceSide ? 'serviceLine' : random.weighted([['main', 30], ['joint', 30], ['valve', 15], ['meter', 10], ['hydrant', 10], ['other', 5]] as const),
    surfacing: random.chance(0.3),
    pipeMaterial: serviceSide ? 'PE' : pipe.material,
    pipeDiameterMm: serviceSide ? random.pick([25, 32, 50, 63]) : pipe.diameterMm,
    flowM3h: Math.round(random.between(0.3, 4.5) * 10) / 10,
    depthM: Math.round(random.between(0.8, 1.8) * 10) / 10,
    notes: random.pick(['听漏仪定位，开挖确认', '相关仪复核漏点位置', '夜间听音确认', '路面渗水，开挖确认']),
  };
}

/**
 * The demo's leak survey on the water utility's project: acquisitions, three deliveries of POIs
 * on its water pipes, and the field work done on them so far, with each step in the history.
 */
export async function seedLeakSurvey(tx: Tx, input: { enterpriseId: number; projectId: number; area: AreaGeometry; cityArea: AreaGeometry; pipes: SurveyPipe[]; crew: number[] }) {
  const random = seededRandom(20261122);
  const sceneIds: number[] = [];
  for (const [i, day] of SCENES.entries()) {
    const status = i === SCENES.length - 1 ? 'planned' : i === SCENES.length - 2 ? 'processing' : DELIVERIES.some((d) => d.scene === i) ? 'delivered' : 'acquired';
    const [row] = await tx
      .insert(acquisitions)
      .values({
        enterpriseId: input.enterpriseId,
        satellite: i % 2 ? 'SAOCOM-1B' : 'SAOCOM-1A',
        productId: `S${i % 2 ? '1B' : '1A'}_OPER_SAR_EOSSP__CORE_L1A_OLVF_${day.replace(/-/g, '')}T101533`,
        acquiredAt: at(day, 0, 18),
        orbitDirection: 'descending',
        mode: 'StripMap',
        polarisation: 'quad',
        footprint: input.cityArea,
        ...bboxColumns(bboxOf(input.cityArea)),
        status,
      })
      .returning({ id: acquisitions.id });
    sceneIds.push(row.id);
  }

  const water = input.pipes.filter((p) => p.networkType === 'water' && pointInArea(midpointOf(p.geometry), input.area));
  const used = new Set<string>();
  for (const [d, plan] of DELIVERIES.entries()) {
    const deliveredAt = at(plan.deliveredAt);
    const [delivery] = await tx
      .insert(deliveries)
      .values({ enterpriseId: input.enterpriseId, projectId: input.projectId, acquisitionId: sceneIds[plan.scene], name: plan.name, fileName: `POI_BJ_2026Q${d + 1}.zip`, poiCount: plan.count, deliveredAt })
      .returning({ id: deliveries.id });
    for (let n = 0; n < plan.count; n++) {
      if (used.size >= water.length) used.clear(); // a tiny test city has fewer pipes than POIs
      let pipe = random.pick(water);
      while (used.has(pipe.pipeId)) pipe = random.pick(water);
      used.add(pipe.pipeId);
      const center = midpointOf(pipe.geometry);
      const area = circlePolygon(center, DEFAULT_POI_RADIUS_M);
      const worked = n < Math.round(plan.count * plan.worked);
      const crew = input.crew[n % input.crew.length];
      const events: { action: 'imported' | 'assign' | 'start' | 'finding' | 'repair'; from: string | null; to: string; at: Date; userId: number | null; details?: Record<string, unknown> }[] = [
        { action: 'imported', from: null, to: 'new', at: deliveredAt, userId: null, details: { delivery: plan.name } },
      ];
      let status: 'new' | 'assigned' | 'investigating' | 'leakFound' | 'noLeak' | 'repaired' = 'new';
      let values: Partial<typeof pois.$inferInsert> = {};
      // Most POIs get assigned within a week; the worked ones are investigated in the weeks after.
      if (worked || random.chance(0.6)) {
        const assignedAt = new Date(deliveredAt.getTime() + random.int(1, 6) * DAY);
        status = 'assigned';
        values = { assigneeId: crew, dueDate: new Date(assignedAt.getTime() + 30 * DAY).toISOString().slice(0, 10) };
        events.push({ action: 'assign', from: 'new', to: 'assigned', at: assignedAt, userId: input.crew[0], details: { dueDate: values.dueDate } });
        if (worked) {
          const startedAt = new Date(assignedAt.getTime() + random.int(2, 20) * DAY);
          events.push({ action: 'start', from: 'assigned', to: 'investigating', at: startedAt, userId: crew });
          const leak = random.chance(0.5);
          const found = new Date(startedAt.getTime() + random.int(2, 6) * 3_600_000);
          const result = leak ? finding(random, pipe) : { notes: '听音未发现异常' };
          status = leak ? 'leakFound' : 'noLeak';
          values = { ...values, investigatedAt: startedAt, finding: result, foundAt: leak ? found : null };
          events.push({ action: 'finding', from: 'investigating', to: status, at: found, userId: crew, details: { result: status, ...result } });
          if (leak && random.chance(0.8)) {
            const repairedAt = new Date(found.getTime() + random.int(1, 9) * DAY);
            status = 'repaired';
            values = { ...values, repairedAt };
            events.push({ action: 'repair', from: 'leakFound', to: 'repaired', at: repairedAt, userId: crew });
          }
        } else if (random.chance(0.3)) {
          // A crew is on site: started, finding not recorded yet.
          const startedAt = new Date(assignedAt.getTime() + random.int(2, 20) * DAY);
          status = 'investigating';
          values = { ...values, investigatedAt: startedAt };
          events.push({ action: 'start', from: 'assigned', to: 'investigating', at: startedAt, userId: crew });
        }
      }
      const [poi] = await tx
        .insert(pois)
        .values({
          enterpriseId: input.enterpriseId,
          deliveryId: delivery.id,
          projectId: input.projectId,
          poiNo: `Q${d + 1}-${String(n + 1).padStart(3, '0')}`,
          geometry: area,
          centerLon: center[0],
          centerLat: center[1],
          radiusM: DEFAULT_POI_RADIUS_M,
          ...bboxColumns(bboxOf(area)),
          priority: random.weighted([['high', 25], ['medium', 50], ['low', 25]] as const),
          estimatedLeakM3h: Math.round(random.between(0.5, 3) * 10) / 10,
          pipes: pipesInside(area, input.pipes),
          status,
          ...values,
          createdAt: deliveredAt,
          updatedAt: events[events.length - 1].at,
        })
        .returning({ id: pois.id });
      await tx.insert(poiEvents).values(events.map((e) => ({ poiId: poi.id, userId: e.userId, action: e.action, fromStatus: e.from, toStatus: e.to, details: e.details ?? null, at: e.at })));
    }
  }
}
