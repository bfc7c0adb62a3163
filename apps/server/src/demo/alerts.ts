import { and, asc, eq, sql } from 'drizzle-orm';
import { DEFAULT_ALERT_SETTINGS, type AlertStep } from '@console/contract';
import type { Db } from '../db/client.ts';
import { incidents } from '../db/schema.ts';
import { groupAlerts } from '../modules/alerts/grouping.ts';
import { stepIncident } from '../modules/alerts/incidents.ts';
import { RULE_NAMES, raiseRule } from '../modules/alerts/rules.ts';

const HOUR = 3_600_000;
/** Rules over what the demo makes as of today. */
const TODAYS = ['pipeRiskRise', 'weatherRiskArea', 'weatherShallowPipes'];

/** A worked incident: its steps, each some hours before now. */
type Script = [AlertStep, number, Record<string, unknown>][];

/**
 * The demo's alerts: every rule run three days ago and gathered into incidents, some of them
 * worked the way a duty officer and a crew would, so the desk, the bell and the big screen show
 * every state: closed on time, handled late, overdue and formally supervised, dispatched, a false
 * alarm, confirmed.
 */
export async function seedDemoAlerts(db: Db, enterprise: { enterpriseId: number; adminId: number; crewId: number }) {
  const { enterpriseId, adminId, crewId } = enterprise;
  // What stood three days ago (the deliveries, the sites, the leaks); today's assessment and the
  // warnings in force now are raised below, when they are.
  const raisedAt = new Date(Date.now() - 72 * HOUR);
  for (const rule of RULE_NAMES.filter((r) => !TODAYS.includes(r))) await raiseRule(db, rule, enterpriseId, raisedAt, 7);
  await groupAlerts(db, enterpriseId, DEFAULT_ALERT_SETTINGS, [], raisedAt);
  const ago = (hours: number) => new Date(Date.now() - hours * HOUR);
  const dispatch = { organisation: '管网运维一所', assigneeId: crewId };
  const scripts: Script[] = [
    [['confirm', 71, { note: '沉降速率与周边点位一致，确认' }], ['dispatch', 70, dispatch], ['accept', 66, {}], ['handle', 50, { note: '开挖检查，管道接口完好，已加固管基' }], ['close', 40, { note: '复核通过' }]],
    [['confirm', 69, {}], ['dispatch', 68, dispatch], ['accept', 60, {}], ['handle', 20, { note: '更换沉降段管道 12 米' }]],
    [['confirm', 31, {}], ['dispatch', 30, dispatch], ['accept', 28, {}], ['supervise', 4, { supervised: true, note: '区城市生命线中心挂牌督办' }]],
    [['confirm', 6, {}], ['dispatch', 5, dispatch]],
    [['falseAlarm', 60, { note: '测量点位于施工回填区，非管道沉降' }]],
    [['confirm', 2, { note: '已通知巡检核实' }]],
  ];
  const picked = await db
    .select({ id: incidents.id })
    .from(incidents)
    .where(and(eq(incidents.enterpriseId, enterpriseId), eq(incidents.state, 'new')))
    .orderBy(sql`array_position(array['I','II','III','IV'], ${incidents.level})`, asc(incidents.id))
    .limit(scripts.length);
  for (const [i, { id }] of picked.entries()) {
    for (const [step, hoursAgo, input] of scripts[i]) {
      const userId = step === 'accept' || step === 'handle' ? crewId : adminId;
      await stepIncident(db, enterpriseId, { userId, role: userId === adminId ? 'admin' : 'member' }, id, step, input as never, ago(hoursAgo));
    }
  }
  // What came in force since (a warning of today) is raised now, as the server's first check would.
  for (const rule of RULE_NAMES) await raiseRule(db, rule, enterpriseId, new Date(), 7);
  await groupAlerts(db, enterpriseId, DEFAULT_ALERT_SETTINGS, []);
}
