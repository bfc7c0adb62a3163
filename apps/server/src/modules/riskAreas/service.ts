import { and, asc, desc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import {
  RISK_AREA_ACTION_FROM,
  MAX_RISK_BUFFER_M,
  type AreaGeometry,
  type BBox,
  type Language,
  type MeasuredPipe,
  type NetworkType,
  type PipeSetQuery,
  type RiskAreaAction,
  type RiskAreaInput,
  type RiskAreaListQuery,
  type RiskAreaPipes,
  type RiskAreaStatus,
} from '@console/contract';
import type { Db, Tx } from '../../db/client.ts';
import { bboxBox, riskAreaEvents, riskAreaFiles, riskAreas, users } from '../../db/schema.ts';
import { nearAny } from '../../geo/sql.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { bboxColumns } from '../../geo/geometry.ts';
import { grownBox, type Place } from '../../geo/proximity.ts';
import { EXPORT_PAGE, keysetPages } from '../exports/features.ts';
import { pipesNear } from '../pipelines/nearby.ts';
import { pipeSetLines, pipeSetPage, replacePipeSets } from '../pipelines/pipeSets.ts';
import { assertProject } from '../projects/service.ts';
import { likePattern } from '../../db/like.ts';

type RiskArea = typeof riskAreas.$inferSelect;
const REMEASURE_BATCH = 1000;
/** Pipes drawn on the map with an area (a drawing, not a figure: the counts and the paged list cover them all). */
const DRAWN_PIPES = 500;

/** An area's place from its form: the polygon drawn, or the point. */
export const areaPlace = (input: { geometry?: AreaGeometry; point?: number[] }): Place => input.geometry ?? { type: 'Point', coordinates: [input.point![0], input.point![1]] };

/** What an area holds: the pipes inside it or within its buffer, per network. */
export function measuredAreaPipes(near: MeasuredPipe[], bufferM: number): { pipes: RiskAreaPipes; networks: NetworkType[]; within: MeasuredPipe[] } {
  const within = near.filter((p) => p.distanceM <= bufferM);
  const count: RiskAreaPipes['count'] = {}, lengthM: RiskAreaPipes['lengthM'] = {};
  for (const p of within) {
    count[p.networkType] = (count[p.networkType] ?? 0) + 1;
    lengthM[p.networkType] = Math.round(((lengthM[p.networkType] ?? 0) + p.lengthM) * 10) / 10;
  }
  return {
    pipes: {
      bufferM,
      count,
      lengthM,
      inside: within.filter((p) => p.distanceM === 0).length,
      measuredAt: new Date().toISOString(),
    },
    networks: Object.keys(count) as NetworkType[],
    within,
  };
}
type AreaMeasure = ReturnType<typeof measuredAreaPipes>;

/** Keeps each measured area's pipes as its pipe set. */
export const writeAreaPipes = (db: Db | Tx, enterpriseId: number, areas: { id: number; measured: AreaMeasure }[]) =>
  replacePipeSets(db, 'area', enterpriseId, areas.map((a) => ({ ownerId: a.id, pipes: a.measured.within })));

/** Measures areas of one enterprise against its pipes, each within its own buffer. */
export async function measureAreas(db: Db | Tx, enterpriseId: number, areas: { place: Place; bufferM: number }[]) {
  const widest = Math.max(0, ...areas.map((a) => a.bufferM));
  const near = await pipesNear(db as Db, enterpriseId, areas.map((a) => a.place), widest);
  return areas.map((a, i) => measuredAreaPipes(near[i], a.bufferM));
}

/** Measures the areas of the enterprise again (all after a pipe import, those near `near` after a pipe edit), a batch at a time, one transaction per batch. */
export async function remeasureAreas(db: Db, enterpriseId: number, near?: BBox[], onShare?: (share: number) => Promise<void>) {
  const total = onShare ? await db.$count(riskAreas, eq(riskAreas.enterpriseId, enterpriseId)) : 0;
  let after = 0;
  let count = 0;
  for (;;) {
    const batch = await db
      .select({ id: riskAreas.id, geometry: riskAreas.geometry, bufferM: riskAreas.bufferM })
      .from(riskAreas)
      .where(and(eq(riskAreas.enterpriseId, enterpriseId), gt(riskAreas.id, after), nearAny(bboxBox(riskAreas), near, MAX_RISK_BUFFER_M)))
      .orderBy(asc(riskAreas.id))
      .limit(REMEASURE_BATCH);
    if (!batch.length) return;
    const measured = await measureAreas(db, enterpriseId, batch.map((a) => ({ place: a.geometry as Place, bufferM: a.bufferM })));
    const values = sql.join(batch.map((a, i) => sql`(${a.id}::int, ${JSON.stringify(measured[i].pipes)}::jsonb, ${`{${measured[i].networks.join(',')}}`}::text[])`), sql`, `);
    await db.transaction(async (tx) => {
      await writeAreaPipes(tx, enterpriseId, batch.map((a, i) => ({ id: a.id, measured: measured[i] })));
      await tx.execute(sql`update ${riskAreas} set pipes = v.pipes, networks = v.networks from (values ${values}) as v(id, pipes, networks)
        where ${riskAreas.id} = v.id and ${riskAreas.enterpriseId} = ${enterpriseId}`);
    });
    after = batch[batch.length - 1].id;
    count += batch.length;
    await onShare?.(count / Math.max(1, total));
  }
}

function areaConditions(enterpriseId: number, q: Omit<RiskAreaListQuery, 'page' | 'pageSize'>) {
  const where: SQL[] = [eq(riskAreas.enterpriseId, enterpriseId)];
  if (q.kind) where.push(eq(riskAreas.kind, q.kind));
  if (q.level) where.push(eq(riskAreas.level, q.level));
  if (q.status) where.push(eq(riskAreas.status, q.status));
  if (q.projectId !== undefined) where.push(eq(riskAreas.projectId, q.projectId));
  if (q.networkType) where.push(sql`${q.networkType} = any(${riskAreas.networks})`);
  if (q.keyword) {
    const like = likePattern(q.keyword);
    where.push(or(ilike(riskAreas.name, like), ilike(riskAreas.cause, like), ilike(riskAreas.responsibleUnit, like))!);
  }
  return and(...where);
}

export async function listAreas(db: Db, enterpriseId: number, q: RiskAreaListQuery) {
  const condition = areaConditions(enterpriseId, q);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(riskAreas).where(condition);
  const list = await db.select().from(riskAreas).where(condition).orderBy(asc(riskAreas.level), asc(riskAreas.id)).limit(q.pageSize).offset((q.page - 1) * q.pageSize);
  return { list, total: Number(total), page: q.page, pageSize: q.pageSize };
}

/** Open areas by level and kind, and all by status; counted in SQL. */
export async function areaSummary(db: Db, enterpriseId: number) {
  const rows = await db
    .select({ kind: riskAreas.kind, level: riskAreas.level, status: riskAreas.status, count: sql<number>`count(*)::int` })
    .from(riskAreas)
    .where(eq(riskAreas.enterpriseId, enterpriseId))
    .groupBy(riskAreas.kind, riskAreas.level, riskAreas.status);
  const summary = { total: 0, open: 0, byLevel: { I: 0, II: 0, III: 0, IV: 0 }, byKind: {} as Record<string, number>, byStatus: {} as Record<string, number> };
  for (const row of rows) {
    const n = Number(row.count);
    summary.total += n;
    summary.byStatus[row.status] = (summary.byStatus[row.status] ?? 0) + n;
    if (row.status === 'remediated') continue;
    summary.open += n;
    summary.byLevel[row.level] += n;
    summary.byKind[row.kind] = (summary.byKind[row.kind] ?? 0) + n;
  }
  return summary;
}

function areaExportPage(db: Db, where: SQL | undefined, after: number | null) {
  return db.select().from(riskAreas).where(after === null ? where : and(where, gt(riskAreas.id, after))).orderBy(asc(riskAreas.id)).limit(EXPORT_PAGE);
}
export type RiskAreaExportRow = Awaited<ReturnType<typeof areaExportPage>>[number];
export const areaPages = (db: Db, enterpriseId: number, q: Omit<RiskAreaListQuery, 'page' | 'pageSize'>) => {
  const where = areaConditions(enterpriseId, q);
  return keysetPages((after: number | null) => areaExportPage(db, where, after), (row) => row.id);
};

async function areaRow(db: Db | Tx, enterpriseId: number, id: number): Promise<RiskArea> {
  const [area] = await db.select().from(riskAreas).where(and(eq(riskAreas.id, id), eq(riskAreas.enterpriseId, enterpriseId)));
  if (!area) throw notFound('notFound.riskArea');
  return area;
}

/** A page of the area's pipes (404 for another enterprise's area). */
export async function areaPipePage(db: Db, enterpriseId: number, id: number, q: PipeSetQuery) {
  const [found] = await db.select({ id: riskAreas.id }).from(riskAreas).where(and(eq(riskAreas.id, id), eq(riskAreas.enterpriseId, enterpriseId)));
  if (!found) throw notFound('notFound.riskArea');
  return pipeSetPage(db, 'area', enterpriseId, id, q.page, q.pageSize);
}

/** One area with its history (newest first), files and the lines of its pipes (for the map). */
export async function getArea(db: Db, enterpriseId: number, id: number) {
  const area = await areaRow(db, enterpriseId, id);
  const [history, files, lines] = await Promise.all([
    db
      .select({ id: riskAreaEvents.id, action: riskAreaEvents.action, fromStatus: riskAreaEvents.fromStatus, toStatus: riskAreaEvents.toStatus, details: riskAreaEvents.details, at: riskAreaEvents.at, userName: users.realname })
      .from(riskAreaEvents)
      .leftJoin(users, eq(users.id, riskAreaEvents.userId))
      .where(eq(riskAreaEvents.areaId, id))
      .orderBy(desc(riskAreaEvents.at), desc(riskAreaEvents.id)),
    db
      .select({ id: riskAreaFiles.id, fileName: riskAreaFiles.fileName, mimetype: riskAreaFiles.mimetype, size: riskAreaFiles.size, uploadedAt: riskAreaFiles.uploadedAt })
      .from(riskAreaFiles)
      .where(and(eq(riskAreaFiles.areaId, id), eq(riskAreaFiles.enterpriseId, enterpriseId)))
      .orderBy(asc(riskAreaFiles.id)),
    pipeSetLines(db, 'area', enterpriseId, id, DRAWN_PIPES),
  ]);
  return { ...area, history, files, pipeLines: lines };
}

/** The columns of an area from its form, with its measurement. */
export function formColumns(input: RiskAreaInput, place: Place, measured: AreaMeasure) {
  return {
    projectId: input.projectId ?? null,
    name: input.name,
    kind: input.kind,
    level: input.level,
    geometry: place,
    ...bboxColumns(grownBox(place, 0)),
    bufferM: input.bufferM,
    cause: input.cause ?? null,
    triggerRainMm: input.triggerRainMm ?? null,
    triggerHours: input.triggerHours ?? null,
    voidAreaM2: input.voidAreaM2 ?? null,
    burialDepthM: input.burialDepthM ?? null,
    clearHeightM: input.clearHeightM ?? null,
    source: input.source,
    responsibleUnit: input.responsibleUnit ?? null,
    responsiblePerson: input.responsiblePerson ?? null,
    responsiblePhone: input.responsiblePhone ?? null,
    notes: input.notes ?? null,
    pipes: measured.pipes,
    networks: measured.networks,
  };
}

export async function createArea(db: Db, enterpriseId: number, userId: number, input: RiskAreaInput, via: 'created' | 'imported' = 'created') {
  if (input.projectId !== undefined) await assertProject(db, enterpriseId, input.projectId);
  const place = areaPlace(input);
  const [measured] = await measureAreas(db, enterpriseId, [{ place, bufferM: input.bufferM }]);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx.insert(riskAreas).values({ enterpriseId, ...formColumns(input, place, measured), createdBy: userId }).returning({ id: riskAreas.id });
    await writeAreaPipes(tx, enterpriseId, [{ id: row.id, measured }]);
    await tx.insert(riskAreaEvents).values({ areaId: row.id, userId, action: via, toStatus: 'identified' });
    return row.id;
  });
  return getArea(db, enterpriseId, id);
}

