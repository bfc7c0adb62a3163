import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  ALERT_STEP_FROM,
  ALERT_STEP_TO,
  MEMBERS_SHOWN,
  NETWORK_SHOWN,
  OPEN_ALERT_STATES,
  type AlertBatchStep,
  type AlertListQuery,
  type AlertState,
  type AlertStep,
  type AlertStepInput,
  type AlertSummary,
  type CrewIncident,
  type IncidentDetail,
  type IncidentKind,
  type IncidentRow,
  type Language,
  type Role,
} from '@console/contract';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { alertEvents, alertPhotos, alerts, incidentEvents, incidents, levelOrder, memberships, pipes, users } from '../../db/schema.ts';
import { grownBox } from '../../geo/proximity.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { likePattern } from '../../db/like.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { incidentCode } from './grouping.ts';
import { alertCode, getAlertSettings } from './service.ts';
import { overdueOf, workDates, workFilters, workListColumns } from './work.ts';

/**
 * Incidents: the alerts of one cause, worked as one. Every step is taken on the incident and
 * recorded on each of its members, whose state follows it, so an alert's own list and timeline
 * always say where its work stands.
 */

const overdueSql = overdueOf(incidents);
const kindSql = sql<IncidentKind>`split_part(${incidents.groupKey}, ':', 1)`;

const rowColumns = { id: incidents.id, kind: kindSql, memberCount: incidents.memberCount, ...workListColumns(incidents) };

type RowRecord = { [K in keyof typeof rowColumns]: unknown } & { id: number; raisedAt: Date; firstResponseAt: Date | null; deadline: Date | null; handledAt: Date | null; closedAt: Date | null };
const toRow = (r: RowRecord): IncidentRow => ({ ...(r as unknown as IncidentRow), code: incidentCode(r.id), ...workDates(r) });

/** The desk's filters; a keyword finds an incident by its code, its subject, or a member's code or subject (a pipe id). */
function listWhere(enterpriseId: number, userId: number, q: Omit<AlertListQuery, 'page' | 'pageSize'>): SQL {
  const conditions = workFilters(incidents, enterpriseId, userId, q);
  if (q.keyword) {
    const incident = /^IN-?0*(\d+)$/i.exec(q.keyword);
    const alert = /^AL-?0*(\d+)$/i.exec(q.keyword);
    conditions.push(
      or(
        ilike(incidents.subject, likePattern(q.keyword)),
        incident ? eq(incidents.id, Number(incident[1])) : undefined,
        sql`exists (select 1 from ${alerts} m where m.incident_id = ${incidents.id} and (m.subject ilike ${likePattern(q.keyword)}${alert ? sql` or m.id = ${Number(alert[1])}` : sql``}))`,
      ),
    );
  }
  return and(...conditions)!;
}

/** Incidents, the gravest first, then the latest raised. */
export async function listIncidents(db: Db, enterpriseId: number, userId: number, q: AlertListQuery) {
  const where = listWhere(enterpriseId, userId, q);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(rowColumns)
      .from(incidents)
      .leftJoin(users, eq(users.id, incidents.assigneeId))
      .where(where)
      .orderBy(levelOrder(incidents.level), desc(incidents.raisedAt), desc(incidents.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: sql<number>`count(*)::int` }).from(incidents).where(where),
  ]);
  return { list: rows.map((r) => toRow(r as RowRecord)), total: Number(total), page: q.page, pageSize: q.pageSize };
}

const STATE_COLUMNS: AlertState[] = ['new', 'confirmed', 'falseAlarm', 'dispatched', 'handling', 'handled', 'closed'];

