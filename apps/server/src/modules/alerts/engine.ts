import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { incidentTitle, messageTime, translate, type AlertSettings, type IncidentLiveEvent } from '@console/contract';
import type { Database, Db } from '../../db/client.ts';
import { Feed } from '../../db/changes.ts';
import { Debounce } from '../../http/debounce.ts';
import { enterprises } from '../../db/schema.ts';
import type { ChannelOutbox } from '../channels/outbox.ts';
import type { ConsoleMetrics } from '../metrics/registry.ts';
import type { SmsProvider } from '../sms/provider.ts';
import { groupAlerts, type Clearing, type IncidentEscalation } from './grouping.ts';
import { liveEventsOf, type StepResult } from './incidents.ts';
import { clearRule, escalateRule, RULE_NAMES, raiseRule } from './rules.ts';
import { getAlertSettings } from './service.ts';

/** An incident event for the members of one enterprise. */
export interface AlertMessage {
  enterpriseId: number;
  event: IncidentLiveEvent;
}


/** What one check did: the ids of the alerts it raised and of those it found graver, and the incidents they made or changed. */
export interface CheckResult {
  raised: number[];
  escalated: number[];
  incidents: { raised: number[]; changed: number[]; escalated: number[] };
}

/** Time-based rules (a leak left unrepaired for N days) are checked at least this often. */
const SWEEP_MS = 5 * 60_000;

/**
 * Runs the alert rules and tells the consoles. A check runs every rule of one enterprise (each one
 * statement); it is asked for shortly after what the rules read changes (writes, imports, analyses,
 * assessments) and every few minutes for all enterprises. New and changed alerts go out on the
 * alert feed, which reaches the live streams of every server on the database.
 */
