import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  CASE_ACTION_FROM,
  SITE_MERGE_M,
  THREAT_STATUSES,
  type AreaGeometry,
  type CaseAction,
  type CaseStatus,
  type Language,
  type LineGeometry,
  type NetworkType,
  type PipeSetQuery,
  type SiteInput,
  type SiteListQuery,
} from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { constructionEvents, constructionFiles, constructionSites, constructionWatchLogs, pipes, users } from '../../db/schema.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { bboxColumns, bboxOf, circlePolygon } from '../../geo/geometry.ts';
import { closest, grownBox, localFrame, placeCentre } from '../../geo/proximity.ts';
import { boxSql } from '../../geo/sql.ts';
import { bboxBox } from '../../db/schema.ts';
import { EXPORT_PAGE, keysetPages } from '../exports/features.ts';
import { assertProject } from '../projects/service.ts';
import { figureColumns, measureSites, writeSitePipes } from './measure.ts';
import { pipeSetLines, pipeSetPage } from '../pipelines/pipeSets.ts';
import { likePattern } from '../../db/like.ts';

type Site = typeof constructionSites.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Where a site is, from its form: the area drawn, or the circle of a point and its radius. */
export function siteShape(input: { geometry?: AreaGeometry; point?: number[]; radiusM?: number }): { geometry: AreaGeometry; center: number[]; radiusM: number | null } {
  if (input.geometry) return { geometry: input.geometry, center: placeCentre(input.geometry), radiusM: null };
  const center = [input.point![0], input.point![1]];
  return { geometry: circlePolygon(center, input.radiusM!), center, radiusM: input.radiusM! };
}

/** The list's filters as one SQL condition, scoped to the enterprise. */
function siteConditions(enterpriseId: number, q: Omit<SiteListQuery, 'page' | 'pageSize'>) {
  const where: SQL[] = [eq(constructionSites.enterpriseId, enterpriseId)];
  if (q.status) where.push(eq(constructionSites.status, q.status));
  if (q.criticality) where.push(eq(constructionSites.criticality, q.criticality));
  if (q.buildType) where.push(eq(constructionSites.buildType, q.buildType));
  if (q.projectId !== undefined) where.push(eq(constructionSites.projectId, q.projectId));
  if (q.insideGasProtection !== undefined) where.push(eq(constructionSites.insideGasProtection, q.insideGasProtection));
  if (q.networkType) where.push(sql`${q.networkType} = any(${constructionSites.corridorNetworks})`);
  if (q.keyword) {
    const like = likePattern(q.keyword);
    where.push(or(ilike(constructionSites.siteNo, like), ilike(constructionSites.name, like), ilike(constructionSites.address, like), ilike(constructionSites.constructionUnit, like))!);
  }
  return and(...where);
}

/** Most critical first, then nearest: the order a safety engineer works the list in. */
const CRITICALITY_RANK = sql`case ${constructionSites.criticality} when 'high' then 0 when 'medium' then 1 when 'low' then 2 else 3 end`;

