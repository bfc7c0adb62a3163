import { and, eq, ne, sql } from 'drizzle-orm';
import type { AreaGeometry, WarningType } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { bboxBox, constructionSites, pipes, riskAreas, type WarningTouches } from '../../db/schema.ts';
import { bboxOf, pointInArea } from '../../geo/geometry.ts';
import { boxSql } from '../../geo/sql.ts';
import { pipeInsideArea } from '../pipelines/queries.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Water pipes laid shallower than this freeze first under a cold wave. */
export const SHALLOW_M = 1.0;

/**
 * What a warning touches inside its area: rain -> waterlogging points whose trigger the rain meets
 * (`rainOver(hours)`: the most rain of any window that long, measured or expected), and voids,
 * collapses and subsidence zones (rain washes the ground out), with the drainage network's length;
 * cold wave -> water pipes laid shallower than 1 m; gale and heat -> construction sites at work.
 */
export async function warningTouches(db: Db | Tx, enterpriseId: number, type: WarningType | 'other', area: AreaGeometry, rainOver: (hours: number) => number): Promise<WarningTouches> {
  const touches: WarningTouches = { pipes: [], riskAreas: [], sites: [] };
  const box = bboxOf(area);
  const inArea = (lon: number, lat: number) => pointInArea([lon, lat], area);
  const pipesWhere = async (condition: ReturnType<typeof sql>, why: WarningTouches['pipes'][number]['why']) => {
    const rows = await queryRows<{ network_type: string; count: number; length_m: number }>(
      db as Db,
      sql`select ${pipes.networkType} as network_type, count(*)::int as count, coalesce(sum(${pipes.lengthM}), 0)::float8 as length_m from ${pipes}
          where ${pipes.enterpriseId} = ${enterpriseId} and ${pipeInsideArea(area)} and ${condition} group by ${pipes.networkType}`,
    );
    for (const r of rows) touches.pipes.push({ networkType: r.network_type, count: Number(r.count), lengthM: Math.round(Number(r.length_m)), why });
  };
  if (type === 'rainstorm') {
    const candidates = await db
      .select()
      .from(riskAreas)
      .where(and(eq(riskAreas.enterpriseId, enterpriseId), ne(riskAreas.status, 'remediated'), sql`${bboxBox(riskAreas)} && ${boxSql(box)}`));
    for (const a of candidates) {
      if (!inArea((a.minx + a.maxx) / 2, (a.miny + a.maxy) / 2)) continue;
      if (a.kind === 'waterlogging') {
        if (a.triggerRainMm === null || a.triggerHours === null) continue;
        const rain = rainOver(a.triggerHours);
        if (rain >= a.triggerRainMm) touches.riskAreas.push({ id: a.id, name: a.name, kind: a.kind, why: 'triggerMet', rainMm: rain, hours: a.triggerHours, triggerMm: a.triggerRainMm });
      } else if (a.kind !== 'geoHazard') touches.riskAreas.push({ id: a.id, name: a.name, kind: a.kind, why: 'washOut' });
    }
    await pipesWhere(sql`${pipes.networkType} = 'drainage'`, 'drainageUnderRain');
  }
  if (type === 'coldWave') await pipesWhere(sql`${pipes.networkType} = 'water' and ${pipes.depthM} < ${SHALLOW_M}`, 'shallowWater');
  if (type === 'gale' || type === 'heat') {
    const sites = await db
      .select({ id: constructionSites.id, siteNo: constructionSites.siteNo, name: constructionSites.name, lon: constructionSites.centerLon, lat: constructionSites.centerLat })
      .from(constructionSites)
      .where(and(eq(constructionSites.enterpriseId, enterpriseId), eq(constructionSites.buildState, 'inProgress'), ne(constructionSites.status, 'closed'), sql`${bboxBox(constructionSites)} && ${boxSql(box)}`));
    touches.sites = sites.filter((s) => inArea(s.lon, s.lat)).map(({ id, siteNo, name }) => ({ id, siteNo, name }));
  }
  return touches;
}
