import { sql } from 'drizzle-orm';
import type { SensorKind, SensorRefusal, SensorThresholds } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import type { Reading } from './payload.ts';

/**
 * Writes what a batch of MQTT messages said in one transaction: the readings (duplicates of a
 * device's time dropped by the key and counted), each device's newest reading with the state it
 * puts the device in (thresholds with hysteresis, a fast fall, a reading the kind cannot make),
 * and the refusals counted per device and reason. Arrays in, nothing read back but what changed:
 * a batch of 2,000 readings is three statements.
 */

/** A device as the ingest knows it (cached by topic; the database holds its state). */
export interface KnownDevice {
  id: number;
  enterpriseId: number;
  code: string;
  kind: SensorKind;
  /** False once its credentials are revoked: what it still gets through a broker is refused. */
  hasCredentials: boolean;
  thresholds: SensorThresholds;
  /** Its state as this server last wrote or read it (another server may have moved it since). */
  state: string;
  /** The value of the newest reading this server has seen from it. */
  lastValue: number | null;
}

/**
 * Whether a reading surely leaves a device in the state this server knows it in: it is normal
 * and the value is clear of every bound by more than the hysteresis band (so the state rules
 * answer normal from any state), and it is no fall (the device has no fall rule, or the value did
 * not go down). Such a device's last value may wait for the next device flush; any other reading
 * moves the device in the same transaction that stores it.
 */
export function settles(device: KnownDevice, value: number): boolean {
  if (device.state !== 'normal') return false;
  const t = device.thresholds;
  const h = t.hysteresis ?? 0;
  const near = (bound: number | undefined, above: boolean) => bound !== undefined && bound !== null && (above ? value >= bound - h : value <= bound + h);
  if (near(t.aboveWarning, true) || near(t.aboveAlarm, true) || near(t.belowWarning, false) || near(t.belowAlarm, false)) return false;
  return t.dropPerMinute === undefined || t.dropPerMinute === null || (device.lastValue !== null && value >= device.lastValue);
}

export interface BatchReading extends Reading {
  deviceId: number;
  /** The reading cannot change its device's state (`settles`): its last value may wait for the device flush. */
  settled?: boolean;
}

/** A device's newest reading (and the one before it, and its newest impossible one) not yet written to it. */
interface Newest {
  at: number;
  value: number | null;
  prevAt: number | null;
  prevValue: number | null;
  faultAt: number | null;
  /** A reading in it may change the device's state: written with the batch, not at the next flush. */
  urgent: boolean;
  /** When it began to wait (its device is written with the first batch DEVICE_FLUSH_MS after). */
  since: number;
}

/** How long at most the last value of a device whose readings changed nothing waits to be written. */
export const DEVICE_FLUSH_MS = 5_000;
/** Waiting devices written with one batch at most (besides those whose state may change). */
const DEVICES_PER_BATCH = 2_000;

export interface BatchRefusal {
  enterpriseId: number;
  code: string;
  deviceId: number | null;
  reason: SensorRefusal;
  sample: string;
  count: number;
}

export interface StoredBatch {
  stored: number;
  duplicates: number;
  /** The state each written device is in now. */
  states: Map<number, string>;
  /** Enterprises whose devices changed state or fell fast: their alert rules are checked soon. */
  changedEnterprises: number[];
  /** Milliseconds each step took, and the devices written: what a slow batch is told by in the log. */
  steps: { readingsMs: number; devicesMs: number; refusalsMs: number; devices: number };
}

/** Codes of unknown devices kept per enterprise at most. */
const UNKNOWN_CODES_KEPT = 1_000;

/** Devices of the given topics' (enterprise, code) pairs that exist. */
export async function findDevices(db: Db, keys: { enterpriseId: number; code: string }[]): Promise<KnownDevice[]> {
  if (!keys.length) return [];
  return queryRows<KnownDevice>(
    db,
    sql`select d.id, d.enterprise_id as "enterpriseId", d.code, d.kind, d.credential_hash is not null as "hasCredentials", d.thresholds, d.state, d.last_value as "lastValue"
        from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k("enterpriseId" int, code text)
        join sensor_devices d on d.enterprise_id = k."enterpriseId" and d.code = k.code`,
  );
}

const UTC_MONTH = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

export class ReadingStore {
  /** Months whose partition this process has made (or found made). */
  private months = new Set<number>();