export async function updateArea(db: Db, enterpriseId: number, userId: number, id: number, input: RiskAreaInput) {
  const area = await areaRow(db, enterpriseId, id);
  if (input.projectId !== undefined) await assertProject(db, enterpriseId, input.projectId);
  const place = areaPlace(input);
  const [measured] = await measureAreas(db, enterpriseId, [{ place, bufferM: input.bufferM }]);
  await db.transaction(async (tx) => {
    await tx.update(riskAreas).set({ ...formColumns(input, place, measured), updatedAt: new Date() }).where(eq(riskAreas.id, id));
    await writeAreaPipes(tx, enterpriseId, [{ id, measured }]);
    await tx.insert(riskAreaEvents).values({ areaId: id, userId, action: 'edited', fromStatus: area.status, toStatus: area.status });
  });
  return getArea(db, enterpriseId, id);
}

/** Deletes an area with its history and files; answers the kept files' paths to remove. */
export async function deleteArea(db: Db, enterpriseId: number, id: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const paths = await tx.select({ path: riskAreaFiles.path }).from(riskAreaFiles).where(and(eq(riskAreaFiles.areaId, id), eq(riskAreaFiles.enterpriseId, enterpriseId)));
    const deleted = await tx.delete(riskAreas).where(and(eq(riskAreas.id, id), eq(riskAreas.enterpriseId, enterpriseId))).returning({ id: riskAreas.id });
    if (!deleted.length) throw notFound('notFound.riskArea');
    return paths.map((p) => p.path);
  });
}

