import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  ALERT_STEP_FROM,
  ALERT_STEP_TO,
  DEFAULT_ALERT_SETTINGS,
  OPEN_ALERT_STATES,
  type AlertBatchStep,
  type AlertDetail,
  type AlertListQuery,
  type AlertRow,
  type AlertSettings,
  type AlertState,
  type AlertStep,
  type AlertStepInput,
  type AlertSummary,
  type Language,
  type ManualAlertInput,
  type Role,
} from '@console/contract';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { alertEvents, alertPhotos, alerts, alertSettings, levelOrder, memberships, users } from '../../db/schema.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { likePattern } from '../../db/like.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { bboxColumns, bboxOf } from '../../geo/geometry.ts';
import { placeCentre, type Place } from '../../geo/proximity.ts';
import { pipesNear } from '../pipelines/nearby.ts';

/** Pipes within this distance of a hand-raised alert's place are the affected ones. */
const MANUAL_REACH_M = 30;

export const alertCode = (id: number) => `AL-${String(id).padStart(6, '0')}`;

/** Past its deadline: not handled by then (handled late counts too). */
const overdueSql = sql<boolean>`(${alerts.deadline} is not null and ${alerts.state} <> 'falseAlarm' and coalesce(${alerts.handledAt}, now()) > ${alerts.deadline})`;

const rowColumns = {
  id: alerts.id,
  source: alerts.source,
  rule: alerts.rule,
  subject: alerts.subject,
  level: alerts.level,
  state: alerts.state,
  value: alerts.value,
  unit: alerts.unit,
  threshold: alerts.threshold,
  lon: alerts.lon,
  lat: alerts.lat,
  pipeCount: alerts.pipeCount,
  raisedAt: alerts.raisedAt,
  firstResponseAt: alerts.firstResponseAt,
  deadline: alerts.deadline,
  handledAt: alerts.handledAt,
  closedAt: alerts.closedAt,
  overdue: overdueSql,
  supervised: alerts.supervised,
  organisation: alerts.organisation,
  assigneeId: alerts.assigneeId,
  assigneeName: users.realname,
};

type RowRecord = { [K in keyof typeof rowColumns]: unknown } & { id: number; raisedAt: Date; firstResponseAt: Date | null; deadline: Date | null; handledAt: Date | null; closedAt: Date | null };
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
function toRow(r: RowRecord): AlertRow {
  return {
    ...(r as unknown as AlertRow),
    code: alertCode(r.id),
    raisedAt: iso(r.raisedAt)!,
    firstResponseAt: iso(r.firstResponseAt),
    deadline: iso(r.deadline),
    handledAt: iso(r.handledAt),
    closedAt: iso(r.closedAt),
    overdue: Boolean(r.overdue),
  };
}

function listWhere(enterpriseId: number, userId: number, q: Omit<AlertListQuery, 'page' | 'pageSize'>): SQL {
  const conditions: (SQL | undefined)[] = [eq(alerts.enterpriseId, enterpriseId)];
  if (q.state === 'open') conditions.push(inArray(alerts.state, OPEN_ALERT_STATES));
  else if (q.state) conditions.push(eq(alerts.state, q.state));
  if (q.level) conditions.push(eq(alerts.level, q.level));
  if (q.source) conditions.push(eq(alerts.source, q.source));
  if (q.overdue) conditions.push(q.overdue === 'true' ? overdueSql : sql`not ${overdueSql}`);
  if (q.supervised) conditions.push(eq(alerts.supervised, q.supervised === 'true'));
  if (q.mine === 'true') conditions.push(eq(alerts.assigneeId, userId));
  if (q.keyword) {
    const code = /^AL-?0*(\d+)$/i.exec(q.keyword);
    conditions.push(or(ilike(alerts.subject, likePattern(q.keyword)), code ? eq(alerts.id, Number(code[1])) : undefined));
  }
  return and(...conditions)!;
}

/** Alerts, the gravest first, then the latest raised (new arrivals also come to the bell). */
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

