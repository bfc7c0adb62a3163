import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { incidentTitle, translate, type ChannelEvent, type IncidentKind, type Language, type RiskLevel, type RiskReportFigures } from '@console/contract';
import { getAlertSettings } from '../alerts/service.ts';
import { queryRows, type Db } from '../../db/client.ts';
import { channelSends, incidents, notifyChannels } from '../../db/schema.ts';
import type { ChannelTarget, Message, Senders } from './senders.ts';

/** Tries of one send before it is given up (the first and four retries, backoff doubling). */
export const MAX_ATTEMPTS = 5;
/** A claimed send is another server's to finish for this long; past it (a crash) it is due again. */
const LEASE_MS = 5 * 60_000;
/** Due sends are looked for this often, besides right after new ones are written. */
const SWEEP_MS = 15_000;

const STATE_WORDS: Record<string, Record<Language, string>> = {
  new: { 'en-US': 'waiting to be confirmed', 'zh-CN': '待确认' },
  confirmed: { 'en-US': 'confirmed', 'zh-CN': '已确认' },
  dispatched: { 'en-US': 'dispatched', 'zh-CN': '已派单' },
  handling: { 'en-US': 'being handled', 'zh-CN': '处置中' },
  handled: { 'en-US': 'handled', 'zh-CN': '已处置' },
  closed: { 'en-US': 'closed', 'zh-CN': '已关闭' },
  falseAlarm: { 'en-US': 'a false alarm', 'zh-CN': '误报' },
};

export interface OutboxOptions {
  consoleUrl: string;
  retryMs: number;
  /** Robots are sent to on these hosts only. */
  robotHosts: string[];
}

/** The console's page of one incident. */
export const incidentLink = (consoleUrl: string, incidentId: number) => `${consoleUrl}/risk/alerts?incident=${incidentId}`;
/** The console's page of one report (its PDF is a button there: the file needs the reader signed in). */
export const reportLink = (consoleUrl: string, reportId: number) => `${consoleUrl}/risk/reports?report=${reportId}`;

