import {
  COLD_WAVE_RULES,
  GALE_RULES,
  HEAT_RULES,
  RAINSTORM_RULES,
  WARNING_LEVELS,
  type DerivedWarning,
  type WarningLevel,
  type WarningType,
  type WeatherHour,
} from '@console/contract';

const HOUR_MS = 3_600_000;
/** Days are China's (UTC+8): a daily minimum or maximum is of the local calendar day. */
const LOCAL_OFFSET_MS = 8 * HOUR_MS;
const rank = (level: WarningLevel) => WARNING_LEVELS.indexOf(level);
/** Sums to 0.1 mm, as rain is measured, so 16.7 + 16.7 + 16.6 is 50.0 and not 49.999... */
const tenth = (v: number) => Math.round(v * 10) / 10;

/** What holds at one time step: the level, its figure and rule (null: nothing). */
interface Step {
  at: number;
  level: WarningLevel;
  value: number;
  rule: string;
}

/**
 * Steps in a row (no gap longer than `stepMs`) with a level become one warning: it starts at the
 * first, ends at the last, takes the highest level with its figure, and lists each rise in level
 * (an update of the first issue) with when it came.
 */
function episodes(type: WarningType, steps: Step[], stepMs: number, endOf: (at: number) => number): DerivedWarning[] {
  const warnings: DerivedWarning[] = [];
  let current: { first: Step; last: Step; top: Step; levels: { level: WarningLevel; at: string }[] } | null = null;
  const close = () => {
    if (!current) return;
    warnings.push({ type, level: current.top.level, start: new Date(current.first.at).toISOString(), end: new Date(endOf(current.last.at)).toISOString(), value: current.top.value, rule: current.top.rule, levels: current.levels });
    current = null;
  };
  for (const step of steps) {
    if (current && step.at - current.last.at > stepMs) close();
    if (!current) current = { first: step, last: step, top: step, levels: [{ level: step.level, at: new Date(step.at).toISOString() }] };
    else {
      current.last = step;
      if (rank(step.level) < rank(current.top.level)) {
        current.top = step;
        current.levels.push({ level: step.level, at: new Date(step.at).toISOString() });
      } else if (step.level === current.top.level && step.value > current.top.value) current.top = { ...step, at: current.top.at };
    }
  }
  close();
  return warnings;
}

/** Hourly values on a regular hour index from the first hour (missing hours stay null). */
function hourly(hours: WeatherHour[]) {
  const times = hours.map((h) => Date.parse(h.time));
  const first = Math.min(...times);
  const count = Math.round((Math.max(...times) - first) / HOUR_MS) + 1;
  const slots: (WeatherHour | null)[] = new Array(count).fill(null);
  hours.forEach((h, i) => (slots[Math.round((times[i] - first) / HOUR_MS)] = h));
  return { first, slots };
}

/** Rainstorm: the rain of the last 3, 6 and 12 hours at each hour, against the rules (100/3 h red, 50/3 h orange, 50/6 h yellow, 50/12 h blue). */
function rainstorms(first: number, slots: (WeatherHour | null)[]): DerivedWarning[] {
  const prefix = [0];
  for (const s of slots) prefix.push(prefix[prefix.length - 1] + (s?.precipitation ?? 0));
  const steps: Step[] = [];
  slots.forEach((_, i) => {
    for (const rule of RAINSTORM_RULES) {
      const sum = tenth(prefix[i + 1] - prefix[Math.max(0, i + 1 - rule.hours)]);
      if (sum >= rule.mm) return void steps.push({ at: first + i * HOUR_MS, level: rule.level, value: sum, rule: `${sum} mm in ${rule.hours} h >= ${rule.mm}` });
    }
  });
  return episodes('rainstorm', steps, HOUR_MS, (at) => at);
}