/** The figures of the alert page and the big screen, counted in one statement. */
export async function alertSummary(db: Db, enterpriseId: number): Promise<AlertSummary> {
  const [r] = await queryRows<Record<string, number | null>>(
    db,
    sql`select
          count(*) filter (where ${inArray(alerts.state, OPEN_ALERT_STATES)})::int as open,
          ${sql.join(
            (['new', 'confirmed', 'falseAlarm', 'dispatched', 'handling', 'handled', 'closed'] as AlertState[]).map((s) => sql`count(*) filter (where ${alerts.state} = ${s})::int as ${sql.identifier(`state_${s}`)}`),
            sql`, `,
          )},
          ${sql.join(
            (['I', 'II', 'III', 'IV'] as const).map((l) => sql`count(*) filter (where ${alerts.level} = ${l} and ${inArray(alerts.state, OPEN_ALERT_STATES)})::int as ${sql.identifier(`level_${l}`)}`),
            sql`, `,
          )},
          count(*) filter (where ${overdueSql} and ${inArray(alerts.state, OPEN_ALERT_STATES)})::int as overdue,
          count(*) filter (where ${alerts.supervised} and ${inArray(alerts.state, OPEN_ALERT_STATES)})::int as supervised,
          count(*) filter (where ${alerts.handledAt} is not null and ${alerts.deadline} is not null)::int as handled,
          count(*) filter (where ${alerts.handledAt} is not null and ${alerts.deadline} is not null and ${alerts.handledAt} <= ${alerts.deadline})::int as on_time,
          (percentile_cont(0.5) within group (order by extract(epoch from ${alerts.firstResponseAt} - ${alerts.raisedAt})) filter (where ${alerts.firstResponseAt} is not null)) / 60 as median_response
        from ${alerts} where ${alerts.enterpriseId} = ${enterpriseId}`,
  );
  const n = (key: string) => Number(r[key] ?? 0);
  const handled = n('handled');
  return {
    open: n('open'),
    byState: { new: n('state_new'), confirmed: n('state_confirmed'), falseAlarm: n('state_falseAlarm'), dispatched: n('state_dispatched'), handling: n('state_handling'), handled: n('state_handled'), closed: n('state_closed') },
    byLevel: { I: n('level_I'), II: n('level_II'), III: n('level_III'), IV: n('level_IV') },
    overdue: n('overdue'),
    supervised: n('supervised'),
    onTimeRate: handled ? Math.round((n('on_time') / handled) * 1000) / 1000 : null,
    medianFirstResponseMin: r.median_response === null ? null : Math.round(Number(r.median_response) * 10) / 10,
  };
}

/** The open alerts' places (the map), the gravest first. */
export async function openAlertPlaces(db: Db, enterpriseId: number, limit = 2000) {
  const rows = await db
    .select({ id: alerts.id, rule: alerts.rule, subject: alerts.subject, level: alerts.level, state: alerts.state, lon: alerts.lon, lat: alerts.lat })
    .from(alerts)
    .where(and(eq(alerts.enterpriseId, enterpriseId), inArray(alerts.state, OPEN_ALERT_STATES)))
    .orderBy(levelOrder(alerts.level), desc(alerts.raisedAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, code: alertCode(r.id) }));
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
  const photos = events.length
    ? await db.select({ id: alertPhotos.id, eventId: alertPhotos.eventId, fileName: alertPhotos.fileName }).from(alertPhotos).where(inArray(alertPhotos.eventId, events.map((e) => e.id)))
    : [];
  return {
    ...toRow(row as RowRecord),
    geometry: row.geometry,
    pipeIds: row.pipeIds,
    details: row.details,
    objectId: row.objectId,
    assignedToMe: row.assigneeId === readerId,
    events: events.map(({ userId, ...e }) => ({ ...e, byMe: userId === readerId, at: e.at.toISOString(), photos: photos.filter((p) => p.eventId === e.id).map(({ id: photoId, fileName }) => ({ id: photoId, fileName })) })),
  };
}