/** The desk's and the big screen's figures, over incidents, in one statement each table. */
export async function incidentSummary(db: Db, enterpriseId: number): Promise<AlertSummary> {
  const open = inArray(incidents.state, OPEN_ALERT_STATES);
  const [r] = await queryRows<Record<string, number | null>>(
    db,
    sql`select
          count(*) filter (where ${open})::int as open,
          (select count(*)::int from ${alerts} where ${alerts.enterpriseId} = ${enterpriseId} and ${inArray(alerts.state, OPEN_ALERT_STATES)}) as open_alerts,
          ${sql.join(STATE_COLUMNS.map((s) => sql`count(*) filter (where ${incidents.state} = ${s})::int as ${sql.identifier(`state_${s}`)}`), sql`, `)},
          ${sql.join((['I', 'II', 'III', 'IV'] as const).map((l) => sql`count(*) filter (where ${incidents.level} = ${l} and ${open})::int as ${sql.identifier(`level_${l}`)}`), sql`, `)},
          count(*) filter (where ${overdueSql} and ${open})::int as overdue,
          count(*) filter (where ${incidents.supervised} and ${open})::int as supervised,
          count(*) filter (where ${incidents.handledAt} is not null and ${incidents.deadline} is not null)::int as handled,
          count(*) filter (where ${incidents.handledAt} is not null and ${incidents.deadline} is not null and ${incidents.handledAt} <= ${incidents.deadline})::int as on_time,
          (percentile_cont(0.5) within group (order by extract(epoch from ${incidents.firstResponseAt} - ${incidents.raisedAt})) filter (where ${incidents.firstResponseAt} is not null)) / 60 as median_response
        from ${incidents} where ${incidents.enterpriseId} = ${enterpriseId}`,
  );
  const n = (key: string) => Number(r[key] ?? 0);
  const handled = n('handled');
  return {
    open: n('open'),
    openAlerts: n('open_alerts'),
    byState: Object.fromEntries(STATE_COLUMNS.map((s) => [s, n(`state_${s}`)])) as AlertSummary['byState'],
    byLevel: { I: n('level_I'), II: n('level_II'), III: n('level_III'), IV: n('level_IV') },
    overdue: n('overdue'),
    supervised: n('supervised'),
    onTimeRate: handled ? Math.round((n('on_time') / handled) * 1000) / 1000 : null,
    medianFirstResponseMin: r.median_response === null ? null : Math.round(Number(r.median_response) * 10) / 10,
  };
}

/** The open incidents' places (the map), the gravest first. */
export async function openIncidentPlaces(db: Db, enterpriseId: number, limit = 2000) {
  const rows = await db
    .select({ id: incidents.id, kind: kindSql, subject: incidents.subject, level: incidents.level, state: incidents.state, memberCount: incidents.memberCount, pipeCount: incidents.pipeCount, lon: incidents.lon, lat: incidents.lat })
    .from(incidents)
    .where(and(eq(incidents.enterpriseId, enterpriseId), inArray(incidents.state, OPEN_ALERT_STATES)))
    .orderBy(levelOrder(incidents.level), desc(incidents.raisedAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, code: incidentCode(r.id) }));
}

/** The latest raised incidents (the big screen's rolling board). */
export async function latestIncidents(db: Db, enterpriseId: number, limit: number) {
  const rows = await db
    .select({ id: incidents.id, kind: kindSql, subject: incidents.subject, level: incidents.level, state: incidents.state, memberCount: incidents.memberCount, pipeCount: incidents.pipeCount, raisedAt: incidents.raisedAt })
    .from(incidents)
    .where(eq(incidents.enterpriseId, enterpriseId))
    .orderBy(desc(incidents.raisedAt), desc(incidents.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, code: incidentCode(r.id), raisedAt: r.raisedAt.toISOString() }));
}