/** A webhook the server may send to: http(s), on an allowed host, no credentials in it. */
export function allowedWebhook(webhook: string, hosts: string[]) {
  try {
    const url = new URL(webhook);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && hosts.includes(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}

/**
 * The channels' outbox. A step or a check writes its messages (one per matching channel) and
 * returns; sending happens after, here: each due send is claimed by one server (an UPDATE that
 * moves its next try past a lease, so two servers never send it twice), sent, and recorded sent,
 * or retried with backoff until MAX_ATTEMPTS, then recorded failed with the last error.
 */
export class ChannelOutbox {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** Wakes the outbox when the soonest retry is due. */
  private wake: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly senders: Senders,
    private readonly options: OutboxOptions,
    private readonly log?: FastifyBaseLogger,
  ) {}

  start() {
    this.timer = setInterval(() => this.kick(), SWEEP_MS).unref();
  }

  /**
   * Writes the messages of incidents to the enabled channels of their enterprise that take their
   * level, in the language each enterprise chose for messages out. Never throws:
   * an announcement must not undo or hold up the step that caused it.
   */
  async announce(incidentIds: number[], event: ChannelEvent) {
    if (!incidentIds.length) return;
    try {
      const rows = await queryRows<{ channel_id: number; enterprise_id: number; incident_id: number; kind: IncidentKind; subject: string; level: RiskLevel; state: string; member_count: number; pipe_count: number }>(
        this.db,
        sql`select c.id as channel_id, c.enterprise_id, i.id as incident_id, split_part(i.group_key, ':', 1) as kind, i.subject, i.level, i.state, i.member_count, i.pipe_count
            from ${incidents} i join ${notifyChannels} c on c.enterprise_id = i.enterprise_id and c.enabled and i.level = any(c.levels)
            where i.id in (${sql.join(incidentIds.map((id) => sql`${id}`), sql`, `)})`,
      );
      if (!rows.length) return;
      // Each enterprise's messages in the language it chose for them.
      const languages = new Map<number, Language>();
      for (const r of rows) if (!languages.has(r.enterprise_id)) languages.set(r.enterprise_id, (await getAlertSettings(this.db, r.enterprise_id)).messageLanguage);
      await this.db.insert(channelSends).values(
        rows.map((r) => {
          const language = languages.get(r.enterprise_id)!;
          const code = `IN-${String(r.incident_id).padStart(6, '0')}`;
          const what = translate(`incident.event.${event}`, language);
          const heading = `${what} ${code}`;
          const link = incidentLink(this.options.consoleUrl, r.incident_id);
          const title = incidentTitle({ kind: r.kind, subject: r.subject, pipeCount: r.pipe_count, memberCount: r.member_count }, language);
          const body = translate('channels.message', language, { event: what, level: r.level, code, title, state: STATE_WORDS[r.state]?.[language] ?? r.state, link });
          return { enterpriseId: r.enterprise_id, channelId: r.channel_id, incidentId: r.incident_id, event, title: heading, body, link };
        }),
      );
      this.kick();
    } catch (error) {
      this.log?.error({ err: error, incidentIds, event }, 'channel messages not written');
    }
  }

  /**
   * Writes a new monthly report's message to the enabled channels of its enterprise that take
   * reports, in the enterprise's language for messages out. Never throws (the report is kept either way).
   */
  async announceReport(enterpriseId: number, reportId: number, figures: RiskReportFigures) {
    try {
      const channels = await this.db.select({ id: notifyChannels.id }).from(notifyChannels).where(and(eq(notifyChannels.enterpriseId, enterpriseId), eq(notifyChannels.enabled, true), eq(notifyChannels.reports, true)));
      if (!channels.length) return;
      const language = (await getAlertSettings(this.db, enterpriseId)).messageLanguage;
      const link = reportLink(this.options.consoleUrl, reportId);
      const title = `${translate('incident.event.report', language)} ${figures.month}`;
      const body = translate('channels.report', language, {
        month: figures.month,
        enterprise: figures.enterprise,
        raised: figures.incidents.raised,
        open: figures.incidents.openAtEnd,
        bowls: figures.settlement.bowls,
        sites: figures.works.threatening,
        leaks: figures.leaks.leakFound,
        warnings: figures.weather.warnings,
        link,
      });
      await this.db.insert(channelSends).values(channels.map((c) => ({ enterpriseId, channelId: c.id, event: 'report' as const, title, body, link })));
      this.kick();
    } catch (error) {
      this.log?.error({ err: error, enterpriseId, reportId }, 'report messages not written');
    }
  }

  /** A test message to one channel, sent now: answers its send's id once tried. */
  async test(enterpriseId: number, channelId: number, language: Language) {
    const [send] = await this.db
      .insert(channelSends)
      .values({ enterpriseId, channelId, event: 'test', title: translate('incident.event.test', language), body: translate('channels.test', language), link: this.options.consoleUrl })
      .returning({ id: channelSends.id });
    await this.deliver([send.id]);
    return send.id;
  }

  /** Sends what is due now, soon (a burst of announcements makes one pass). */
  kick() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.deliver()
      .catch((error) => this.log?.error({ err: error }, 'channel sends failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Claims the due sends (or the ones named) and sends each. */
  private async deliver(only?: number[]) {
    for (;;) {
      // The database's clock: what a send is due by was written by it (microseconds, which a Date has not).
      const claimed = await queryRows<{ id: number; attempts: number; title: string; body: string; link: string | null; kind: ChannelTarget['kind']; webhook: string | null; secret: string | null; recipients: string[] }>(
        this.db,
        sql`with due as (
              select id from ${channelSends}
              where state = 'pending' and next_attempt_at <= now() ${only ? sql`and id in (${sql.join(only.map((id) => sql`${id}`), sql`, `)})` : sql``}
              order by id limit 20 for update skip locked
            ),
            claimed as (
              update ${channelSends} s set attempts = s.attempts + 1, next_attempt_at = now() + ${LEASE_MS} * interval '1 millisecond'
              from due where s.id = due.id
              returning s.id, s.attempts, s.title, s.body, s.link, s.channel_id
            )
            select claimed.*, c.kind, c.webhook, c.secret, c.recipients from claimed join ${notifyChannels} c on c.id = claimed.channel_id order by claimed.id`,
      );
      if (!claimed.length) return only ? undefined : this.wakeForNext();
      await Promise.all(claimed.map((send) => this.sendOne(send)));
      if (only) return;
    }
  }

  /**
   * Sets the wake-up for the soonest retry, measured by the database's clock as the claim is: a
   * timer set in the process may fire a little before the database says the send is due (a busy
   * event loop's clock lags), and a retry found not due would then wait for the next sweep.
   */
  private async wakeForNext() {
    const [next] = await queryRows<{ ms: number | null }>(
      this.db,
      sql`select ceil(extract(epoch from min(next_attempt_at) - now()) * 1000)::float8 as ms from ${channelSends} where state = 'pending'`,
    );
    if (next?.ms === null || next?.ms === undefined || next.ms >= SWEEP_MS || this.closed) return;
    if (this.wake) clearTimeout(this.wake);
    this.wake = setTimeout(() => this.kick(), Math.max(1, next.ms + 1)).unref();
  }

  private async sendOne(send: { id: number; attempts: number; title: string; body: string; link: string | null } & ChannelTarget) {
    try {
      if (send.kind !== 'email' && !allowedWebhook(send.webhook ?? '', this.options.robotHosts)) throw new Error('the webhook is not on a host this server sends to');
      await this.senders.send(send, { title: send.title, body: send.body, link: send.link } satisfies Message);
      await this.db.update(channelSends).set({ state: 'sent', sentAt: new Date(), lastError: null }).where(eq(channelSends.id, send.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const last = send.attempts >= MAX_ATTEMPTS;
      const waitMs = this.options.retryMs * 2 ** (send.attempts - 1);
      // Due by the database's clock, as the claim reads it: a server whose clock runs ahead of the
      // database's would otherwise look too early and leave the retry to the next sweep.
      await this.db
        .update(channelSends)
        .set(last ? { state: 'failed', lastError: message.slice(0, 500) } : { nextAttemptAt: sql`now() + ${waitMs} * interval '1 millisecond'`, lastError: message.slice(0, 500) })
        .where(and(eq(channelSends.id, send.id), eq(channelSends.state, 'pending')));
      this.log?.warn({ sendId: send.id, attempts: send.attempts, err: message }, last ? 'channel send given up' : 'channel send will be retried');
    }
  }

  /** Waits for the sends in flight (tests, shutdown). */
  async idle() {
    while (this.running) await this.running;
  }

  async close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.wake) clearTimeout(this.wake);
    await this.idle();
  }
}

/** Sends of the named ids (tests). */
export const sendsOf = (db: Db, ids: number[]) => db.select().from(channelSends).where(inArray(channelSends.id, ids));
