import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_ALERT_SETTINGS, type AlertDetail, type AlertListQuery, type AlertRow, type AlertSettings, type ManualAlertInput } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { alertEvents, alerts, alertSettings, levelOrder, users } from '../../db/schema.ts';
import { likePattern } from '../../db/like.ts';
import { notFound } from '../../http/errors.ts';
import { bboxColumns, bboxOf } from '../../geo/geometry.ts';
import { placeCentre, type Place } from '../../geo/proximity.ts';
import { pipesNear } from '../pipelines/nearby.ts';
import { incidentCode } from './grouping.ts';
import { workDates, workFilters, workListColumns } from './work.ts';

/** Pipes within this distance of a hand-raised alert's place are the affected ones. */
const MANUAL_REACH_M = 30;

export const alertCode = (id: number) => `AL-${String(id).padStart(6, '0')}`;

const rowColumns = { id: alerts.id, rule: alerts.rule, value: alerts.value, unit: alerts.unit, threshold: alerts.threshold, incidentId: alerts.incidentId, ...workListColumns(alerts) };

type RowRecord = { [K in keyof typeof rowColumns]: unknown } & { id: number; raisedAt: Date; firstResponseAt: Date | null; deadline: Date | null; handledAt: Date | null; closedAt: Date | null };
const toRow = (r: RowRecord): AlertRow => ({
  ...(r as unknown as AlertRow),
  code: alertCode(r.id),
  incidentCode: r.incidentId ? incidentCode(Number(r.incidentId)) : null,
  ...workDates(r),
});

function listWhere(enterpriseId: number, userId: number, q: Omit<AlertListQuery, 'page' | 'pageSize'>): SQL {
  const conditions = workFilters(alerts, enterpriseId, userId, q);
  if (q.keyword) {
    const code = /^AL-?0*(\d+)$/i.exec(q.keyword);
    conditions.push(or(ilike(alerts.subject, likePattern(q.keyword)), code ? eq(alerts.id, Number(code[1])) : undefined));
  }
  return and(...conditions)!;
}

/** Every alert, the gravest first, then the latest raised (the desk's second list; each opens to its incident). */
export async function listAlerts(db: Db, enterpriseId: number, userId: number, q: AlertListQuery) {
  const where = listWhere(enterpriseId, userId, q);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(rowColumns)
      .from(alerts)
      .leftJoin(users, eq(users.id, alerts.assigneeId))
      .where(where)
      .orderBy(levelOrder(alerts.level), desc(alerts.raisedAt), desc(alerts.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: sql<number>`count(*)::int` }).from(alerts).where(where),
  ]);
  return { list: rows.map((r) => toRow(r as RowRecord)), total: Number(total), page: q.page, pageSize: q.pageSize };
}

/** One alert as `readerId` sees it (their own entries and assignment marked). */
export async function getAlert(db: Db, enterpriseId: number, id: number, readerId: number): Promise<AlertDetail> {
  const [row] = await db
    .select({ ...rowColumns, geometry: alerts.geometry, pipeIds: alerts.pipeIds, details: alerts.details, objectId: alerts.objectId })
    .from(alerts)
    .leftJoin(users, eq(users.id, alerts.assigneeId))
    .where(and(eq(alerts.id, id), eq(alerts.enterpriseId, enterpriseId)));
  if (!row) throw notFound('notFound.alert');
  const events = await db
    .select({ id: alertEvents.id, at: alertEvents.at, userId: alertEvents.userId, action: alertEvents.action, fromState: alertEvents.fromState, toState: alertEvents.toState, note: alertEvents.note, details: alertEvents.details, userName: users.realname })
    .from(alertEvents)
    .leftJoin(users, eq(users.id, alertEvents.userId))
    .where(eq(alertEvents.alertId, id))
    .orderBy(alertEvents.at, alertEvents.id);
  return {
    ...toRow(row as RowRecord),
    geometry: row.geometry,
    pipeIds: row.pipeIds,
    details: row.details,
    objectId: row.objectId,
    assignedToMe: row.assigneeId === readerId,
    // Photos belong to the incident's timeline, where the steps are taken.
    events: events.map(({ userId, ...e }) => ({ ...e, byMe: userId === readerId, at: e.at.toISOString(), photos: [] })),
  };
}

export async function getAlertSettings(db: Db, enterpriseId: number): Promise<AlertSettings> {
  const [row] = await db.select({ settings: alertSettings.settings }).from(alertSettings).where(eq(alertSettings.enterpriseId, enterpriseId));
  // Settings saved before a setting existed take its default.
  return { ...DEFAULT_ALERT_SETTINGS, ...row?.settings };
}

export async function saveAlertSettings(db: Db, enterpriseId: number, settings: AlertSettings) {
  await db
    .insert(alertSettings)
    .values({ enterpriseId, settings })
    .onConflictDoUpdate({ target: alertSettings.enterpriseId, set: { settings, updatedAt: new Date() } });
}

/** An alert raised by a person: its place, the pipes near it, its first timeline entry. */
export async function raiseManualAlert(db: Db, enterpriseId: number, userId: number, input: ManualAlertInput) {
  const place: Place = input.geometry ?? { type: 'Point', coordinates: input.point!.slice(0, 2) };
  const [near] = await pipesNear(db, enterpriseId, [place], MANUAL_REACH_M);
  const [lon, lat] = placeCentre(place);
  const box = input.geometry ? bboxOf(input.geometry) : ([lon, lat, lon, lat] as const);
  return db.transaction(async (tx) => {
    const [alert] = await tx
      .insert(alerts)
      .values({
        enterpriseId,
        source: 'manual',
        rule: 'manual',
        objectKey: `manual:${randomUUID()}`,
        subject: input.title,
        level: input.level,
        geometry: place,
        lon,
        lat,
        ...bboxColumns([box[0], box[1], box[2], box[3]]),
        pipeIds: near.slice(0, 50).map((p) => p.pipeId),
        pipeCount: near.length,
        details: {},
        createdBy: userId,
      })
      .returning({ id: alerts.id });
    await tx.insert(alertEvents).values({ alertId: alert.id, userId, action: 'raise', toState: 'new', note: input.note ?? null });
    return alert.id;
  });
}
