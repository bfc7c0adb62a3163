/** The monthly risk reports: their figures as made, kept to be drawn again as PDF or page. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ReportTrigger, RiskReportFigures } from '@console/contract';
import { enterprises } from './enterprises.ts';
import { users } from './users.ts';

export const riskReports = pgTable(
  'risk_reports',
  {
    id: serial('id').primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    /** YYYY-MM. */
    month: text('month').notNull(),
    trigger: text('trigger').$type<ReportTrigger>().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    figures: jsonb('figures').$type<RiskReportFigures>().notNull(),
  },
  (t) => [
    index('risk_reports_enterprise_idx').on(t.enterpriseId, t.month),
    // The first-of-the-month job makes one report per enterprise and month, whichever server runs it.
    uniqueIndex('risk_reports_monthly_idx').on(t.enterpriseId, t.month).where(sql`trigger = 'monthly'`),
  ],
);
