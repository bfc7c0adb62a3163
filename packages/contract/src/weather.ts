import { RISK_LEVEL_COLORS } from './riskAreas.ts';

/** Weather: hourly values and the warning signals the China Meteorological Administration grades (DOMAIN: weather). */

export const WARNING_TYPES = ['rainstorm', 'coldWave', 'gale', 'heat'] as const;
export type WarningType = (typeof WARNING_TYPES)[number];
/** Level I (red, highest) to IV (blue). */
export const WARNING_LEVELS = ['I', 'II', 'III', 'IV'] as const;
export type WarningLevel = (typeof WARNING_LEVELS)[number];
/** The same four colours as risk levels (red, orange, yellow, blue). */
export const WARNING_LEVEL_COLORS: Record<WarningLevel, string> = RISK_LEVEL_COLORS;

/** One hour of weather at a place: what fell in the hour ending at `time`, and the state at `time`. */
export interface WeatherHour {
  /** ISO 8601, UTC. */
  time: string;
  /** mm in the hour. */
  precipitation: number | null;
  /** °C at 2 m. */
  temperature: number | null;
  /** Mean wind at 10 m, m/s. */
  windSpeed: number | null;
  /** Gust at 10 m, m/s. */
  windGust: number | null;
}

/**
 * The CMA thresholds as data (level from highest to lowest): rainstorm by the rain of a rolling
 * window, cold wave by the fall of the daily minimum with the minimum reached, gale by the mean
 * wind's Beaufort force (its lower bound in m/s), heat by the daily maximum (yellow only after
 * three such days).
 */
export const RAINSTORM_RULES: { level: WarningLevel; hours: number; mm: number }[] = [
  { level: 'I', hours: 3, mm: 100 },
  { level: 'II', hours: 3, mm: 50 },
  { level: 'III', hours: 6, mm: 50 },
  { level: 'IV', hours: 12, mm: 50 },
];
export const COLD_WAVE_RULES: { level: WarningLevel; hours: 24 | 48; drop: number; minimumAtMost: number }[] = [
  { level: 'I', hours: 24, drop: 16, minimumAtMost: 0 },
  { level: 'II', hours: 24, drop: 12, minimumAtMost: 0 },
  { level: 'III', hours: 24, drop: 10, minimumAtMost: 4 },
  { level: 'IV', hours: 48, drop: 8, minimumAtMost: 4 },
];
/** Beaufort 12 / 10 / 8 / 6 as mean wind speed, m/s. */
export const GALE_RULES: { level: WarningLevel; force: number; metresPerSecond: number }[] = [
  { level: 'I', force: 12, metresPerSecond: 32.7 },
  { level: 'II', force: 10, metresPerSecond: 24.5 },
  { level: 'III', force: 8, metresPerSecond: 17.2 },
  { level: 'IV', force: 6, metresPerSecond: 10.8 },
];
export const HEAT_RULES: { level: WarningLevel; maximumAtLeast: number; days: number }[] = [
  { level: 'I', maximumAtLeast: 40, days: 1 },
  { level: 'II', maximumAtLeast: 37, days: 1 },
  { level: 'III', maximumAtLeast: 35, days: 3 },
];

/** A warning signal derived from hourly values: which, how high, from when to when, and what crossed the rule. */
export interface DerivedWarning {
  type: WarningType;
  level: WarningLevel;
  /** First hour the signal held, ISO. */
  start: string;
  /** Last hour it held, ISO. */
  end: string;
  /** The figure at its highest (mm, °C drop, m/s, °C) and the rule it met. */
  value: number;
  rule: string;
  /** Every level the episode went through, in order, with the hour it was first reached. */
  levels: { level: WarningLevel; at: string }[];
}
