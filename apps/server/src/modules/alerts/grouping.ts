import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import convexHull from 'monotone-convex-hull-2d';
import { OPEN_ALERT_STATES, RISK_LEVELS, RULE_SOURCE, type AlertRule, type AlertSettings, type AlertState, type IncidentKind, type IncidentTitleParts, type LineGeometry, type RiskLevel } from '@console/contract';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { alertEvents, alerts, incidentEvents, incidents, levelOrder, OPEN_ALERT_SQL } from '../../db/schema.ts';
import { bboxColumns } from '../../geo/geometry.ts';
import { closest, grownBox, localFrame, type Place } from '../../geo/proximity.ts';
import { nameOfPlace } from './places.ts';

/** Pipes whose risk rose are one run when they touch (a joint's survey error allowed). */
const RUN_GAP_M = 1;
/** Sensor alerts within this distance of each other, and raised within this time of each other, are one incident. */
const SENSOR_GAP_M = 100;
const SENSOR_WITHIN_MS = 30 * 60_000;
/** Alerts grouped per check at most (a flood waits for the next check, as raising does). */
const GROUP_LIMIT = 5_000;
/** Members whose shapes make an incident's hull at most (past it, the hull of the first ones). */
const HULL_MEMBERS = 5_000;
/** The advisory lock's first key: the grouping of one enterprise at a time, across servers. */
const GROUPING_LOCK = 0x1c1d;

export const incidentCode = (id: number) => `IN-${String(id).padStart(6, '0')}`;
/** An incident's kind is the first part of its group key ('bowl:12' -> 'bowl'). */
const kindOfKey = (groupKey: string) => groupKey.split(':')[0] as IncidentKind;

type Shape = { type: string; coordinates: unknown };
interface Fresh {
  id: number;
  rule: AlertRule;
  objectKey: string;
  subject: string;
  level: RiskLevel;
  raisedAt: Date;
  details: Record<string, unknown>;
  geometry: Shape;
  minx: number;
  miny: number;
  maxx: number;
  maxy: number;
}

/**
 * What alerts of one cause share. Sites, warnings and leaks: their object (both construction rules
 * on one site make one incident). Settlement alarms of one analysis and risk rises: a cluster of
 * pipes within `gapM` of each other, so one key holds an incident per cluster.
 */
function causeOf(alert: Fresh, settings: AlertSettings): { key: string; gapM: number | null; withinMs?: number } {
  switch (alert.rule) {
    // A gas alarm in a well and a pressure drop on the main beside it are one event on the ground.
    case 'sensorThreshold':
    case 'sensorDrop':
      return { key: 'sensors', gapM: SENSOR_GAP_M, withinMs: SENSOR_WITHIN_MS };
    // Devices out of order behind one gateway: the gateway, most likely (one visit).
    case 'sensorSilent':
    case 'sensorFault':
      return { key: `gateway:${alert.details.gateway ?? alert.objectKey}`, gapM: null };
    case 'settlementThreshold':
      return { key: `bowl:${alert.details.datasetId}`, gapM: settings.bowlGapM };
    case 'pipeRiskRise':
      return { key: 'riskRun', gapM: RUN_GAP_M };
    case 'manual':
      return { key: `manual:${alert.id}`, gapM: null };
    default:
      return { key: alert.objectKey, gapM: null };
  }
}

/** Union-find over indexes. */
function components(n: number, linked: (join: (a: number, b: number) => void) => void): number[][] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  linked((a, b) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  });
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) groups.set(find(i), [...(groups.get(find(i)) ?? []), i]);
  return [...groups.values()];
}

interface Boxed {
  geometry: Shape;
  minx: number;
  miny: number;
  maxx: number;
  maxy: number;
}

