import { and, asc, eq, gt, sql } from 'drizzle-orm';
import {
  GAS_RANGES_M,
  readGasPressure,
  SITE_SEARCH_M,
  type BBox,
  type BuildType,
  type Criticality,
  type CriticalitySettings,
  type MeasuredPipe,
  type NetworkType,
  type SiteMeasure,
} from '@console/contract';
import type { Db, Tx } from '../../db/client.ts';
import { bboxBox, constructionSites, type StoredGeometry } from '../../db/schema.ts';
import { nearAny } from '../../geo/sql.ts';
import type { Place } from '../../geo/proximity.ts';
import { pipesNear } from '../pipelines/nearby.ts';
import { replacePipeSets } from '../pipelines/pipeSets.ts';
import { getCriticalitySettings } from './settings.ts';

/** Sites measured per batch when the whole enterprise is measured again. */
const REMEASURE_BATCH = 1000;

/** A gas pipe's pressure class from the utility's wording (contract vocabulary). */
export const gasPressureOf = readGasPressure;

/** The level a site gets from its nearest pipe's distance band and its build type; inside a gas protection range it is always high. */
export function criticalityOf(nearestM: number | null, buildType: BuildType, settings: CriticalitySettings, insideGasProtection: boolean): Criticality {
  if (insideGasProtection) return 'high';
  if (nearestM === null) return 'none';
  const band = settings.bandsM.findIndex((edge) => nearestM <= edge);
  return band < 0 ? 'none' : settings.matrix[buildType][band];
}

/** The tightest gas range a site enters: a protection range before any control range, the nearest pipe first. */
function gasRangeOf(near: MeasuredPipe[]): SiteMeasure['gas'] {
  let control: SiteMeasure['gas'] = null;
  for (const pipe of near) {
    if (pipe.networkType !== 'gas') continue;
    const pressure = gasPressureOf(pipe.pressureClass);
    const ranges = GAS_RANGES_M[pressure];
    if (pipe.distanceM <= ranges.protection) return { zone: 'protection', pressure, rangeM: ranges.protection, pipe };
    if (!control && pipe.distanceM <= ranges.control) control = { zone: 'control', pressure, rangeM: ranges.control, pipe };
  }
  return control;
}

export interface SiteFigures {
  measure: SiteMeasure;
  /** Every pipe inside the corridor, nearest first: kept as the site's pipe set (site_pipes). */
  corridor: MeasuredPipe[];
  nearestM: number | null;
  criticality: Criticality;
  insideGasProtection: boolean;
  corridorNetworks: NetworkType[];
}

/** A site's figures from the pipes near it (nearest first). */
export function siteFigures(near: MeasuredPipe[], buildType: BuildType, settings: CriticalitySettings): SiteFigures {
  const nearest: SiteMeasure['nearest'] = {};
  for (const pipe of near) nearest[pipe.networkType] ??= pipe;
  const inCorridor = near.filter((p) => p.distanceM <= settings.corridorM);
  const corridorCount: SiteMeasure['corridorCount'] = {};
  for (const pipe of inCorridor) corridorCount[pipe.networkType] = (corridorCount[pipe.networkType] ?? 0) + 1;
  const gas = gasRangeOf(near);
  const nearestM = near.length ? near[0].distanceM : null;
  const insideGasProtection = gas?.zone === 'protection';
  return {
    measure: { nearest, corridorM: settings.corridorM, corridorCount, gas, measuredAt: new Date().toISOString() },
    corridor: inCorridor,
    nearestM,
    criticality: criticalityOf(nearestM, buildType, settings, insideGasProtection),
    insideGasProtection,
    corridorNetworks: Object.keys(corridorCount) as NetworkType[],
  };
}

/** Measures places of one enterprise against its pipes (one query per 200 places). */
export async function measureSites(db: Db, enterpriseId: number, sites: { geometry: Place; buildType: BuildType }[], settings?: CriticalitySettings): Promise<SiteFigures[]> {
  const rules = settings ?? (await getCriticalitySettings(db, enterpriseId));
  const near = await pipesNear(db, enterpriseId, sites.map((s) => s.geometry), SITE_SEARCH_M);
  return sites.map((site, i) => siteFigures(near[i], site.buildType, rules));
}

/** Keeps each measured site's whole corridor as its pipe set. */
export const writeSitePipes = (db: Db | Tx, enterpriseId: number, sites: { id: number; figures: SiteFigures }[]) =>
  replacePipeSets(db, 'site', enterpriseId, sites.map((s) => ({ ownerId: s.id, pipes: s.figures.corridor })));

/** The columns a measurement writes. */
export const figureColumns = (f: SiteFigures) => ({
  measure: f.measure,
  nearestM: f.nearestM,
  criticality: f.criticality,
  insideGasProtection: f.insideGasProtection,
  corridorNetworks: f.corridorNetworks,
});

/**
 * Measures the sites of the enterprise again (all of them after a pipe import or a change of the
 * criticality rules; those near `near` boxes after a pipe is edited), a batch at a time: each
 * batch is read, measured and written in one transaction (its figures and its sites' pipe sets).
 */
export async function remeasureSites(db: Db, enterpriseId: number, near?: BBox[], onShare?: (share: number) => Promise<void>): Promise<number> {
  const settings = await getCriticalitySettings(db, enterpriseId);
  const total = onShare ? await db.$count(constructionSites, eq(constructionSites.enterpriseId, enterpriseId)) : 0;
  let after = 0;
  let count = 0;
  for (;;) {
    const batch = await db
      .select({ id: constructionSites.id, geometry: constructionSites.geometry, buildType: constructionSites.buildType })
      .from(constructionSites)
      .where(and(eq(constructionSites.enterpriseId, enterpriseId), gt(constructionSites.id, after), nearAny(bboxBox(constructionSites), near, SITE_SEARCH_M)))
      .orderBy(asc(constructionSites.id))
      .limit(REMEASURE_BATCH);
    if (!batch.length) return count;
    const figures = await measureSites(db, enterpriseId, batch.map((s) => ({ geometry: s.geometry as Exclude<StoredGeometry, { type: 'LineString' | 'MultiLineString' }>, buildType: s.buildType })), settings);
    const values = sql.join(
      batch.map((s, i) => {
        const f = figures[i];
        return sql`(${s.id}::int, ${JSON.stringify(f.measure)}::jsonb, ${f.nearestM}::float8, ${f.criticality}::text, ${f.insideGasProtection}::boolean, ${`{${f.corridorNetworks.join(',')}}`}::text[])`;
      }),
      sql`, `,
    );
    await db.transaction(async (tx) => {
      await writeSitePipes(tx, enterpriseId, batch.map((s, i) => ({ id: s.id, figures: figures[i] })));
      await tx.execute(sql`update ${constructionSites} set measure = v.measure, nearest_m = v.nearest_m, criticality = v.criticality, inside_gas_protection = v.inside, corridor_networks = v.networks
        from (values ${values}) as v(id, measure, nearest_m, criticality, inside, networks)
        where ${constructionSites.id} = v.id and ${constructionSites.enterpriseId} = ${enterpriseId}`);
    });
    count += batch.length;
    after = batch[batch.length - 1].id;
    await onShare?.(count / Math.max(1, total));
  }
}
