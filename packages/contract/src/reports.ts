import { z } from 'zod';
import type { IncidentKind } from './alerts.ts';
import type { RiskLevel } from './riskAreas.ts';

/**
 * The monthly risk report: what a manager forwards to the city. Its figures are made once, when
 * the report is made, and kept (a report says what was known then); the PDF and the web page are
 * drawn from them in either language.
 */

/** A calendar month, YYYY-MM. */
export const reportMonth = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'field.month' });
export const reportBody = z.object({ month: reportMonth });
export const reportFileQuery = z.object({ lang: z.enum(['en-US', 'zh-CN']).optional() });

export const REPORT_TRIGGERS = ['monthly', 'demand'] as const;
export type ReportTrigger = (typeof REPORT_TRIGGERS)[number];

/** A table of the report shows this many rows at most; its figures count them all. */
export const REPORT_TABLE_ROWS = 12;

export interface ReportIncidentRow {
  code: string;
  kind: IncidentKind;
  subject: string;
  pipeCount: number;
  memberCount: number;
  level: RiskLevel;
  state: string;
  raisedAt: string;
  /** Hours from raised to handled, null when not handled in the month. */
  handledHours: number | null;
}

export interface ReportBowl extends ReportIncidentRow {
  /** Its outline (the hull of its members) in lon/lat. */
  geometry: { type: string; coordinates: unknown };
}

export interface RiskReportFigures {
  enterprise: string;
  month: string;
  /** The month's first and last instants in the enterprise's time zone (ISO). */
  from: string;
  to: string;
  timeZone: string;
  incidents: {
    raised: number;
    handled: number;
    closed: number;
    falseAlarms: number;
    /** Raised before the month's end and still open at it. */
    openAtEnd: number;
    medianHandledHours: number | null;
    byKind: { kind: IncidentKind; level: RiskLevel; count: number; handled: number; medianHandledHours: number | null }[];
    /** The gravest of the month (gravest level first, then most pipes). */
    gravest: ReportIncidentRow[];
  };
  network: {
    segments: number;
    assessedOn: string | null;
    levels: Record<RiskLevel, number>;
    /** Level changes during the month: how many segments went from one level to another. */
    changes: { from: RiskLevel; to: RiskLevel; count: number }[];
    worse: number;
    better: number;
  };
  settlement: { bowls: number; pipes: number; shown: ReportBowl[]; map: ReportMap | null };
  works: {
    active: number;
    threatening: number;
    byCriticality: Record<'high' | 'medium' | 'low' | 'none', number>;
    rows: { siteNo: string; name: string; buildType: string; nearestM: number | null; criticality: string; status: string }[];
  };
  leaks: {
    delivered: number;
    investigated: number;
    leakFound: number;
    noLeak: number;
    repaired: number;
    estimatedM3h: number;
    rows: { poiNo: string; status: string; priority: string; estimatedLeakM3h: number | null; foundAt: string | null }[];
  };
  weather: {
    warnings: number;
    official: number;
    rows: { type: string; level: RiskLevel | null; start: string; end: string; headline: string | null; pipes: number; riskAreas: number; sites: number }[];
  };
}

/** What the report's map draws: streets for the place, the bowls coloured by level, in this box. */
export interface ReportMap {
  box: [number, number, number, number];
  streets: { kind: 'street' | 'mainStreet'; name: string; coordinates: number[][] }[];
}

/** A report as the Reports screen lists it. */
export interface ReportRow {
  id: number;
  month: string;
  trigger: ReportTrigger;
  createdAt: string;
  createdBy: string | null;
  incidents: number;
  bowls: number;
  warnings: number;
}

/** A table column of the report: its heading and its share of the page's width. */
export interface ReportColumn {
  title: string;
  weight: number;
  align?: 'right';
}
/**
 * The report as a list of blocks in one language: the PDF and the console's page each draw these
 * blocks, so both say the same thing in the same order.
 */
export type ReportBlock =
  | { kind: 'title'; text: string; lines: string[] }
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'table'; columns: ReportColumn[]; rows: (string | number)[][]; more: string | null }
  /** A chart or map as SVG, drawn by the server (ECharts' renderer, the basemap's palette). */
  | { kind: 'drawing'; svg: string; width: number; height: number };
