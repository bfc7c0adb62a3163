import { and, desc, eq, sql } from 'drizzle-orm';
import { DEFAULT_ALERT_SETTINGS, REPORT_WORDS, fillWords, type Language, type ReportRow, type ReportTrigger, type RiskReportFigures } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { alertSettings, enterprises, riskReports, users } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { reportBlocks } from './document.ts';
import { reportFigures } from './figures.ts';
import { reportPdf } from './pdf.ts';

/** The month now is in the enterprise's time zone, YYYY-MM (a month not begun cannot be reported on). */
async function currentMonth(db: Db, enterpriseId: number) {
  const [row] = await queryRows<{ month: string }>(
    db,
    sql`select to_char(now() at time zone coalesce((select settings->>'timeZone' from ${alertSettings} where enterprise_id = ${enterpriseId}), ${DEFAULT_ALERT_SETTINGS.timeZone}), 'YYYY-MM') as month`,
  );
  return row.month;
}

/**
 * Makes and keeps a report of one month. On demand any month begun so far (the current one says
 * what is known to date); the monthly job's is made once per enterprise and month (the unique
 * index decides between servers): answers null when it was already made.
 */
export async function makeReport(db: Db, enterpriseId: number, month: string, trigger: ReportTrigger, userId: number | null) {
  if (month > (await currentMonth(db, enterpriseId))) throw new AppError(400, 'report.futureMonth', { month });
  const figures = await reportFigures(db, enterpriseId, month);
  const [row] = await db
    .insert(riskReports)
    .values({ enterpriseId, month, trigger, createdBy: userId, figures })
    .onConflictDoNothing()
    .returning({ id: riskReports.id });
  return row ? { id: row.id, figures } : null;
}

const rowOf = (r: { id: number; month: string; trigger: ReportTrigger; createdAt: Date; createdBy: string | null; figures: RiskReportFigures }): ReportRow => ({
  id: r.id,
  month: r.month,
  trigger: r.trigger,
  createdAt: r.createdAt.toISOString(),
  createdBy: r.createdBy,
  incidents: r.figures.incidents.raised,
  bowls: r.figures.settlement.bowls,
  warnings: r.figures.weather.warnings,
});

const columns = { id: riskReports.id, month: riskReports.month, trigger: riskReports.trigger, createdAt: riskReports.createdAt, createdBy: users.realname, figures: riskReports.figures };

/** The enterprise's reports, the latest month first (a few dozen a year: no paging). */
export async function listReports(db: Db, enterpriseId: number): Promise<ReportRow[]> {
  const rows = await db.select(columns).from(riskReports).leftJoin(users, eq(users.id, riskReports.createdBy)).where(eq(riskReports.enterpriseId, enterpriseId)).orderBy(desc(riskReports.month), desc(riskReports.id)).limit(240);
  return rows.map(rowOf);
}

async function reportOf(db: Db, enterpriseId: number, id: number) {
  const [row] = await db.select(columns).from(riskReports).leftJoin(users, eq(users.id, riskReports.createdBy)).where(and(eq(riskReports.id, id), eq(riskReports.enterpriseId, enterpriseId)));
  if (!row) throw notFound('notFound.report');
  return row;
}

/** One report as the console's page draws it: the list's row and the blocks in the reader's language. */
export async function reportPage(db: Db, enterpriseId: number, id: number, language: Language) {
  const row = await reportOf(db, enterpriseId, id);
  return { report: rowOf(row), blocks: reportBlocks(row.figures, row, language) };
}

/** One report as a PDF, with the file name a manager forwards it under. */
export async function reportFile(db: Db, enterpriseId: number, id: number, language: Language, fontPath: string) {
  const row = await reportOf(db, enterpriseId, id);
  const pdf = await reportPdf(reportBlocks(row.figures, row, language), fontPath, (n) => fillWords(REPORT_WORDS[language].page, { n }));
  const [enterprise] = await db.select({ name: enterprises.name }).from(enterprises).where(eq(enterprises.id, enterpriseId));
  return { pdf, fileName: `${enterprise?.name ?? 'report'}-${REPORT_WORDS[language].title}-${row.month}.pdf` };
}