const STATUS_NAMES: Record<RiskAreaStatus, Record<Language, string>> = {
  identified: { 'en-US': 'identified', 'zh-CN': '已识别' },
  remediating: { 'en-US': 'under remediation', 'zh-CN': '整治中' },
  remediated: { 'en-US': 'remediated', 'zh-CN': '已整治' },
};
const ACTION_NAMES: Record<RiskAreaAction, Record<Language, string>> = {
  start: { 'en-US': 'put under remediation', 'zh-CN': '开始整治' },
  finish: { 'en-US': 'marked remediated', 'zh-CN': '完成整治' },
  reopen: { 'en-US': 'reopened', 'zh-CN': '重新打开' },
};
const NEXT: Record<RiskAreaAction, RiskAreaStatus> = { start: 'remediating', finish: 'remediated', reopen: 'identified' };

/** One step of an area's remediation, with its history entry, in one transaction (the area locked). */
export async function stepArea(db: Db, enterpriseId: number, userId: number, id: number, action: RiskAreaAction, input: { notes?: string; reason?: string }) {
  await db.transaction(async (tx) => {
    const [area] = await tx.select().from(riskAreas).where(and(eq(riskAreas.id, id), eq(riskAreas.enterpriseId, enterpriseId))).for('update');
    if (!area) throw notFound('notFound.riskArea');
    if (!RISK_AREA_ACTION_FROM[action].includes(area.status)) throw new AppError(409, 'riskArea.transition', { name: area.name, status: STATUS_NAMES[area.status], action: ACTION_NAMES[action] });
    await tx.update(riskAreas).set({ status: NEXT[action], updatedAt: new Date() }).where(eq(riskAreas.id, id));
    await tx.insert(riskAreaEvents).values({ areaId: id, userId, action, fromStatus: area.status, toStatus: NEXT[action], details: { notes: input.notes ?? null, reason: input.reason ?? null } });
  });
  return getArea(db, enterpriseId, id);
}
