import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { POI_ACTION_FROM, type FindingInput, type Language, type PoiAction, type PoiListQuery, type PoiStatus } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { deliveries, memberships, poiEvents, poiPhotos, pois, users } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { EXPORT_PAGE, keysetPages } from '../exports/features.ts';

const poiColumns = {
  id: pois.id,
  deliveryId: pois.deliveryId,
  projectId: pois.projectId,
  poiNo: pois.poiNo,
  geometry: pois.geometry,
  centerLon: pois.centerLon,
  centerLat: pois.centerLat,
  radiusM: pois.radiusM,
  priority: pois.priority,
  estimatedLeakM3h: pois.estimatedLeakM3h,
  pipes: pois.pipes,
  status: pois.status,
  assigneeId: pois.assigneeId,
  assigneeName: users.realname,
  dueDate: pois.dueDate,
  finding: pois.finding,
  investigatedAt: pois.investigatedAt,
  foundAt: pois.foundAt,
  repairedAt: pois.repairedAt,
  createdAt: pois.createdAt,
  updatedAt: pois.updatedAt,
};

/** The list's filters as one SQL condition, scoped to the enterprise. */
function poiConditions(enterpriseId: number, q: Omit<PoiListQuery, 'page' | 'pageSize'>) {
  const where: SQL[] = [eq(pois.enterpriseId, enterpriseId)];
  if (q.projectId !== undefined) where.push(eq(pois.projectId, q.projectId));
  if (q.deliveryId !== undefined) where.push(eq(pois.deliveryId, q.deliveryId));
  if (q.status) where.push(eq(pois.status, q.status));
  if (q.priority) where.push(eq(pois.priority, q.priority));
  if (q.assigneeId !== undefined) where.push(eq(pois.assigneeId, q.assigneeId));
  if (q.from || q.to) where.push(sql`${pois.deliveryId} in (select ${deliveries.id} from ${deliveries} where ${and(...deliveredWithin(q))})`);
  return and(...where);
}