  constructor(
    private readonly db: Db,
    /** How often at most the last values that changed nothing are written. */
    private readonly deviceFlushMs = DEVICE_FLUSH_MS,
  ) {}

  /** Makes the partitions of the months the readings fall in (once per month per process). */
  private async ensureMonths(readings: BatchReading[]) {
    const missing = new Set<number>();
    for (const r of readings) {
      const month = UTC_MONTH(r.at);
      if (!this.months.has(month)) missing.add(month);
    }
    for (const month of missing) {
      await this.db.execute(sql`select sensor_readings_month_add(${new Date(month).toISOString()}::timestamptz)`);
      this.months.add(month);
    }
  }

  /** Readings stored whose last values their devices have not been given yet (they changed nothing). */
  private waiting = new Map<number, Newest>();

  /** Whether some device's last value waits for the device flush. */
  get devicesWaiting() {
    return this.waiting.size > 0;
  }

  /**
   * Stores a batch. Devices whose readings may change their state (and faulty ones) are moved in
   * the same transaction; the others' last values are written with the first batch DEVICE_FLUSH_MS
   * after (or at once with `flushDevices`), a few with each batch rather than all at once: at
   * thousands of devices reporting every second, rewriting each device's row per batch cost more
   * than storing the readings.
   */
  async write(readings: BatchReading[], refusals: BatchRefusal[], faults: { deviceId: number; at: number }[], flushDevices = false): Promise<StoredBatch> {
    await this.ensureMonths(readings);
    const startedAt = Date.now();
    return this.db.transaction(async (tx) => {
      const stepStart = Date.now();
      let stored = 0;
      const duplicatesByDevice = new Map<number, number>();
      if (readings.length) {
        const ids = `{${readings.map((r) => r.deviceId).join(',')}}`;
        const ats = `{${readings.map((r) => r.at).join(',')}}`;
        const values = `{${readings.map((r) => r.value).join(',')}}`;
        const rows = sql`select d, to_timestamp(a / 1000.0), v from unnest(${ids}::int[], ${ats}::float8[], ${values}::float8[]) as r(d, a, v)`;
        // A device's reading at a time it already has is the same reading sent again (QoS 1 sends
        // at least once; devices resend after a lost ack): kept once, counted as a duplicate. Most
        // batches have none, so the batch goes in plainly (no conflict check per row); only when the
        // key refuses it is it written again keeping each reading once and counting the rest.
        let insertedBy: Map<number, number> | null = null;
        try {
          await tx.transaction(async (plain) => {
            await plain.execute(sql`insert into sensor_readings (device_id, at, value) ${rows}`);
          });
        } catch (error) {
          if (!uniqueViolation(error)) throw error;
          const inserted = await queryRows<{ deviceId: number; n: number }>(
            tx as unknown as Db,
            sql`with added as (insert into sensor_readings (device_id, at, value) ${rows} on conflict do nothing returning device_id)
                select device_id as "deviceId", count(*)::int as n from added group by device_id`,
          );
          insertedBy = new Map(inserted.map((r) => [r.deviceId, r.n]));
        }
        if (!insertedBy) stored = readings.length;
        else {
          const sentBy = new Map<number, number>();
          for (const r of readings) sentBy.set(r.deviceId, (sentBy.get(r.deviceId) ?? 0) + 1);
          for (const [deviceId, sent] of sentBy) {
            const n = insertedBy.get(deviceId) ?? 0;
            stored += n;
            if (sent > n) duplicatesByDevice.set(deviceId, sent - n);
          }
        }
      }
      // Each device's newest reading (and newest impossible one) moves its last value and state,
      // when newer than what it holds: readings out of order go into the series only.
      // The reading before the newest is kept too: a fall between two readings of one batch is a fall.
      // What waits from earlier batches is merged into copies, so a batch tried again merges afresh.
      const newest = new Map<number, Newest>();
      const newestOf = (deviceId: number) => {
        let seen = newest.get(deviceId);
        if (!seen) {
          const waiting = this.waiting.get(deviceId);
          seen = waiting ? { ...waiting } : { at: -Infinity, value: null, prevAt: null, prevValue: null, faultAt: null, urgent: false, since: startedAt };
          newest.set(deviceId, seen);
        }
        return seen;
      };
      for (const r of readings) {
        const seen = newestOf(r.deviceId);
        if (!r.settled) seen.urgent = true;
        if (r.at > seen.at) {
          if (seen.value !== null) Object.assign(seen, { prevAt: seen.at, prevValue: seen.value });
          Object.assign(seen, { at: r.at, value: r.value });
        } else if (r.at < seen.at && (seen.prevAt === null || r.at > seen.prevAt)) Object.assign(seen, { prevAt: r.at, prevValue: r.value });
      }
      for (const f of faults) {
        const seen = newestOf(f.deviceId);
        seen.urgent = true;
        seen.faultAt = Math.max(seen.faultAt ?? f.at, f.at);
      }
      // Devices that have waited long enough go with this batch, the longest waiting first (the map
      // keeps them in that order) and DEVICES_PER_BATCH at most, so devices that began waiting
      // together are spread over batches instead of making one slow batch a second.
      const due = flushDevices ? Infinity : startedAt - this.deviceFlushMs;
      const taken = new Set<number>();
      for (const [deviceId, waiting] of this.waiting) {
        if (waiting.since > due || (!flushDevices && taken.size >= DEVICES_PER_BATCH)) break;
        taken.add(deviceId);
        if (!newest.has(deviceId)) newest.set(deviceId, waiting);
      }
      const later = new Map<number, Newest>();
      if (!flushDevices) for (const [deviceId, n] of newest) if (!n.urgent && !taken.has(deviceId)) (later.set(deviceId, n), newest.delete(deviceId));
      const changed: number[] = [];
      const states = new Map<number, string>();
      const readingsDone = Date.now();
      if (newest.size) {
        // Arrays, not JSON: a batch's columns are parsed as six literals (NULL where a device has none).
        const column = (pick: (n: { at: number; value: number | null; prevAt: number | null; prevValue: number | null; faultAt: number | null }) => number | null) =>
          `{${[...newest.values()].map((n) => pick(n) ?? 'NULL').join(',')}}`;
        const moved = await queryRows<{ id: number; state: string; enterpriseId: number; changed: boolean }>(
          tx as unknown as Db,
          sql`with n as (
                select id, to_timestamp(at / 1000.0) as at, value, to_timestamp(prev_at / 1000.0) as prev_at, prev_value, to_timestamp(fault_at / 1000.0) as fault_at
                from unnest(${`{${[...newest.keys()].join(',')}}`}::int[], ${column((n) => (n.value === null ? null : n.at))}::float8[], ${column((n) => n.value)}::float8[],
                  ${column((n) => n.prevAt)}::float8[], ${column((n) => n.prevValue)}::float8[], ${column((n) => n.faultAt)}::float8[]) as r(id, at, value, prev_at, prev_value, fault_at)
              ), next as (
                select d.id, n.at, n.value, d.state as old_state,
                  case
                    when n.fault_at is not null and (n.at is null or n.fault_at > n.at) and (d.last_at is null or n.fault_at > d.last_at) then 'fault'
                    when n.at is not null and (d.last_at is null or n.at > d.last_at) then sensor_state(d.thresholds, d.state, n.value)
                    else d.state
                  end as state,
                  n.at is not null and b.at is not null and n.at > b.at and n.at - b.at <= interval '30 minutes'
                    and (d.thresholds->>'dropPerMinute')::float8 is not null
                    and (b.value - n.value) / greatest(extract(epoch from n.at - b.at) / 60, 1.0 / 60) >= (d.thresholds->>'dropPerMinute')::float8 as fell,
                  (b.value - n.value) / greatest(extract(epoch from n.at - b.at) / 60, 1.0 / 60) as fall
                from n join sensor_devices d on d.id = n.id
                -- What the newest reading follows: the batch's reading before it, or the device's last, whichever is newer.
                cross join lateral (select greatest(n.prev_at, d.last_at) as at,
                  case when n.prev_at is not null and (d.last_at is null or n.prev_at > d.last_at) then n.prev_value else d.last_value end as value) b
              )
              update sensor_devices d set
                last_value = case when next.at is not null and (d.last_at is null or next.at > d.last_at) then next.value else d.last_value end,
                last_at = case when next.at is not null and (d.last_at is null or next.at > d.last_at) then next.at else d.last_at end,
                state = next.state,
                state_since = case when next.state <> d.state then now() else d.state_since end,
                drop_at = case when next.fell then next.at else d.drop_at end,
                drop_per_minute = case when next.fell then next.fall else d.drop_per_minute end
              from next where d.id = next.id
              returning d.id, d.state, d.enterprise_id as "enterpriseId", next.state <> next.old_state or next.fell as "changed"`,
        );
        for (const m of moved) {
          states.set(m.id, m.state);
          if (m.changed) changed.push(m.enterpriseId);
        }
      }
      const devicesDone = Date.now();
      // Refusals and duplicates counted per device code and reason; known devices' totals kept on them.
      const counted = [...refusals];
      for (const [deviceId, n] of duplicatesByDevice) counted.push({ enterpriseId: 0, code: '', deviceId, reason: 'duplicate', sample: '', count: n });
      if (counted.length) {
        await tx.execute(sql`with r as (
              select coalesce(d.enterprise_id, r."enterpriseId") as enterprise_id, coalesce(d.code, r.code) as code, r.reason, sum(r.count)::bigint as n, max(r.sample) as sample
              from jsonb_to_recordset(${JSON.stringify(counted)}::jsonb) as r("enterpriseId" int, code text, "deviceId" int, reason text, sample text, count int)
              left join sensor_devices d on d.id = r."deviceId"
              join enterprises e on e.id = coalesce(d.enterprise_id, r."enterpriseId")
              group by 1, 2, 3 order by 1, 2, 3)
            insert into sensor_refusals as s (enterprise_id, code, reason, count, last_at, sample)
            select enterprise_id, code, reason, n, now(), nullif(sample, '') from r
            -- Codes of devices the enterprise does not have are kept up to a bound: topics made up
            -- by a publisher cannot fill the table (they are still counted in /metrics).
            where r.reason <> 'unknownDevice' or exists (select 1 from sensor_refusals k where k.enterprise_id = r.enterprise_id and k.code = r.code and k.reason = 'unknownDevice')
              or (select count(*) from sensor_refusals k where k.enterprise_id = r.enterprise_id and k.reason = 'unknownDevice') < ${UNKNOWN_CODES_KEPT}
            on conflict (enterprise_id, code, reason) do update set count = s.count + excluded.count, last_at = excluded.last_at, sample = coalesce(excluded.sample, s.sample)`);
        const byDevice = new Map<number, number>();
        for (const c of counted) if (c.deviceId !== null) byDevice.set(c.deviceId, (byDevice.get(c.deviceId) ?? 0) + c.count);
        if (byDevice.size) {
          const ids = `{${[...byDevice.keys()].join(',')}}`;
          const ns = `{${[...byDevice.values()].join(',')}}`;
          await tx.execute(sql`update sensor_devices d set refused = d.refused + u.n
            from (select * from unnest(${ids}::int[], ${ns}::int[]) as u(id, n) order by id) u where d.id = u.id`);
        }
      }
      const steps = { readingsMs: readingsDone - stepStart, devicesMs: devicesDone - readingsDone, refusalsMs: Date.now() - devicesDone, devices: newest.size };
      return { stored, duplicates: [...duplicatesByDevice.values()].reduce((a, b) => a + b, 0), changedEnterprises: [...new Set(changed)], states, steps, written: [...newest.keys()], later };
    }).then(({ written, later, ...batch }) => {
      // Committed: what was written no longer waits; what was put off waits (a failed batch left both as they were).
      for (const deviceId of written) this.waiting.delete(deviceId);
      for (const [deviceId, n] of later) this.waiting.set(deviceId, { ...n, urgent: false });
      return batch;
    });
  }
}

/** Allowance beyond three intervals: a last value that changed nothing is written up to DEVICE_FLUSH_MS late (and its batch a moment after). */
const SILENT_ALLOWANCE_S = 3 + (2 * DEVICE_FLUSH_MS) / 1000;

/** Devices that missed three reports in a row become silent (one statement over every enterprise); returns the enterprises touched. */
export async function markSilent(db: Db): Promise<number[]> {
  const rows = await queryRows<{ enterpriseId: number }>(
    db,
    sql`update sensor_devices set state = 'silent', state_since = now()
        where state <> 'silent' and coalesce(last_at, created_at) < now() - make_interval(secs => 3 * interval_seconds + ${SILENT_ALLOWANCE_S})
        returning enterprise_id as "enterpriseId"`,
  );
  return [...new Set(rows.map((r) => r.enterpriseId))];
}