/** Pairs of shapes within `gapM` of each other: boxes swept along x, then measured on the ground. */
function nearPairs(shapes: Boxed[], gapM: number, link: (a: number, b: number) => void) {
  const order = shapes.map((_, i) => i).sort((a, b) => shapes[a].minx - shapes[b].minx);
  const grown = shapes.map((s) => grownBox({ type: 'Polygon', coordinates: [[[s.minx, s.miny], [s.maxx, s.maxy]]] }, gapM));
  for (let i = 0; i < order.length; i++) {
    const a = order[i];
    for (let j = i + 1; j < order.length && shapes[order[j]].minx <= grown[a][2]; j++) {
      const b = order[j];
      if (shapes[b].maxy < grown[a][1] || shapes[b].miny > grown[a][3]) continue;
      const frame = localFrame([shapes[a].minx, shapes[a].miny]);
      if (closest(shapes[a].geometry as Place, shapes[b].geometry as LineGeometry, frame).distanceM <= gapM) link(a, b);
    }
  }
}

/** Every position of a GeoJSON shape (a point, a line, an area). */
function positionsOf(shapes: Shape[]): number[][] {
  const positions: number[][] = [];
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') positions.push(c as number[]);
    else if (Array.isArray(c)) c.forEach(walk);
  };
  shapes.forEach((s) => walk(s.coordinates));
  return positions;
}

/** An incident's place: its one member's shape, or the hull of every member's positions. */
function placeOf(shapes: Shape[]): { geometry: Shape; lon: number; lat: number; box: [number, number, number, number] } {
  const positions = positionsOf(shapes);
  const xs = positions.map((p) => p[0]);
  const ys = positions.map((p) => p[1]);
  const box: [number, number, number, number] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  const centre = { lon: (box[0] + box[2]) / 2, lat: (box[1] + box[3]) / 2 };
  if (shapes.length === 1) return { geometry: shapes[0], ...centre, box };
  const ring = convexHull(positions).map((i) => positions[i]);
  // Members along one straight line have no area: the line is the place.
  const geometry = ring.length >= 3 ? { type: 'Polygon', coordinates: [[...ring, ring[0]]] } : { type: 'LineString', coordinates: ring };
  return { geometry, ...centre, box };
}

export interface IncidentEscalation extends IncidentTitleParts {
  id: number;
  code: string;
  level: RiskLevel;
  /** Set when it is dispatched or being handled: its assignee's phone and the deadline now. */
  assigned: { phone: string; deadline: Date } | null;
}

/** Alerts whose rule stopped finding them (cleared) or found them again (recurred) in a check. */
export interface Clearing {
  cleared: number[];
  recurred: number[];
}

export interface GroupingResult {
  raised: number[];
  changed: number[];
  escalated: IncidentEscalation[];
}

/**
 * Puts the alerts raised since the last grouping into incidents (a new one per cause, or the open
 * incident of their cause), then brings the figures of every incident touched (and of those whose
 * members a check found graver) up to date. One enterprise's grouping holds an advisory lock for
 * its transaction: two servers grouping at once take turns, and the second finds nothing left.
 */