/** One incident as `readerId` sees it: its members (the gravest first), its place and one timeline. */
export async function getIncident(db: Db, enterpriseId: number, id: number, readerId: number): Promise<IncidentDetail> {
  const [row] = await db
    .select({ ...rowColumns, geometry: incidents.geometry, pipeIds: incidents.pipeIds })
    .from(incidents)
    .leftJoin(users, eq(users.id, incidents.assigneeId))
    .where(and(eq(incidents.id, id), eq(incidents.enterpriseId, enterpriseId)));
  if (!row) throw notFound('notFound.incident');
  const [members, events] = await Promise.all([
    db
      .select({ id: alerts.id, rule: alerts.rule, subject: alerts.subject, level: alerts.level, value: alerts.value, unit: alerts.unit, threshold: alerts.threshold, raisedAt: alerts.raisedAt, pipeCount: alerts.pipeCount, objectId: alerts.objectId, geometry: alerts.geometry, details: alerts.details, clearedAt: alerts.clearedAt })
      .from(alerts)
      .where(eq(alerts.incidentId, id))
      .orderBy(levelOrder(alerts.level), alerts.id)
      .limit(MEMBERS_SHOWN),
    db
      .select({ id: incidentEvents.id, at: incidentEvents.at, userId: incidentEvents.userId, action: incidentEvents.action, fromState: incidentEvents.fromState, toState: incidentEvents.toState, note: incidentEvents.note, details: incidentEvents.details, userName: users.realname })
      .from(incidentEvents)
      .leftJoin(users, eq(users.id, incidentEvents.userId))
      .where(eq(incidentEvents.incidentId, id))
      .orderBy(incidentEvents.at, incidentEvents.id),
  ]);
  const photos = events.length
    ? await db.select({ id: alertPhotos.id, eventId: alertPhotos.eventId, fileName: alertPhotos.fileName }).from(alertPhotos).where(inArray(alertPhotos.eventId, events.map((e) => e.id)))
    : [];
  const incident = toRow(row as RowRecord);
  return {
    ...incident,
    geometry: row.geometry,
    pipeIds: row.pipeIds,
    members: members.map((m) => ({ ...m, code: alertCode(m.id), raisedAt: m.raisedAt.toISOString(), clearedAt: m.clearedAt?.toISOString() ?? null })),
    moreMembers: Math.max(0, incident.memberCount - members.length),
    assignedToMe: row.assigneeId === readerId,
    events: events.map(({ userId, ...e }) => ({ ...e, byMe: userId === readerId, at: e.at.toISOString(), photos: photos.filter((p) => p.eventId === e.id).map(({ id: photoId, fileName }) => ({ id: photoId, fileName })) })),
  };
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
/** Steps that answer the incident: the first of them is its first response. */
const RESPONSES: AlertStep[] = ['confirm', 'falseAlarm', 'dispatch'];
/** Steps only the assignee (or an administrator) takes. */
const ASSIGNEE_STEPS: AlertStep[] = ['accept', 'handle'];

export interface StepActor {
  userId: number;
  role: Role;
}

export interface StepResult {
  incident: IncidentDetail;
  /** Set when the step dispatched a level I or II incident: who to text. */
  notify: { phone: string; level: string; deadline: Date } | null;
}

/**
 * One step of an incident within the caller's transaction: the incident is locked, the step
 * checked against its state (409 naming both when refused), written with its timeline entry, and
 * mirrored on every member with an entry on each member's timeline. Answers whom to text when the
 * step dispatched a grave incident, and the entry's id.
 */
async function applyStep<S extends AlertStep>(tx: Tx, enterpriseId: number, actor: StepActor, id: number, step: S, input: AlertStepInput<S>, now: Date, key?: string) {
  let notify: StepResult['notify'] = null;
  const [incident] = await tx.select().from(incidents).where(and(eq(incidents.id, id), eq(incidents.enterpriseId, enterpriseId))).for('update');
  if (!incident) throw notFound('notFound.incident');
  // Sent again (a phone that lost the answer): the entry its key wrote stands; nothing is done twice.
  // Looked for under the incident's lock, so a replay racing its original waits and finds it.
  if (key) {
    const [done] = await tx.select({ id: incidentEvents.id }).from(incidentEvents).where(and(eq(incidentEvents.incidentId, id), eq(incidentEvents.idempotencyKey, key)));
    if (done) return { notify, eventId: done.id, memberCount: incident.memberCount, replayed: true };
  }
  if (!ALERT_STEP_FROM[step].includes(incident.state)) throw new AppError(409, 'alerts.transition', { code: incidentCode(incident.id), state: STATE_NAMES[incident.state], action: STEP_NAMES[step] });
  if (ASSIGNEE_STEPS.includes(step) && incident.assigneeId !== actor.userId && actor.role !== 'admin') throw forbidden('alerts.assigneeOnly');
  // Formal supervision is the administrators' decision.
  if (step === 'supervise' && actor.role !== 'admin') throw forbidden();
  const values: Partial<typeof incidents.$inferInsert> = { updatedAt: now };
  const details: Record<string, unknown> = {};
  if (RESPONSES.includes(step) && !incident.firstResponseAt) values.firstResponseAt = now;
  if (step === 'dispatch') {
    const body = input as AlertStepInput<'dispatch'>;
    const [assignee] = await tx
      .select({ id: users.id, phone: users.phone, realname: users.realname })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.userId, body.assigneeId), eq(memberships.status, 'active'), sql`${memberships.role} <> 'viewer'`));
    if (!assignee) throw badRequest('alerts.assignee');
    const settings = await getAlertSettings(tx as unknown as Db, enterpriseId);
    const deadline = body.deadline ? new Date(body.deadline) : new Date(now.getTime() + settings.deadlineHours[incident.level] * 3_600_000);
    Object.assign(values, { organisation: body.organisation, assigneeId: assignee.id, dispatchedAt: now, deadline });
    Object.assign(details, { organisation: body.organisation, assignee: assignee.realname, deadline: deadline.toISOString() });
    if ((incident.level === 'I' || incident.level === 'II') && assignee.phone) notify = { phone: assignee.phone, level: incident.level, deadline };
  }
  if (step === 'handle') values.handledAt = now;
  if (step === 'close') values.closedAt = now;
  if (step === 'reject') values.handledAt = null;
  if (step === 'reopen') Object.assign(values, { handledAt: null, closedAt: null, deadline: null, dispatchedAt: null, assigneeId: null });
  if (step === 'supervise') {
    values.supervised = (input as AlertStepInput<'supervise'>).supervised;
    details.supervised = values.supervised;
  }
  const toState = ALERT_STEP_TO[step] ?? incident.state;
  values.state = toState;
  const note = (input as { note?: string }).note ?? null;
  const entry = { at: now, userId: actor.userId, action: step, fromState: incident.state, toState, note, details: Object.keys(details).length ? details : null };
  await tx.update(incidents).set(values).where(eq(incidents.id, id));
  const [event] = await tx.insert(incidentEvents).values({ incidentId: id, ...entry, idempotencyKey: key ?? null }).returning({ id: incidentEvents.id });
  // Its members follow: the same columns, and the step on each member's own timeline.
  const { updatedAt, firstResponseAt, ...mirrored } = values;
  await tx
    .update(alerts)
    .set({ ...mirrored, updatedAt, ...(firstResponseAt ? { firstResponseAt: sql`coalesce(${alerts.firstResponseAt}, ${firstResponseAt})` } : {}) })
    .where(eq(alerts.incidentId, id));
  await tx.execute(
    sql`insert into ${alertEvents} (alert_id, at, user_id, action, from_state, to_state, note, details)
        select id, ${now}, ${actor.userId}, ${step}, ${incident.state}, ${toState}, ${note}, ${JSON.stringify({ ...details, incidentId: id, incident: incidentCode(id) })}::jsonb
        from ${alerts} where incident_id = ${id}`,
  );
  return { notify, eventId: event.id, memberCount: incident.memberCount, replayed: false };
}