export async function getAlertSettings(db: Db, enterpriseId: number): Promise<AlertSettings> {
  const [row] = await db.select({ settings: alertSettings.settings }).from(alertSettings).where(eq(alertSettings.enterpriseId, enterpriseId));
  return row?.settings ?? DEFAULT_ALERT_SETTINGS;
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

const STATE_NAMES: Record<AlertState, Record<Language, string>> = {
  new: { 'en-US': 'new', 'zh-CN': '待确认' },
  confirmed: { 'en-US': 'confirmed', 'zh-CN': '已确认' },
  falseAlarm: { 'en-US': 'a false alarm', 'zh-CN': '误报' },
  dispatched: { 'en-US': 'dispatched', 'zh-CN': '已派单' },
  handling: { 'en-US': 'being handled', 'zh-CN': '处置中' },
  handled: { 'en-US': 'handled', 'zh-CN': '已处置' },
  closed: { 'en-US': 'closed', 'zh-CN': '已关闭' },
};
const STEP_NAMES: Record<AlertStep, Record<Language, string>> = {
  confirm: { 'en-US': 'confirmed', 'zh-CN': '确认' },
  falseAlarm: { 'en-US': 'marked a false alarm', 'zh-CN': '标记为误报' },
  dispatch: { 'en-US': 'dispatched', 'zh-CN': '派单' },
  accept: { 'en-US': 'accepted', 'zh-CN': '接单' },
  handle: { 'en-US': 'reported handled', 'zh-CN': '反馈处置结果' },
  close: { 'en-US': 'closed', 'zh-CN': '审核关闭' },
  reject: { 'en-US': 'sent back', 'zh-CN': '退回' },
  reopen: { 'en-US': 'reopened', 'zh-CN': '重新打开' },
  supervise: { 'en-US': 'supervised', 'zh-CN': '挂牌督办' },
  note: { 'en-US': 'given a note', 'zh-CN': '添加备注' },
};
/** Steps that answer the alert: the first of them is its first response. */
const RESPONSES: AlertStep[] = ['confirm', 'falseAlarm', 'dispatch'];
/** Steps only the assignee (or an administrator) takes. */
const ASSIGNEE_STEPS: AlertStep[] = ['accept', 'handle'];

export interface StepActor {
  userId: number;
  role: Role;
}

export interface StepResult {
  alert: AlertDetail;
  /** Set when the step dispatched a level I or II alert: who to text. */
  notify: { phone: string; level: string; deadline: Date } | null;
}

/**
 * One step of an alert within the caller's transaction, with its timeline entry: the alert is
 * locked, the step checked against its state (409 naming both when refused), then written.
 * Answers whom to text when the step dispatched a grave alert.
 */
async function applyStep<S extends AlertStep>(tx: Tx, enterpriseId: number, actor: StepActor, id: number, step: S, input: AlertStepInput<S>, now: Date): Promise<StepResult['notify']> {
  let notify: StepResult['notify'] = null;
  const [alert] = await tx.select().from(alerts).where(and(eq(alerts.id, id), eq(alerts.enterpriseId, enterpriseId))).for('update');
  if (!alert) throw notFound('notFound.alert');
  if (!ALERT_STEP_FROM[step].includes(alert.state)) throw new AppError(409, 'alerts.transition', { code: alertCode(alert.id), state: STATE_NAMES[alert.state], action: STEP_NAMES[step] });
  if (ASSIGNEE_STEPS.includes(step) && alert.assigneeId !== actor.userId && actor.role !== 'admin') throw forbidden('alerts.assigneeOnly');
  // Formal supervision is the administrators' decision.
  if (step === 'supervise' && actor.role !== 'admin') throw forbidden();
  const values: Partial<typeof alerts.$inferInsert> = { updatedAt: now };
  const details: Record<string, unknown> = {};
  if (RESPONSES.includes(step) && !alert.firstResponseAt) values.firstResponseAt = now;
  if (step === 'dispatch') {
    const body = input as AlertStepInput<'dispatch'>;
    const [assignee] = await tx
      .select({ id: users.id, phone: users.phone, realname: users.realname })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.userId, body.assigneeId), eq(memberships.status, 'active'), sql`${memberships.role} <> 'viewer'`));
    if (!assignee) throw badRequest('alerts.assignee');
    const settings = await getAlertSettings(tx as unknown as Db, enterpriseId);
    const deadline = body.deadline ? new Date(body.deadline) : new Date(now.getTime() + settings.deadlineHours[alert.level] * 3_600_000);
    Object.assign(values, { organisation: body.organisation, assigneeId: assignee.id, dispatchedAt: now, deadline });
    Object.assign(details, { organisation: body.organisation, assignee: assignee.realname, deadline: deadline.toISOString() });
    if ((alert.level === 'I' || alert.level === 'II') && assignee.phone) notify = { phone: assignee.phone, level: alert.level, deadline };
  }
  if (step === 'handle') values.handledAt = now;
  if (step === 'close') values.closedAt = now;
  if (step === 'reject') values.handledAt = null;
  if (step === 'reopen') Object.assign(values, { handledAt: null, closedAt: null, deadline: null, dispatchedAt: null, assigneeId: null });
  if (step === 'supervise') {
    values.supervised = (input as AlertStepInput<'supervise'>).supervised;
    details.supervised = values.supervised;
  }
  const toState = ALERT_STEP_TO[step] ?? alert.state;
  values.state = toState;
  await tx.update(alerts).set(values).where(eq(alerts.id, id));
  await tx.insert(alertEvents).values({ alertId: id, at: now, userId: actor.userId, action: step, fromState: alert.state, toState, note: (input as { note?: string }).note ?? null, details: Object.keys(details).length ? details : null });
  return notify;
}