export async function groupAlerts(db: Db, enterpriseId: number, settings: AlertSettings, escalatedAlerts: number[], now = new Date(), clearing: Clearing = { cleared: [], recurred: [] }): Promise<GroupingResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${GROUPING_LOCK}, ${enterpriseId})`);
    const fresh = (await tx
      .select({ id: alerts.id, rule: alerts.rule, objectKey: alerts.objectKey, subject: alerts.subject, level: alerts.level, raisedAt: alerts.raisedAt, details: alerts.details, geometry: alerts.geometry, minx: alerts.minx, miny: alerts.miny, maxx: alerts.maxx, maxy: alerts.maxy })
      .from(alerts)
      .where(and(eq(alerts.enterpriseId, enterpriseId), isNull(alerts.incidentId)))
      .orderBy(levelOrder(alerts.level), alerts.id)
      .limit(GROUP_LIMIT)) as Fresh[];

    const byCause = new Map<string, { gapM: number | null; withinMs?: number; members: Fresh[] }>();
    for (const alert of fresh) {
      const cause = causeOf(alert, settings);
      const entry = byCause.get(cause.key) ?? { ...cause, members: [] };
      entry.members.push(alert);
      byCause.set(cause.key, entry);
    }
    const created: number[] = [];
    const joined = new Map<number, Fresh[]>();
    const join = (incidentId: number, members: Fresh[]) => joined.set(incidentId, [...(joined.get(incidentId) ?? []), ...members]);
    for (const [key, { gapM, withinMs, members }] of byCause) {
      const groups = gapM === null ? [{ members, existing: await openIncidentsOf(tx, enterpriseId, key) }] : await clusters(tx, enterpriseId, key, gapM, members, withinMs === undefined ? null : new Date(now.getTime() - withinMs));
      for (const group of groups) {
        // Bridging two open incidents joins the older: each may already be worked by its own crew.
        // A new one is named from its own members (the gravest first), never from another cluster's.
        const target = group.existing.length ? Math.min(...group.existing) : await createIncident(tx, enterpriseId, key, group.members[0].subject, group.members[0], now);
        if (!group.existing.length) created.push(target);
        join(target, group.members);
      }
    }
    for (const [incidentId, members] of joined) await addMembers(tx, incidentId, members, created.includes(incidentId), now);

    const graver = escalatedAlerts.length
      ? (await tx.selectDistinct({ id: alerts.incidentId }).from(alerts).where(inArray(alerts.id, escalatedAlerts))).map((r) => r.id!).filter(Boolean)
      : [];
    const clearedIn = [...(await noteClearing(tx, clearing.cleared, true, now)), ...(await noteClearing(tx, clearing.recurred, false, now))];
    const touched = [...new Set([...joined.keys(), ...graver])];
    const escalated = await refreshIncidents(tx, touched, settings, now);
    const changed = [...new Set([...touched, ...clearedIn])].filter((id) => !created.includes(id));
    return { raised: created, changed, escalated };
  });
}

/**
 * An incident's timeline says which of its alerts its rules no longer find (or find again); the
 * incident stays as it is, open, for people to close. Answers the incidents concerned.
 */
async function noteClearing(tx: Tx, alertIds: number[], cleared: boolean, now: Date) {
  if (!alertIds.length) return [];
  const rows = await tx.select({ id: alerts.id, subject: alerts.subject, incidentId: alerts.incidentId, state: alerts.state }).from(alerts).where(inArray(alerts.id, alertIds));
  const byIncident = new Map<number, typeof rows>();
  for (const row of rows) if (row.incidentId !== null) byIncident.set(row.incidentId, [...(byIncident.get(row.incidentId) ?? []), row]);
  for (const [incidentId, members] of byIncident) {
    await tx.insert(incidentEvents).values({ incidentId, at: now, action: 'clear', fromState: members[0].state, toState: members[0].state, details: { cleared, count: members.length, alerts: members.slice(0, 20).map((m) => ({ id: m.id, subject: m.subject })) } });
  }
  return [...byIncident.keys()];
}

/** The open incidents of a cause (one at most for a site, a warning or a leak). */
async function openIncidentsOf(tx: Tx, enterpriseId: number, key: string) {
  const rows = await tx.select({ id: incidents.id }).from(incidents).where(and(eq(incidents.enterpriseId, enterpriseId), eq(incidents.groupKey, key), OPEN_ALERT_SQL)).orderBy(incidents.id).limit(1);
  return rows.map((r) => r.id);
}

/** New alerts of a spatial cause in clusters, each with the open incidents of the cause it reaches (through members raised since `since`, when given). */
async function clusters(tx: Tx, enterpriseId: number, key: string, gapM: number, members: Fresh[], since: Date | null) {
  const reach = grownBox({ type: 'Polygon', coordinates: [[[Math.min(...members.map((m) => m.minx)), Math.min(...members.map((m) => m.miny))], [Math.max(...members.map((m) => m.maxx)), Math.max(...members.map((m) => m.maxy))]]] }, gapM);
  const grouped = await queryRows<Boxed & { incident_id: number }>(
    tx,
    sql`select a.incident_id, a.geometry, a.minx, a.miny, a.maxx, a.maxy from alerts a join incidents i on i.id = a.incident_id
        where i.enterprise_id = ${enterpriseId} and i.group_key = ${key} and i.state in (${sql.join(OPEN_ALERT_STATES.map((s) => sql`${s}`), sql`, `)})
          and a.maxx >= ${reach[0]} and a.minx <= ${reach[2]} and a.maxy >= ${reach[1]} and a.miny <= ${reach[3]}
          ${since ? sql`and a.raised_at >= ${since}` : sql``}`,
  );
  const shapes: Boxed[] = [...members, ...grouped];
  return components(shapes.length, (link) => nearPairs(shapes, gapM, link))
    .filter((indexes) => indexes.some((i) => i < members.length))
    .map((indexes) => ({
      members: indexes.filter((i) => i < members.length).map((i) => members[i]),
      existing: [...new Set(indexes.filter((i) => i >= members.length).map((i) => grouped[i - members.length].incident_id))],
    }));
}

async function createIncident(tx: Tx, enterpriseId: number, key: string, subject: string, first: Fresh, now: Date) {
  // One raised by hand is its author's, with the author's note.
  const [raise] = first.rule === 'manual' ? await tx.select({ userId: alertEvents.userId, note: alertEvents.note }).from(alertEvents).where(and(eq(alertEvents.alertId, first.id), eq(alertEvents.action, 'raise'))) : [];
  const [incident] = await tx
    .insert(incidents)
    .values({ enterpriseId, source: RULE_SOURCE[first.rule], groupKey: key, subject, level: first.level, geometry: first.geometry, lon: (first.minx + first.maxx) / 2, lat: (first.miny + first.maxy) / 2, ...bboxColumns([first.minx, first.miny, first.maxx, first.maxy]), raisedAt: first.raisedAt, createdBy: raise?.userId ?? null, updatedAt: now })
    .returning({ id: incidents.id });
  await tx.insert(incidentEvents).values({ incidentId: incident.id, at: first.raisedAt, userId: raise?.userId ?? null, action: 'raise', toState: 'new', note: raise?.note ?? null });
  return incident.id;
}

/**
 * Alerts join an incident: they take its state and assignment (a bowl being dug up gains a segment
 * that is dug up with it), each member's timeline says so, and the incident's says which joined.
 */
async function addMembers(tx: Tx, incidentId: number, members: Fresh[], isNew: boolean, now: Date) {
  const ids = members.map((m) => m.id);
  const [incident] = await tx.select().from(incidents).where(eq(incidents.id, incidentId));
  await tx
    .update(alerts)
    .set({ incidentId, state: incident.state, organisation: incident.organisation, assigneeId: incident.assigneeId, dispatchedAt: incident.dispatchedAt, deadline: incident.deadline, handledAt: incident.handledAt, supervised: incident.supervised, updatedAt: now })
    .where(inArray(alerts.id, ids));
  await tx.insert(alertEvents).values(members.map((m) => ({ alertId: m.id, at: now, action: 'join' as const, fromState: 'new' as AlertState, toState: incident.state, details: { incidentId, incident: incidentCode(incidentId) } })));
  if (!isNew) {
    await tx.insert(incidentEvents).values({ incidentId, at: now, action: 'join', fromState: incident.state, toState: incident.state, details: { count: members.length, alerts: members.slice(0, 20).map((m) => ({ id: m.id, subject: m.subject, level: m.level })) } });
  }
}

/**
 * Where and which, as its title says it: the street (or project) at its centre and its gravest
 * member's code. Warnings keep their headline (a city-wide warning has no one street) and one
 * raised by hand the title its author gave.
 */
async function subjectOf(tx: Tx, incident: { enterpriseId: number; groupKey: string; subject: string }, lead: string, place: { lon: number; lat: number }) {
  const kind = kindOfKey(incident.groupKey);
  if (kind === 'manual') return incident.subject;
  if (kind === 'warning') return lead;
  const name = await nameOfPlace(tx, incident.enterpriseId, place.lon, place.lat);
  return name ? `${name} · ${lead}` : lead;
}

/**
 * An incident's figures from its members: its level (the gravest; a rise is an escalation on its
 * timeline and brings a dispatched incident's deadline forward, never back), count, pipes and place.
 */
async function refreshIncidents(tx: Tx, ids: number[], settings: AlertSettings, now: Date): Promise<IncidentEscalation[]> {
  if (!ids.length) return [];
  const figures = await queryRows<{ id: number; level: RiskLevel; lead: string; members: number; pipe_ids: string[]; pipe_count: number }>(
    tx,
    sql`select a.incident_id as id, (array_agg(a.level order by ${levelOrder(sql`a.level`)}))[1] as level, count(*)::int as members,
          (array_agg(a.subject order by ${levelOrder(sql`a.level`)}, a.id))[1] as lead,
          (array(select p from (select distinct unnest(b.pipe_ids) p from alerts b where b.incident_id = a.incident_id) x order by p limit 50)) as pipe_ids,
          greatest(max(a.pipe_count), (select count(distinct p)::int from alerts b, unnest(b.pipe_ids) p where b.incident_id = a.incident_id)) as pipe_count
        from alerts a where a.incident_id in ${sql`(${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`}
        group by a.incident_id`,
  );
  const escalations: IncidentEscalation[] = [];
  for (const f of figures) {
    const shapes = await tx.select({ geometry: alerts.geometry }).from(alerts).where(eq(alerts.incidentId, f.id)).orderBy(alerts.id).limit(HULL_MEMBERS);
    const place = placeOf(shapes.map((s) => s.geometry));
    const [before] = await tx.select().from(incidents).where(eq(incidents.id, f.id)).for('update');
    const graver = RISK_LEVELS.indexOf(f.level) < RISK_LEVELS.indexOf(before.level);
    const subject = await subjectOf(tx, before, f.lead, place);
    const deadline =
      graver && before.deadline ? new Date(Math.min(before.deadline.getTime(), now.getTime() + settings.deadlineHours[f.level] * 3_600_000)) : before.deadline;
    await tx
      .update(incidents)
      .set({ subject, level: graver ? f.level : before.level, memberCount: f.members, pipeIds: f.pipe_ids, pipeCount: f.pipe_count, geometry: place.geometry, lon: place.lon, lat: place.lat, ...bboxColumns(place.box), deadline, updatedAt: now })
      .where(eq(incidents.id, f.id));
    if (!graver) continue;
    await tx.insert(incidentEvents).values({ incidentId: f.id, at: now, action: 'escalate', fromState: before.state, toState: before.state, details: { fromLevel: before.level, toLevel: f.level, ...(deadline?.getTime() !== before.deadline?.getTime() ? { deadline } : {}) } });
    if (deadline?.getTime() !== before.deadline?.getTime()) await tx.update(alerts).set({ deadline }).where(eq(alerts.incidentId, f.id));
    const working = (before.state === 'dispatched' || before.state === 'handling') && before.assigneeId && deadline;
    const phone = working ? (await queryRows<{ phone: string | null }>(tx, sql`select phone from users where id = ${before.assigneeId}`))[0]?.phone : null;
    escalations.push({ id: f.id, code: incidentCode(f.id), kind: kindOfKey(before.groupKey), subject, pipeCount: f.pipe_count, memberCount: f.members, level: f.level, assigned: phone && deadline ? { phone, deadline } : null });
  }
  return escalations;
}