/** Deliveries made in a period of whole days (UTC): the one rule of "when" for POI lists, metrics and reports. */
export function deliveredWithin(q: { from?: string; to?: string }): SQL[] {
  const period: SQL[] = [];
  if (q.from) period.push(gte(deliveries.deliveredAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) period.push(lte(deliveries.deliveredAt, new Date(`${q.to}T23:59:59.999Z`)));
  return period;
}

/** POIs per project and status, for the projects' key figures: projectId -> status -> count. */
export async function poiCountsByProject(db: Db, enterpriseId: number, projectIds: number[]) {
  const counts = new Map<number, Partial<Record<PoiStatus, number>>>();
  if (projectIds.length === 0) return counts;
  const rows = await db
    .select({ projectId: pois.projectId, status: pois.status, count: sql<number>`count(*)::int` })
    .from(pois)
    .where(and(eq(pois.enterpriseId, enterpriseId), inArray(pois.projectId, projectIds)))
    .groupBy(pois.projectId, pois.status);
  for (const row of rows) counts.set(row.projectId, { ...counts.get(row.projectId), [row.status]: Number(row.count) });
  return counts;
}

export async function listPois(db: Db, enterpriseId: number, q: PoiListQuery) {
  const condition = poiConditions(enterpriseId, q);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(pois).where(condition);
  const list = await db
    .select(poiColumns)
    .from(pois)
    .leftJoin(users, eq(users.id, pois.assigneeId))
    .where(condition)
    .orderBy(asc(pois.deliveryId), asc(pois.poiNo))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { list, total: Number(total), page: q.page, pageSize: q.pageSize };
}

/** Every POI matching the filters (no paging), with its delivery's name, for exports. */
type PoiKey = { deliveryId: number; poiNo: string; id: number };

/** A page of POIs for an export: after `after`, by delivery and number. */
function poiExportPage(db: Db, where: SQL | undefined, after: PoiKey | null) {
  return db
    .select({ ...poiColumns, deliveryName: deliveries.name })
    .from(pois)
    .leftJoin(users, eq(users.id, pois.assigneeId))
    .innerJoin(deliveries, eq(deliveries.id, pois.deliveryId))
    .where(after ? and(where, sql`(${pois.deliveryId}, ${pois.poiNo}, ${pois.id}) > (${after.deliveryId}, ${after.poiNo}, ${after.id})`) : where)
    .orderBy(asc(pois.deliveryId), asc(pois.poiNo), asc(pois.id))
    .limit(EXPORT_PAGE);
}
export type PoiExportRow = Awaited<ReturnType<typeof poiExportPage>>[number];

/** The (filtered) POIs in pages, for an export. */
export function poiPages(db: Db, enterpriseId: number, q: Omit<PoiListQuery, 'page' | 'pageSize'>) {
  const where = poiConditions(enterpriseId, q);
  return keysetPages((after: PoiKey | null) => poiExportPage(db, where, after), (row): PoiKey => ({ deliveryId: row.deliveryId, poiNo: row.poiNo, id: row.id }));
}

/** One POI with its history, newest first. */
export async function getPoi(db: Db, enterpriseId: number, id: number) {
  const [poi] = await db.select(poiColumns).from(pois).leftJoin(users, eq(users.id, pois.assigneeId)).where(and(eq(pois.id, id), eq(pois.enterpriseId, enterpriseId)));
  if (!poi) throw notFound('notFound.poi');
  const history = await db
    .select({ id: poiEvents.id, action: poiEvents.action, fromStatus: poiEvents.fromStatus, toStatus: poiEvents.toStatus, details: poiEvents.details, at: poiEvents.at, userName: users.realname })
    .from(poiEvents)
    .leftJoin(users, eq(users.id, poiEvents.userId))
    .where(eq(poiEvents.poiId, id))
    .orderBy(desc(poiEvents.at), desc(poiEvents.id));
  return { ...poi, history };
}

export async function listDeliveries(db: Db, enterpriseId: number, projectId?: number) {
  const where: SQL[] = [eq(deliveries.enterpriseId, enterpriseId)];
  if (projectId !== undefined) where.push(eq(deliveries.projectId, projectId));
  return db.select().from(deliveries).where(and(...where)).orderBy(desc(deliveries.deliveredAt));
}

/** Deletes a delivery with its POIs, their history and photos (the photo files too, once the rows are gone). */
export async function deleteDelivery(db: Db, dataDir: string, enterpriseId: number, id: number) {
  const photoPaths = await db.transaction(async (tx) => {
    const paths = await tx
      .select({ path: poiPhotos.path })
      .from(poiPhotos)
      .innerJoin(pois, eq(pois.id, poiPhotos.poiId))
      .where(and(eq(pois.deliveryId, id), eq(pois.enterpriseId, enterpriseId)));
    const deleted = await tx.delete(deliveries).where(and(eq(deliveries.id, id), eq(deliveries.enterpriseId, enterpriseId))).returning({ id: deliveries.id });
    if (!deleted.length) throw notFound('notFound.delivery');
    return paths.map((p) => p.path);
  });
  await Promise.all(photoPaths.map((path) => rm(join(dataDir, path), { force: true })));
}

const STATUS_NAMES: Record<PoiStatus, Record<Language, string>> = {
  new: { 'en-US': 'new', 'zh-CN': '新建' },
  assigned: { 'en-US': 'assigned', 'zh-CN': '已分派' },
  investigating: { 'en-US': 'under investigation', 'zh-CN': '排查中' },
  leakFound: { 'en-US': 'a found leak', 'zh-CN': '发现漏点' },
  noLeak: { 'en-US': 'closed without a leak', 'zh-CN': '未发现漏点' },
  repaired: { 'en-US': 'repaired', 'zh-CN': '已修复' },
};
const ACTION_NAMES: Record<PoiAction, Record<Language, string>> = {
  assign: { 'en-US': 'assigned', 'zh-CN': '分派' },
  start: { 'en-US': 'started', 'zh-CN': '开始排查' },
  finding: { 'en-US': 'given a finding', 'zh-CN': '填报排查结果' },
  repair: { 'en-US': 'marked repaired', 'zh-CN': '标记修复' },
  reopen: { 'en-US': 'reopened', 'zh-CN': '重新打开' },
};

/**
 * Applies one workflow action to POIs in one transaction: every POI must allow it (else 409 naming
 * the first that does not, and nothing changes), and each change is written to the history.
 */
async function act(
  db: Db,
  enterpriseId: number,
  userId: number,
  ids: number[],
  action: PoiAction,
  change: (poi: { status: PoiStatus }) => { status: PoiStatus; values: Partial<typeof pois.$inferInsert>; details?: Record<string, unknown> },
) {
  await db.transaction(async (tx) => {
    const rows = await tx.select({ id: pois.id, poiNo: pois.poiNo, status: pois.status }).from(pois).where(and(eq(pois.enterpriseId, enterpriseId), inArray(pois.id, ids))).for('update');
    if (rows.length !== new Set(ids).size) throw notFound('notFound.poi');
    const refused = rows.find((r) => !POI_ACTION_FROM[action].includes(r.status));
    if (refused) throw new AppError(409, 'poi.transition', { poiNo: refused.poiNo, status: STATUS_NAMES[refused.status], action: ACTION_NAMES[action] });
    for (const row of rows) {
      const next = change(row);
      await tx.update(pois).set({ ...next.values, status: next.status, updatedAt: new Date() }).where(eq(pois.id, row.id));
      await tx.insert(poiEvents).values({ poiId: row.id, userId, action, fromStatus: row.status, toStatus: next.status, details: next.details ?? null });
    }
  });
}

export async function assignPois(db: Db, enterpriseId: number, userId: number, input: { poiIds: number[]; assigneeId: number; dueDate?: string }) {
  const [member] = await db
    .select({ name: users.realname })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.userId, input.assigneeId), eq(memberships.status, 'active')));
  if (!member) throw badRequest('poi.assigneeNotMember');
  await act(db, enterpriseId, userId, input.poiIds, 'assign', (poi) => ({
    // Reassigning a POI under investigation keeps it under investigation.
    status: poi.status === 'investigating' ? 'investigating' : 'assigned',
    values: { assigneeId: input.assigneeId, dueDate: input.dueDate ?? null },
    details: { assignee: member.name, dueDate: input.dueDate ?? null },
  }));
}