export async function listSites(db: Db, enterpriseId: number, q: SiteListQuery) {
  const condition = siteConditions(enterpriseId, q);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(constructionSites).where(condition);
  const list = await db
    .select()
    .from(constructionSites)
    .where(condition)
    .orderBy(CRITICALITY_RANK, sql`${constructionSites.nearestM} asc nulls last`, asc(constructionSites.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { list, total: Number(total), page: q.page, pageSize: q.pageSize };
}

/** Key figures over the (filtered by project) sites: open threats, inside gas protection ranges, by level and by status; counted in SQL. */
export async function siteSummary(db: Db, enterpriseId: number, projectId?: number) {
  const where = and(eq(constructionSites.enterpriseId, enterpriseId), projectId === undefined ? undefined : eq(constructionSites.projectId, projectId));
  const rows = await db
    .select({ status: constructionSites.status, criticality: constructionSites.criticality, inside: constructionSites.insideGasProtection, count: sql<number>`count(*)::int` })
    .from(constructionSites)
    .where(where)
    .groupBy(constructionSites.status, constructionSites.criticality, constructionSites.insideGasProtection);
  const summary = { total: 0, openThreats: 0, insideGasProtection: 0, toReview: 0, byCriticality: { high: 0, medium: 0, low: 0, none: 0 }, byStatus: {} as Partial<Record<CaseStatus, number>> };
  for (const row of rows) {
    const n = Number(row.count);
    summary.total += n;
    summary.byStatus[row.status] = (summary.byStatus[row.status] ?? 0) + n;
    if (row.status === 'closed') continue;
    summary.byCriticality[row.criticality] += n;
    if (THREAT_STATUSES.includes(row.status)) summary.openThreats += n;
    if (row.status === 'review') summary.toReview += n;
    if (row.inside) summary.insideGasProtection += n;
  }
  return summary;
}

type SiteKey = { rank: number; nearest: number; id: number };
/** A page of sites for an export, in the list's order. */
function siteExportPage(db: Db, where: SQL | undefined, after: SiteKey | null) {
  const nearest = sql`coalesce(${constructionSites.nearestM}, 1e9)`;
  return db
    .select({ site: constructionSites, rank: sql<number>`${CRITICALITY_RANK}`, nearest: sql<number>`${nearest}` })
    .from(constructionSites)
    .where(after ? and(where, sql`(${CRITICALITY_RANK}, ${nearest}, ${constructionSites.id}) > (${after.rank}, ${after.nearest}, ${after.id})`) : where)
    .orderBy(CRITICALITY_RANK, nearest, asc(constructionSites.id))
    .limit(EXPORT_PAGE);
}
export type SiteExportRow = Awaited<ReturnType<typeof siteExportPage>>[number];

export function sitePages(db: Db, enterpriseId: number, q: Omit<SiteListQuery, 'page' | 'pageSize'>) {
  const where = siteConditions(enterpriseId, q);
  return keysetPages((after: SiteKey | null) => siteExportPage(db, where, after), (row): SiteKey => ({ rank: Number(row.rank), nearest: Number(row.nearest), id: row.site.id }));
}

async function siteRow(db: Db | Tx, enterpriseId: number, id: number): Promise<Site> {
  const [site] = await db.select().from(constructionSites).where(and(eq(constructionSites.id, id), eq(constructionSites.enterpriseId, enterpriseId)));
  if (!site) throw notFound('notFound.site');
  return site;
}

/** A page of the pipes in the site's corridor (404 for another enterprise's site). */
export async function sitePipePage(db: Db, enterpriseId: number, id: number, q: PipeSetQuery) {
  const [found] = await db.select({ id: constructionSites.id }).from(constructionSites).where(and(eq(constructionSites.id, id), eq(constructionSites.enterpriseId, enterpriseId)));
  if (!found) throw notFound('notFound.site');
  return pipeSetPage(db, 'site', enterpriseId, id, q.page, q.pageSize);
}

/** One site with its history (newest first), watch log (newest first) and files. */
export async function getSite(db: Db, enterpriseId: number, id: number) {
  const site = await siteRow(db, enterpriseId, id);
  const [history, watchLog, files] = await Promise.all([
    db
      .select({ id: constructionEvents.id, action: constructionEvents.action, fromStatus: constructionEvents.fromStatus, toStatus: constructionEvents.toStatus, details: constructionEvents.details, at: constructionEvents.at, userName: users.realname })
      .from(constructionEvents)
      .leftJoin(users, eq(users.id, constructionEvents.userId))
      .where(eq(constructionEvents.siteId, id))
      .orderBy(desc(constructionEvents.at), desc(constructionEvents.id)),
    db.select().from(constructionWatchLogs).where(eq(constructionWatchLogs.siteId, id)).orderBy(desc(constructionWatchLogs.at), desc(constructionWatchLogs.id)),
    db
      .select({ id: constructionFiles.id, watchLogId: constructionFiles.watchLogId, kind: constructionFiles.kind, fileName: constructionFiles.fileName, mimetype: constructionFiles.mimetype, size: constructionFiles.size, uploadedAt: constructionFiles.uploadedAt })
      .from(constructionFiles)
      .where(and(eq(constructionFiles.siteId, id), eq(constructionFiles.enterpriseId, enterpriseId)))
      .orderBy(asc(constructionFiles.id)),
  ]);
  return { ...site, history, watchLog, files, pipes: await measuredPipeLines(db, enterpriseId, site) };
}

/** Pipes drawn on the map with a site: the nearest of each network and its corridor (the nearest 500: a drawing, not a figure). */
const DRAWN_PIPES = 500;
async function measuredPipeLines(db: Db, enterpriseId: number, site: Site) {
  const corridor = await pipeSetLines(db, 'site', enterpriseId, site.id, DRAWN_PIPES);
  const shown = new Set(corridor.map((p) => p.pipeRowId));
  const nearest = Object.values(site.measure?.nearest ?? {}).filter((p) => !shown.has(p!.pipeRowId));
  if (!nearest.length) return corridor;
  const lines = await db.select({ pipeRowId: pipes.id, networkType: pipes.networkType, geometry: pipes.geometry }).from(pipes).where(and(eq(pipes.enterpriseId, enterpriseId), inArray(pipes.id, nearest.map((p) => p!.pipeRowId))));
  return [...corridor, ...lines.map((l) => ({ ...l, pipeRowId: Number(l.pipeRowId), networkType: l.networkType as NetworkType, geometry: l.geometry as LineGeometry }))];
}

/** The columns of a site from its form (not its case). */
function formColumns(input: SiteInput) {
  const shape = siteShape(input);
  return {
    projectId: input.projectId ?? null,
    name: input.name,
    buildType: input.buildType,
    geometry: shape.geometry,
    centerLon: shape.center[0],
    centerLat: shape.center[1],
    radiusM: shape.radiusM,
    ...bboxColumns(bboxOf(shape.geometry)),
    address: input.address ?? null,
    district: input.district ?? null,
    plannedStart: input.plannedStart ?? null,
    plannedEnd: input.plannedEnd ?? null,
    actualStart: input.actualStart ?? null,
    actualEnd: input.actualEnd ?? null,
    constructionUnit: input.constructionUnit ?? null,
    constructionContact: input.constructionContact ?? null,
    constructionPhone: input.constructionPhone ?? null,
    supervisingUnit: input.supervisingUnit ?? null,
    supervisingContact: input.supervisingContact ?? null,
    supervisingPhone: input.supervisingPhone ?? null,
    source: input.source,
    detectedAt: input.detectedAt ?? null,
    changeType: input.changeType ?? null,
    buildState: input.buildState,
  };
}

const siteNoTaken = (siteNo: string) => new AppError(409, 'construction.siteNoTaken', { siteNo });

/** A new site's number when none is given: CS- and its id, five digits. */
export async function nextSiteIds(db: Db | Tx, count: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(db as Db, sql`select nextval(pg_get_serial_sequence('construction_sites', 'id'))::int as id from generate_series(1, ${count})`);
  return rows.map((r) => Number(r.id));
}
export const defaultSiteNo = (id: number) => `CS-${String(id).padStart(5, '0')}`;

/**
 * The open or closed case within SITE_MERGE_M of a detection, if any (nearest first): a satellite
 * or patrol finding there belongs to that case rather than making a duplicate.
 */
export async function caseNear(db: Db | Tx, enterpriseId: number, geometry: AreaGeometry): Promise<Site | null> {
  const candidates = await db
    .select()
    .from(constructionSites)
    .where(and(eq(constructionSites.enterpriseId, enterpriseId), sql`${bboxBox(constructionSites)} && ${boxSql(grownBox(geometry, SITE_MERGE_M))}`));
  const frame = localFrame(placeCentre(geometry));
  let best: { site: Site; distanceM: number } | null = null;
  for (const site of candidates) {
    const d = closest(geometry, site.geometry as AreaGeometry, frame).distanceM;
    if (d <= SITE_MERGE_M && (!best || d < best.distanceM)) best = { site, distanceM: d };
  }
  return best?.site ?? null;
}

/** A new detection of a known case: noted in its history, and a closed case opened again for review. */
export async function redetect(tx: Db | Tx, site: Site, userId: number, detection: { detectedAt?: string | null; changeType?: string | null; source: string; via: string }) {
  const status: CaseStatus = site.status === 'closed' ? 'review' : site.status;
  await tx
    .update(constructionSites)
    .set({ status, detectedAt: detection.detectedAt ?? site.detectedAt, changeType: detection.changeType ?? site.changeType, updatedAt: new Date() })
    .where(eq(constructionSites.id, site.id));
  await tx.insert(constructionEvents).values({
    siteId: site.id,
    userId,
    action: 'redetected',
    fromStatus: site.status,
    toStatus: status,
    details: { detectedAt: detection.detectedAt ?? null, changeType: detection.changeType ?? null, source: detection.source, via: detection.via, reopened: site.status === 'closed' },
  });
}

/**
 * Records a site, measured against the pipes. A satellite or patrol detection within
 * SITE_MERGE_M of a known case goes to that case instead (reopening it when closed).
 */
export async function createSite(db: Db, enterpriseId: number, userId: number, input: SiteInput) {
  if (input.projectId !== undefined) await assertProject(db, enterpriseId, input.projectId);
  const columns = formColumns(input);
  const [figures] = await measureSites(db, enterpriseId, [{ geometry: columns.geometry, buildType: columns.buildType }]);
  const result = await db.transaction(async (tx) => {
    if (input.source === 'satellite' || input.source === 'patrol') {
      const known = await caseNear(tx, enterpriseId, columns.geometry);
      if (known) {
        await redetect(tx, known, userId, { detectedAt: input.detectedAt, changeType: input.changeType, source: input.source, via: 'form' });
        return { id: known.id, merged: true };
      }
    }
    const [id] = await nextSiteIds(tx, 1);
    const siteNo = input.siteNo ?? defaultSiteNo(id);
    try {
      await tx.insert(constructionSites).values({ id, enterpriseId, siteNo, ...columns, ...figureColumns(figures), createdBy: userId });
      await writeSitePipes(tx, enterpriseId, [{ id, figures }]);
    } catch (error) {
      if (uniqueViolation(error)) throw siteNoTaken(siteNo);
      throw error;
    }
    await tx.insert(constructionEvents).values({ siteId: id, userId, action: 'created', toStatus: 'review', details: { source: input.source } });
    return { id, merged: false };
  });
  return { ...(await getSite(db, enterpriseId, result.id)), merged: result.merged };
}

/** Saves a site's form and measures it again; its case stays where it is. */
export async function updateSite(db: Db, enterpriseId: number, userId: number, id: number, input: SiteInput) {
  const site = await siteRow(db, enterpriseId, id);
  if (input.projectId !== undefined) await assertProject(db, enterpriseId, input.projectId);
  const columns = formColumns(input);
  const [figures] = await measureSites(db, enterpriseId, [{ geometry: columns.geometry, buildType: columns.buildType }]);
  await db.transaction(async (tx) => {
    try {
      await tx
        .update(constructionSites)
        .set({ ...columns, ...(input.siteNo ? { siteNo: input.siteNo } : {}), ...figureColumns(figures), updatedAt: new Date() })
        .where(eq(constructionSites.id, id));
      await writeSitePipes(tx, enterpriseId, [{ id, figures }]);
    } catch (error) {
      if (uniqueViolation(error)) throw siteNoTaken(input.siteNo ?? site.siteNo);
      throw error;
    }
    await tx.insert(constructionEvents).values({ siteId: id, userId, action: 'edited', fromStatus: site.status, toStatus: site.status });
  });
  return getSite(db, enterpriseId, id);
}

/** Deletes a site with its history, watch log and files; answers the kept files' paths to remove. */
export async function deleteSite(db: Db, enterpriseId: number, id: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const paths = await tx.select({ path: constructionFiles.path }).from(constructionFiles).where(and(eq(constructionFiles.siteId, id), eq(constructionFiles.enterpriseId, enterpriseId)));
    const deleted = await tx.delete(constructionSites).where(and(eq(constructionSites.id, id), eq(constructionSites.enterpriseId, enterpriseId))).returning({ id: constructionSites.id });
    if (!deleted.length) throw notFound('notFound.site');
    return paths.map((p) => p.path);
  });
}

