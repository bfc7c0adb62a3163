import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { OPEN_ALERT_STATES, type AlertListQuery } from '@console/contract';
import { alerts, incidents, users } from '../../db/schema.ts';

/** The two tables whose rows are worked (an incident, and each alert with its copy of the incident's work). */
type WorkTable = typeof alerts | typeof incidents;

/** Past its deadline: not handled by then (handled late counts too). */
export const overdueOf = (t: WorkTable) => sql<boolean>`(${t.deadline} is not null and ${t.state} <> 'falseAlarm' and coalesce(${t.handledAt}, now()) > ${t.deadline})`;

/** The columns lists show of how the work stands (the assignee's name needs `users` joined on the assignee). */
export const workListColumns = (t: WorkTable) => ({
  source: t.source,
  subject: t.subject,
  level: t.level,
  state: t.state,
  lon: t.lon,
  lat: t.lat,
  pipeCount: t.pipeCount,
  raisedAt: t.raisedAt,
  firstResponseAt: t.firstResponseAt,
  deadline: t.deadline,
  handledAt: t.handledAt,
  closedAt: t.closedAt,
  overdue: overdueOf(t),
  supervised: t.supervised,
  organisation: t.organisation,
  assigneeId: t.assigneeId,
  assigneeName: users.realname,
});

/** The desk's filters both lists share (state or open, level, source, overdue, supervised, mine). */
export function workFilters(t: WorkTable, enterpriseId: number, userId: number, q: Omit<AlertListQuery, 'page' | 'pageSize'>): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [eq(t.enterpriseId, enterpriseId)];
  if (q.state === 'open') conditions.push(inArray(t.state, OPEN_ALERT_STATES));
  else if (q.state) conditions.push(eq(t.state, q.state));
  if (q.level) conditions.push(eq(t.level, q.level));
  if (q.source) conditions.push(eq(t.source, q.source));
  if (q.overdue) conditions.push(q.overdue === 'true' ? overdueOf(t) : sql`not ${overdueOf(t)}`);
  if (q.supervised) conditions.push(eq(t.supervised, q.supervised === 'true'));
  if (q.mine === 'true') conditions.push(eq(t.assigneeId, userId));
  return conditions;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
/** A listed row's times as ISO text and its overdue flag as a boolean. */
export const workDates = (r: { raisedAt: Date; firstResponseAt: Date | null; deadline: Date | null; handledAt: Date | null; closedAt: Date | null; overdue: unknown }) => ({
  raisedAt: iso(r.raisedAt)!,
  firstResponseAt: iso(r.firstResponseAt),
  deadline: iso(r.deadline),
  handledAt: iso(r.handledAt),
  closedAt: iso(r.closedAt),
  overdue: Boolean(r.overdue),
});