/** One step of an incident, in one transaction with its timelines; with a key, at most once. */
export async function stepIncident<S extends AlertStep>(db: Db, enterpriseId: number, actor: StepActor, id: number, step: S, input: AlertStepInput<S>, now = new Date(), key?: string): Promise<StepResult & { eventId: number; replayed: boolean }> {
  let applied!: Awaited<ReturnType<typeof applyStep>>;
  try {
    await db.transaction(async (tx) => {
      applied = await applyStep(tx, enterpriseId, actor, id, step, input, now, key);
    });
  } catch (error) {
    // Reopening while a rule has raised a new alert on one of its objects: that one is the open one.
    if (step === 'reopen' && uniqueViolation(error)) {
      const [open] = await db
        .select({ id: alerts.id })
        .from(alerts)
        .where(
          and(
            eq(alerts.enterpriseId, enterpriseId),
            inArray(alerts.state, OPEN_ALERT_STATES),
            sql`(${alerts.rule}, ${alerts.objectKey}) in (select rule, object_key from ${alerts} where incident_id = ${id})`,
          ),
        )
        .limit(1);
      throw new AppError(409, 'alerts.stillOpen', { code: open ? alertCode(open.id) : '' });
    }
    throw error;
  }
  return { incident: await getIncident(db, enterpriseId, id, actor.userId), notify: applied.notify, eventId: applied.eventId, replayed: applied.replayed };
}