/** Gale: the mean wind of each hour as Beaufort force (6 / 8 / 10 / 12 from blue to red). */
function gales(first: number, slots: (WeatherHour | null)[]): DerivedWarning[] {
  const steps: Step[] = [];
  slots.forEach((s, i) => {
    const wind = s?.windSpeed;
    if (wind === null || wind === undefined) return;
    const rule = GALE_RULES.find((r) => wind >= r.metresPerSecond);
    if (rule) steps.push({ at: first + i * HOUR_MS, level: rule.level, value: wind, rule: `mean wind ${wind} m/s >= force ${rule.force} (${rule.metresPerSecond} m/s)` });
  });
  return episodes('gale', steps, HOUR_MS, (at) => at);
}

/** Daily minimum and maximum temperature by local day: [day start (UTC ms), min, max]. */
function dailyTemperatures(first: number, slots: (WeatherHour | null)[]) {
  const days = new Map<number, { min: number; max: number }>();
  slots.forEach((s, i) => {
    const t = s?.temperature;
    if (t === null || t === undefined) return;
    const at = first + i * HOUR_MS;
    const day = Math.floor((at + LOCAL_OFFSET_MS) / (24 * HOUR_MS)) * 24 * HOUR_MS - LOCAL_OFFSET_MS;
    const d = days.get(day);
    days.set(day, d ? { min: Math.min(d.min, t), max: Math.max(d.max, t) } : { min: t, max: t });
  });
  return days;
}

const DAY_MS = 24 * HOUR_MS;

/** Cold wave: the fall of the daily minimum over 24 h (16 / 12 / 10 °C) or 48 h (8 °C), with the minimum reached (<= 0 or <= 4 °C). */
function coldWaves(days: Map<number, { min: number; max: number }>): DerivedWarning[] {
  const steps: Step[] = [];
  for (const [day, { min }] of [...days].sort((a, b) => a[0] - b[0])) {
    for (const rule of COLD_WAVE_RULES) {
      const before = days.get(day - (rule.hours / 24) * DAY_MS);
      if (!before) continue;
      const drop = Math.round((before.min - min) * 10) / 10;
      if (drop >= rule.drop && min <= rule.minimumAtMost) {
        steps.push({ at: day, level: rule.level, value: drop, rule: `daily minimum fell ${drop} °C in ${rule.hours} h to ${min} °C (>= ${rule.drop}, <= ${rule.minimumAtMost})` });
        break;
      }
    }
  }
  return episodes('coldWave', steps, DAY_MS, (at) => at + DAY_MS - HOUR_MS);
}

/** Heat: a daily maximum of 40 °C (red) or 37 °C (orange), or of 35 °C on three days running (yellow). */
function heatWaves(days: Map<number, { min: number; max: number }>): DerivedWarning[] {
  const steps: Step[] = [];
  for (const [day, { max }] of [...days].sort((a, b) => a[0] - b[0])) {
    const rule = HEAT_RULES.find((r) => {
      for (let k = 0; k < r.days; k++) if (!((days.get(day - k * DAY_MS)?.max ?? -Infinity) >= r.maximumAtLeast)) return false;
      return true;
    });
    if (rule) steps.push({ at: day, level: rule.level, value: max, rule: `daily maximum ${max} °C >= ${rule.maximumAtLeast}${rule.days > 1 ? ` on ${rule.days} days running` : ''}` });
  }
  return episodes('heat', steps, DAY_MS, (at) => at + DAY_MS - HOUR_MS);
}

/**
 * The warning signals hourly values call for, by the CMA rules (DOMAIN: weather): one warning per
 * episode of each type, at the highest level it reached, its rises in level listed as updates.
 */
export function deriveWarnings(hours: WeatherHour[]): DerivedWarning[] {
  if (!hours.length) return [];
  const { first, slots } = hourly(hours);
  const days = dailyTemperatures(first, slots);
  return [...rainstorms(first, slots), ...coldWaves(days), ...gales(first, slots), ...heatWaves(days)].sort((a, b) => a.start.localeCompare(b.start));
}