const STATUS_NAMES: Record<CaseStatus, Record<Language, string>> = {
  review: { 'en-US': 'to review', 'zh-CN': '待研判' },
  threat: { 'en-US': 'a threat', 'zh-CN': '有威胁' },
  noThreat: { 'en-US': 'no threat', 'zh-CN': '无威胁' },
  briefed: { 'en-US': 'briefed', 'zh-CN': '已交底' },
  guarded: { 'en-US': 'guarded', 'zh-CN': '看护中' },
  closed: { 'en-US': 'closed', 'zh-CN': '已关闭' },
};
const ACTION_NAMES: Record<CaseAction, Record<Language, string>> = {
  judge: { 'en-US': 'judged', 'zh-CN': '研判' },
  brief: { 'en-US': 'briefed', 'zh-CN': '登记安全交底' },
  guard: { 'en-US': 'put under guard', 'zh-CN': '开始现场看护' },
  watch: { 'en-US': 'given a watch log entry', 'zh-CN': '填写看护记录' },
  close: { 'en-US': 'closed', 'zh-CN': '关闭' },
  reopen: { 'en-US': 'reopened', 'zh-CN': '重新打开' },
};

/**
 * One step of a site's case, in one transaction with its history entry: the site is locked, the
 * step checked against its status (409 naming both when refused), then written.
 */