/** States in which an incident is the crew's to work (and to keep on the phone). */
const CREW_STATES: AlertState[] = ['dispatched', 'handling', 'handled'];
const CREW_INCIDENTS_SHOWN = 50;

/**
 * The incidents dispatched to the reader and not yet closed, the soonest due first, each whole
 * (members, timeline) with the pipes around it: what the phone keeps to work them offline.
 */
export async function crewIncidents(db: Db, enterpriseId: number, userId: number): Promise<CrewIncident[]> {
  const rows = await db
    .select({ id: incidents.id, minx: incidents.minx, miny: incidents.miny, maxx: incidents.maxx, maxy: incidents.maxy })
    .from(incidents)
    .where(and(eq(incidents.enterpriseId, enterpriseId), eq(incidents.assigneeId, userId), inArray(incidents.state, CREW_STATES)))
    .orderBy(incidents.deadline, incidents.id)
    .limit(CREW_INCIDENTS_SHOWN);
  return Promise.all(
    rows.map(async (r) => {
      const [minx, miny, maxx, maxy] = grownBox({ type: 'Polygon', coordinates: [[[r.minx, r.miny], [r.maxx, r.maxy]]] }, NETWORK_REACH_M);
      const network = await db
        .select({ pipeId: pipes.pipeId, networkType: pipes.networkType, geometry: pipes.geometry })
        .from(pipes)
        .where(and(eq(pipes.enterpriseId, enterpriseId), sql`${pipes.maxx} >= ${minx} and ${pipes.minx} <= ${maxx} and ${pipes.maxy} >= ${miny} and ${pipes.miny} <= ${maxy}`))
        .limit(NETWORK_SHOWN);
      return { ...(await getIncident(db, enterpriseId, r.id, userId)), network };
    }),
  );
}
/** The phone's map shows the network this far round an incident. */
const NETWORK_REACH_M = 120;

/**
 * The same step on many incidents of the list, all or none: one transaction takes them in id order
 * (two people's batches cannot wait on each other), and one incident the step does not fit refuses
 * the whole batch, naming it. Answers the ids.
 */
export async function stepIncidents<S extends AlertBatchStep>(db: Db, enterpriseId: number, actor: StepActor, ids: number[], step: S, input: AlertStepInput<S>, now = new Date()): Promise<number[]> {
  const ordered = [...new Set(ids)].sort((x, y) => x - y);
  await db.transaction(async (tx) => {
    for (const id of ordered) await applyStep(tx, enterpriseId, actor, id, step, input, now);
  });
  return ordered;
}

/** Incidents as the live stream announces them. */
export async function liveEventsOf(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: incidents.id, enterpriseId: incidents.enterpriseId, incidentKind: kindSql, subject: incidents.subject, level: incidents.level, state: incidents.state, memberCount: incidents.memberCount, pipeCount: incidents.pipeCount })
    .from(incidents)
    .where(inArray(incidents.id, ids));
  return rows.map((r) => ({ ...r, code: incidentCode(r.id) }));
}