export class AlertEngine {
  readonly feed: Feed<AlertMessage>;
  private readonly running = new Map<number, Promise<CheckResult>>();
  private readonly again = new Set<number>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    database: Database,
    private readonly sms: SmsProvider,
    private readonly outbox: ChannelOutbox,
    private readonly log?: FastifyBaseLogger,
    /** How long after a change a check runs (a burst of writes makes one); 0: only when asked. */
    delayMs = 1_000,
    private readonly metrics?: ConsoleMetrics,
  ) {
    this.db = database.db;
    // A burst of changes makes one check, but changes that never stop (sensors moving every second) do not hold it back.
    this.waiting = new Debounce(delayMs, delayMs);
    this.feed = new Feed<AlertMessage>(database, 'console_alerts');
  }
  private readonly db: Db;
  private readonly waiting: Debounce<number>;

  async start(sweep: boolean) {
    await this.feed.start();
    if (sweep) this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS).unref();
  }

  /** What the rules read changed: check once the changes have stopped for a moment, and at most that moment after the first. */
  soon(enterpriseId: number) {
    this.waiting.call(enterpriseId, () => void this.check(enterpriseId).catch((error) => this.log?.error({ err: error, enterpriseId }, 'alert check failed')));
  }

  /** Runs every rule for the enterprise now; answers the ids raised and escalated. A check asked for while one runs follows it. */
  async check(enterpriseId: number, now = new Date()): Promise<CheckResult> {
    const current = this.running.get(enterpriseId);
    if (current) {
      this.again.add(enterpriseId);
      await current.catch(() => {});
      if (!this.again.delete(enterpriseId)) return { raised: [], escalated: [], incidents: { raised: [], changed: [], escalated: [] } };
      return this.check(enterpriseId, now);
    }
    const work = this.runRules(enterpriseId, now);
    this.running.set(enterpriseId, work);
    try {
      return await work;
    } finally {
      this.running.delete(enterpriseId);
    }
  }

  private async runRules(enterpriseId: number, now: Date): Promise<CheckResult> {
    const settings = await getAlertSettings(this.db, enterpriseId);
    const raised: number[] = [];
    const escalated: number[] = [];
    const cleared = { cleared: [] as number[], recurred: [] as number[] };
    for (const rule of RULE_NAMES) {
      const timer = this.metrics?.ruleSeconds.startTimer({ rule });
      escalated.push(...(await escalateRule(this.db, rule, enterpriseId, now, settings)));
      const clearing = await clearRule(this.db, rule, enterpriseId, now, settings);
      cleared.cleared.push(...clearing.cleared);
      cleared.recurred.push(...clearing.recurred);
      raised.push(...(await raiseRule(this.db, rule, enterpriseId, now, settings.leakRepairDays)));
      timer?.();
      this.metrics?.ruleRuns.inc({ rule });
    }
    if (raised.length || escalated.length || cleared.cleared.length) this.log?.info({ enterpriseId, raised: raised.length, escalated: escalated.length, cleared: cleared.cleared.length }, 'alerts raised');
    return { raised, escalated, incidents: await this.group(enterpriseId, escalated, now, cleared) };
  }

  /**
   * Gathers the alerts raised since into incidents and brings the incidents whose members rose up
   * to date; the consoles are told of each incident once, and a worked one that became grave is
   * texted to its assignee once.
   */
  async group(enterpriseId: number, escalatedAlerts: number[] = [], now = new Date(), cleared?: Clearing) {
    const settings = await getAlertSettings(this.db, enterpriseId);
    const { raised, changed, escalated } = await groupAlerts(this.db, enterpriseId, settings, escalatedAlerts, now, cleared);
    const escalatedIds = escalated.map((e) => e.id);
    const changedOnly = changed.filter((id) => !escalatedIds.includes(id));
    await this.announce('raised', raised);
    await this.announce('escalated', escalatedIds);
    await this.announce('changed', changedOnly);
    await this.textEscalations(escalated, settings);
    await this.outbox.announce(raised, 'raised');
    await this.outbox.announce(escalatedIds, 'escalated');
    return { raised, changed: changedOnly, escalated: escalatedIds };
  }

  /** The database is back after an outage: every enterprise's rules run (checks asked for meanwhile failed). */
  resume() {
    void this.sweep();
  }

  private async sweep() {
    const verified = await this.db.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.status, 'verified')).catch(() => []);
    for (const { id } of verified) await this.check(id).catch((error) => this.log?.error({ err: error, enterpriseId: id }, 'alert sweep failed'));
  }

  /** Tells every console of the incidents' enterprises. */
  async announce(kind: IncidentLiveEvent['kind'], ids: number[]) {
    for (const { enterpriseId, ...event } of await liveEventsOf(this.db, ids)) this.feed.publish({ enterpriseId, event: { kind, ...event } });
  }

  /**
   * After a person's step: the consoles are told, and a dispatched grave incident is texted to its
   * assignee (one text, however many members) in the enterprise's message language and time zone.
   */
  async afterStep(result: StepResult, enterpriseId: number) {
    await this.announce('changed', [result.incident.id]);
    if (result.incident.events.at(-1)?.action === 'dispatch') await this.outbox.announce([result.incident.id], 'dispatched');
    if (!result.notify) return;
    const { messageLanguage, timeZone } = await getAlertSettings(this.db, enterpriseId);
    const { phone, level, deadline } = result.notify;
    const text = translate('alerts.sms', messageLanguage, { level, code: result.incident.code, title: incidentTitle(result.incident, messageLanguage), deadline: messageTime(deadline, timeZone) });
    await this.sms.send(phone, text).catch((error) => this.log?.error({ err: error, incidentId: result.incident.id }, 'incident sms failed'));
  }

  /**
   * An incident being worked that became grave (level I or II) is texted to its assignee with its
   * deadline, as a dispatch of a grave incident is, in the enterprise's message language.
   */
  private async textEscalations(escalations: IncidentEscalation[], settings: AlertSettings) {
    for (const escalation of escalations) {
      const { id, code, level, assigned } = escalation;
      if (!assigned || (level !== 'I' && level !== 'II')) continue;
      const language = settings.messageLanguage;
      const text = translate('alerts.smsEscalated', language, { level, code, title: incidentTitle(escalation, language), deadline: messageTime(assigned.deadline, settings.timeZone) });
      await this.sms.send(assigned.phone, text).catch((error) => this.log?.error({ err: error, incidentId: id }, 'incident sms failed'));
    }
  }

  /** Waits for the checks running here (tests, shutdown); checks not started yet are dropped. */
  async idle() {
    this.waiting.clear();
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }

  async close() {
    if (this.sweeper) clearInterval(this.sweeper);
    await this.idle();
    await this.feed.close();
  }
}