async function step(
  db: Db,
  enterpriseId: number,
  userId: number,
  id: number,
  action: CaseAction,
  change: (site: Site, tx: Tx) => Promise<{ status: CaseStatus; values?: Partial<typeof constructionSites.$inferInsert>; details?: Record<string, unknown> }>,
) {
  await db.transaction(async (tx) => {
    const [site] = await tx.select().from(constructionSites).where(and(eq(constructionSites.id, id), eq(constructionSites.enterpriseId, enterpriseId))).for('update');
    if (!site) throw notFound('notFound.site');
    if (!CASE_ACTION_FROM[action].includes(site.status)) throw new AppError(409, 'construction.transition', { siteNo: site.siteNo, status: STATUS_NAMES[site.status], action: ACTION_NAMES[action] });
    const next = await change(site, tx);
    await tx.update(constructionSites).set({ ...next.values, status: next.status, updatedAt: new Date() }).where(eq(constructionSites.id, id));
    await tx.insert(constructionEvents).values({ siteId: id, userId, action, fromStatus: site.status, toStatus: next.status, details: next.details ?? null });
  });
  return getSite(db, enterpriseId, id);
}

export const judgeSite = (db: Db, enterpriseId: number, userId: number, id: number, input: { result: 'threat' | 'noThreat'; notes?: string }) =>
  step(db, enterpriseId, userId, id, 'judge', async () => ({ status: input.result, details: { result: input.result, notes: input.notes ?? null } }));