/** One step of an alert, in one transaction with its timeline entry. */
export async function stepAlert<S extends AlertStep>(db: Db, enterpriseId: number, actor: StepActor, id: number, step: S, input: AlertStepInput<S>, now = new Date()): Promise<StepResult> {
  let notify: StepResult['notify'] = null;
  try {
    await db.transaction(async (tx) => {
      notify = await applyStep(tx, enterpriseId, actor, id, step, input, now);
    });
  } catch (error) {
    // Reopening while the same rule has raised a new alert on the object: that one is the open one.
    if (step === 'reopen' && uniqueViolation(error)) {
      const [open] = await db
        .select({ id: alerts.id })
        .from(alerts)
        .where(and(eq(alerts.enterpriseId, enterpriseId), inArray(alerts.state, OPEN_ALERT_STATES), sql`(${alerts.rule}, ${alerts.objectKey}) = (select rule, object_key from ${alerts} where id = ${id})`));
      throw new AppError(409, 'alerts.stillOpen', { code: open ? alertCode(open.id) : '' });
    }
    throw error;
  }
  return { alert: await getAlert(db, enterpriseId, id, actor.userId), notify };
}

/**
 * The same step on many alerts of the list, all or none: one transaction takes them in id order
 * (two people's batches cannot wait on each other), and one alert the step does not fit (another
 * enterprise's, or already past it) refuses the whole batch, naming that alert. Answers the ids.
 */
export async function stepAlerts<S extends AlertBatchStep>(db: Db, enterpriseId: number, actor: StepActor, ids: number[], step: S, input: AlertStepInput<S>, now = new Date()): Promise<number[]> {
  const ordered = [...new Set(ids)].sort((x, y) => x - y);
  await db.transaction(async (tx) => {
    for (const id of ordered) await applyStep(tx, enterpriseId, actor, id, step, input, now);
  });
  return ordered;
}

/** Alerts as the live stream and the rules' callers announce them. */
export async function liveEventsOf(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: alerts.id, enterpriseId: alerts.enterpriseId, rule: alerts.rule, subject: alerts.subject, level: alerts.level, state: alerts.state })
    .from(alerts)
    .where(inArray(alerts.id, ids));
  return rows.map((r) => ({ ...r, code: alertCode(r.id) }));
}
