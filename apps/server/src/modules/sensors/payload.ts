import { SENSOR_POSSIBLE, SENSOR_UNIT_SYNONYMS, type SensorKind, type SensorRefusal } from '@console/contract';

/**
 * What one MQTT message says, read for one device: its readings in the kind's kept unit, and what
 * was refused and why. Devices write many ways; all of these are read:
 *  - a bare number: `12.5` (now);
 *  - an object: `{"value": 12.5, "ts": "2026-11-29T08:00:00Z", "unit": "kPa"}` (also v/val/reading,
 *    t/time/timestamp as ISO text or epoch seconds or milliseconds, u/unit; `open` for a cover);
 *  - an array of such objects (a batch);
 *  - SenML (RFC 8428): `[{"bn": "GW-1/", "bt": 1764403200, "bu": "%LEL", "n": "gas", "v": 12}, {"t": 60, "v": 13}]`
 *    with base time, base unit and base value, times relative to the base when small, `vb` for a
 *    cover thrown open.
 * A message whose payload cannot be read at all is refused whole (unreadable); a reading inside
 * it that cannot be (not a number, from the future, in a unit of another quantity, outside what
 * the kind can read) is refused alone.
 */

/** The largest payload read (a device's message is tens of bytes; a gateway's SenML pack a few KB). */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
/** Readings one message may carry at most (past that, the message is refused as too large). */
export const MAX_READINGS_PER_MESSAGE = 1000;
/** A reading this far ahead of the server's clock is from the future (devices' clocks drift a little). */
export const FUTURE_TOLERANCE_MS = 2 * 60_000;
/** Readings older than this are refused: they would make a partition for a month long closed. */
export const OLDEST_MS = 400 * 86_400_000;
/** SenML: a time below 2^28 is relative to the base time (RFC 8428 section 4.5.3). */
const SENML_RELATIVE_BELOW = 2 ** 28;

export interface Reading {
  at: number;
  value: number;
}

export interface Refusal {
  reason: SensorRefusal;
  sample: string;
}

export interface ReadPayload {
  readings: Reading[];
  refusals: Refusal[];
}

const sampleOf = (payload: Buffer | string) => (typeof payload === 'string' ? payload : payload.subarray(0, 200).toString('utf8')).slice(0, 200);

/** Epoch seconds or milliseconds, or ISO text, as milliseconds; NaN when it is none of them. */
function timeOf(raw: unknown): number {
  if (typeof raw === 'number') return raw > 1e11 ? raw : raw * 1000;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const n = Number(raw);
    if (Number.isFinite(n)) return timeOf(n);
    return Date.parse(raw);
  }
  return Number.NaN;
}

/** A JSON number, or text holding one; NaN for anything else ('NaN', null, an object). */
function numberOf(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && raw.trim() !== '') return Number(raw);
  return Number.NaN;
}

interface RawReading {
  value: unknown;
  /** Set when the reading is a cover's open/closed flag. */
  open?: boolean;
  time: number | null;
  unit: string | null;
  /** What it was read from: shown (its start) only when refused, so made only then. */
  source: unknown;
}

const sampleOfSource = (source: unknown) => (typeof source === 'string' ? source : JSON.stringify(source) ?? String(source)).slice(0, 200);

const VALUE_KEYS = ['value', 'v', 'val', 'reading'];
const TIME_KEYS = ['ts', 't', 'time', 'timestamp'];
const UNIT_KEYS = ['unit', 'u'];
const firstOf = (record: Record<string, unknown>, keys: string[]) => {
  for (const key of keys) if (record[key] !== undefined) return record[key];
  return undefined;
};

/** The readings of one parsed JSON payload, before they are judged. Null: not a shape devices send. */
function rawReadings(parsed: unknown, now: number): RawReading[] | null {
  if (typeof parsed === 'number' || typeof parsed === 'string') return [{ value: parsed, time: null, unit: null, source: String(parsed) }];
  if (Array.isArray(parsed)) {
    if (parsed.length > MAX_READINGS_PER_MESSAGE) return null;
    const isSenml = parsed.some((r) => r && typeof r === 'object' && ('bn' in r || 'bt' in r || 'bu' in r || 'vb' in r || 'n' in r));
    if (isSenml) return senml(parsed, now);
    const all: RawReading[] = [];
    for (const item of parsed) {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return null;
      all.push(...(rawReadings(item, now) ?? []));
    }
    return all;
  }
  if (parsed && typeof parsed === 'object') {
    const record = parsed as Record<string, unknown>;
    const time = firstOf(record, TIME_KEYS);
    const unit = firstOf(record, UNIT_KEYS);
    if (typeof record.open === 'boolean') return [{ value: null, open: record.open, time: time === undefined ? null : timeOf(time), unit: null, source: record }];
    const value = firstOf(record, VALUE_KEYS);
    if (value === undefined) return null;
    return [{ value, time: time === undefined ? null : timeOf(time), unit: typeof unit === 'string' ? unit : null, source: record }];
  }
  return null;
}