/** One POI's action; answers the POI as it now is. */
async function actOn(db: Db, enterpriseId: number, userId: number, id: number, action: PoiAction, change: Parameters<typeof act>[5]) {
  await act(db, enterpriseId, userId, [id], action, change);
  return getPoi(db, enterpriseId, id);
}

export const startPoi = (db: Db, enterpriseId: number, userId: number, id: number) =>
  actOn(db, enterpriseId, userId, id, 'start', () => ({ status: 'investigating', values: { investigatedAt: new Date() } }));

export async function recordFinding(db: Db, enterpriseId: number, userId: number, id: number, input: FindingInput) {
  const { result, foundAt, ...finding } = input;
  const at = foundAt ? new Date(foundAt) : new Date();
  return actOn(db, enterpriseId, userId, id, 'finding', () => ({
    status: result,
    values: { finding: result === 'leakFound' ? finding : { notes: finding.notes }, foundAt: result === 'leakFound' ? at : null },
    details: { result, ...finding },
  }));
}

export const repairPoi = (db: Db, enterpriseId: number, userId: number, id: number, input: { repairedAt?: string; notes?: string }) =>
  actOn(db, enterpriseId, userId, id, 'repair', () => ({
    status: 'repaired',
    values: { repairedAt: input.repairedAt ? new Date(input.repairedAt) : new Date() },
    details: input.notes ? { notes: input.notes } : undefined,
  }));

export const reopenPoi = (db: Db, enterpriseId: number, userId: number, id: number, reason: string) =>
  actOn(db, enterpriseId, userId, id, 'reopen', () => ({ status: 'investigating', values: { repairedAt: null }, details: { reason } }));