export const briefSite = (db: Db, enterpriseId: number, userId: number, id: number, input: { briefedBy: string; briefedAt?: string; notes?: string }) =>
  step(db, enterpriseId, userId, id, 'brief', async () => {
    const at = input.briefedAt ? new Date(input.briefedAt) : new Date();
    return { status: 'briefed', values: { briefedBy: input.briefedBy, briefedAt: at }, details: { briefedBy: input.briefedBy, briefedAt: at.toISOString(), notes: input.notes ?? null } };
  });

export const guardSite = (db: Db, enterpriseId: number, userId: number, id: number, input: { guard: string; notes?: string }) =>
  step(db, enterpriseId, userId, id, 'guard', async () => ({ status: 'guarded', values: { guard: input.guard }, details: { guard: input.guard, notes: input.notes ?? null } }));

/** A watch log entry of a guarded site; answers the entry with the site. */
export async function addWatchLog(db: Db, enterpriseId: number, userId: number, id: number, input: { at?: string; person: string; remark: string }) {
  let logId = 0;
  const site = await step(db, enterpriseId, userId, id, 'watch', async (_site, tx) => {
    const at = input.at ? new Date(input.at) : new Date();
    const [log] = await tx.insert(constructionWatchLogs).values({ siteId: id, at, person: input.person, remark: input.remark, createdBy: userId }).returning({ id: constructionWatchLogs.id });
    logId = log.id;
    return { status: 'guarded', details: { person: input.person, remark: input.remark, at: at.toISOString() } };
  });
  return { site, logId };
}

export const closeSite = (db: Db, enterpriseId: number, userId: number, id: number, input: { notes?: string }) =>
  step(db, enterpriseId, userId, id, 'close', async () => ({ status: 'closed', details: { notes: input.notes ?? null } }));

export const reopenSite = (db: Db, enterpriseId: number, userId: number, id: number, reason: string) =>
  step(db, enterpriseId, userId, id, 'reopen', async () => ({ status: 'review', details: { reason } }));