/** SenML records resolved against their base fields (RFC 8428 section 4.6). */
function senml(records: unknown[], now: number): RawReading[] | null {
  let baseTime = 0;
  let baseUnit: string | null = null;
  let baseValue = 0;
  const out: RawReading[] = [];
  for (const item of records) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return null;
    const r = item as Record<string, unknown>;
    if (r.bt !== undefined) baseTime = numberOf(r.bt);
    if (typeof r.bu === 'string') baseUnit = r.bu;
    if (r.bv !== undefined) baseValue = numberOf(r.bv);
    const source = r;
    const t = r.t === undefined ? 0 : numberOf(r.t);
    // Times are seconds: relative to the base (and to now, when no base) when small, absolute when large.
    const seconds = baseTime + t;
    const time = Number.isNaN(seconds) ? Number.NaN : Math.abs(seconds) < SENML_RELATIVE_BELOW ? now + seconds * 1000 : seconds * 1000;
    const unit = typeof r.u === 'string' ? r.u : baseUnit;
    if (typeof r.vb === 'boolean') out.push({ value: null, open: r.vb, time, unit: null, source });
    else if (r.v !== undefined || r.bv !== undefined) out.push({ value: r.v === undefined ? baseValue : numberOf(r.v) + baseValue, time, unit, source });
    else if (r.vs !== undefined || r.vd !== undefined || r.s !== undefined) out.push({ value: Number.NaN, time, unit, source });
  }
  return out;
}

/** Reads one message's payload for a device of `kind`, judged against the server's clock `now`. */
export function readPayload(payload: Buffer, kind: SensorKind, now = Date.now()): ReadPayload {
  if (payload.length > MAX_PAYLOAD_BYTES) return { readings: [], refusals: [{ reason: 'tooLarge', sample: `${payload.length} bytes` }] };
  const text = payload.toString('utf8').trim();
  let parsed: unknown;
  try {
    parsed = text === 'NaN' ? Number.NaN : JSON.parse(text);
  } catch {
    return { readings: [], refusals: [{ reason: 'unreadable', sample: sampleOf(text) }] };
  }
  const raws = rawReadings(parsed, now);
  if (raws === null) {
    const reason = Array.isArray(parsed) && parsed.length > MAX_READINGS_PER_MESSAGE ? 'tooLarge' : 'unreadable';
    return { readings: [], refusals: [{ reason, sample: sampleOf(text) }] };
  }
  const units = SENSOR_UNIT_SYNONYMS[kind];
  const [lowest, highest] = SENSOR_POSSIBLE[kind];
  const readings: Reading[] = [];
  const refusals: Refusal[] = [];
  for (const raw of raws) {
    const at = raw.time === null ? now : raw.time;
    if (Number.isNaN(at)) {
      refusals.push({ reason: 'unreadable', sample: sampleOfSource(raw.source) });
      continue;
    }
    if (at > now + FUTURE_TOLERANCE_MS) {
      refusals.push({ reason: 'future', sample: sampleOfSource(raw.source) });
      continue;
    }
    if (at < now - OLDEST_MS) {
      refusals.push({ reason: 'tooOld', sample: sampleOfSource(raw.source) });
      continue;
    }
    // A cover thrown open reads as tilted all the way up.
    if (raw.open !== undefined) {
      if (kind === 'cover') readings.push({ at, value: raw.open ? 90 : 0 });
      else refusals.push({ reason: 'unit', sample: sampleOfSource(raw.source) });
      continue;
    }
    const number = numberOf(raw.value);
    if (!Number.isFinite(number)) {
      refusals.push({ reason: 'notANumber', sample: sampleOfSource(raw.source) });
      continue;
    }
    const conversion = raw.unit === null ? [1, 0] : units[raw.unit.trim()];
    if (!conversion) {
      refusals.push({ reason: 'unit', sample: sampleOfSource(raw.source) });
      continue;
    }
    // Converted values rounded to 12 significant digits: 350 kPa is 0.35 MPa, not 0.35000000000000003.
    const value = conversion[0] === 1 && conversion[1] === 0 ? number : Number((number * conversion[0] + conversion[1]).toPrecision(12));
    if (value < lowest || value > highest) {
      refusals.push({ reason: 'impossible', sample: sampleOfSource(raw.source) });
      continue;
    }
    readings.push({ at: Math.round(at), value });
  }
  return { readings, refusals };
}
