import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_ALERT_SETTINGS } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { alertSettings, enterprises, riskReports } from '../../db/schema.ts';
import type { ChannelOutbox } from '../channels/outbox.ts';
import { makeReport } from './service.ts';

/** How often the first-of-the-month job looks for enterprises whose last month has no report yet. */
const CHECK_MS = 15 * 60_000;

/**
 * The monthly reports: once a month has ended in an enterprise's time zone, its report is made
 * and announced to the channels that take reports. Checked at start (a server down on the 1st
 * catches up) and every quarter hour; the unique index makes it once whichever server gets there first.
 */
export class MonthlyReports {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly outbox: ChannelOutbox,
    private readonly log: FastifyBaseLogger,
  ) {}

  start() {
    this.timer = setInterval(() => this.kick(), CHECK_MS).unref();
    this.kick();
  }

  kick() {
    this.running ??= this.makeDue()
      .then(() => undefined)
      .catch((error) => this.log.error({ err: error }, 'monthly reports failed'))
      .finally(() => (this.running = null));
  }

  /** Makes every report due now; answers how many were made (tests). */
  async makeDue() {
    // Enterprises that existed before their last month ended and have no monthly report of it.
    const due = await queryRows<{ id: number; month: string }>(
      this.db,
      sql`with local as (
            select e.id, e.created_at, date_trunc('month', now() at time zone coalesce(s.settings->>'timeZone', ${DEFAULT_ALERT_SETTINGS.timeZone})) as month_start,
                   coalesce(s.settings->>'timeZone', ${DEFAULT_ALERT_SETTINGS.timeZone}) as zone
            from ${enterprises} e left join ${alertSettings} s on s.enterprise_id = e.id where e.status = 'verified'
          )
          select l.id, to_char(l.month_start - interval '1 month', 'YYYY-MM') as month from local l
          where l.created_at < l.month_start at time zone l.zone
            and not exists (select 1 from ${riskReports} r where r.enterprise_id = l.id and r.trigger = 'monthly' and r.month = to_char(l.month_start - interval '1 month', 'YYYY-MM'))
          order by l.id`,
    );
    let made = 0;
    for (const { id, month } of due) {
      try {
        const report = await makeReport(this.db, id, month, 'monthly', null);
        if (!report) continue;
        made++;
        await this.outbox.announceReport(id, report.id, report.figures);
      } catch (error) {
        this.log.error({ err: error, enterpriseId: id, month }, 'monthly report not made');
      }
    }
    return made;
  }

  async close() {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
