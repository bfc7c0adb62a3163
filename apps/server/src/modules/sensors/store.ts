import { sql } from 'drizzle-orm';
import type { SensorKind, SensorRefusal } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
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
}

export interface BatchReading extends Reading {
  deviceId: number;
}

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
  /** Enterprises whose devices changed state or fell fast: their alert rules are checked soon. */
  changedEnterprises: number[];
}

/** Codes of unknown devices kept per enterprise at most. */
const UNKNOWN_CODES_KEPT = 1_000;

/** Devices of the given topics' (enterprise, code) pairs that exist. */
export async function findDevices(db: Db, keys: { enterpriseId: number; code: string }[]): Promise<KnownDevice[]> {
  if (!keys.length) return [];
  return queryRows<KnownDevice>(
    db,
    sql`select d.id, d.enterprise_id as "enterpriseId", d.code, d.kind, d.credential_hash is not null as "hasCredentials"
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

  constructor(private readonly db: Db) {}

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

  async write(readings: BatchReading[], refusals: BatchRefusal[], faults: { deviceId: number; at: number }[]): Promise<StoredBatch> {
    await this.ensureMonths(readings);
    return this.db.transaction(async (tx) => {
      let stored = 0;
      const duplicatesByDevice = new Map<number, number>();
      if (readings.length) {
        const ids = `{${readings.map((r) => r.deviceId).join(',')}}`;
        const ats = `{${readings.map((r) => r.at).join(',')}}`;
        const values = `{${readings.map((r) => r.value).join(',')}}`;
        // A device's reading at a time it already has is the same reading sent again (QoS 1 sends
        // at least once; devices resend after a lost ack): kept once, counted as a duplicate.
        const inserted = await queryRows<{ deviceId: number; n: number }>(
          tx as unknown as Db,
          sql`with added as (
                insert into sensor_readings (device_id, at, value)
                select d, to_timestamp(a / 1000.0), v from unnest(${ids}::int[], ${ats}::float8[], ${values}::float8[]) as r(d, a, v)
                on conflict do nothing returning device_id)
              select device_id as "deviceId", count(*)::int as n from added group by device_id`,
        );
        const insertedBy = new Map(inserted.map((r) => [r.deviceId, r.n]));
        const sentBy = new Map<number, number>();
        for (const r of readings) sentBy.set(r.deviceId, (sentBy.get(r.deviceId) ?? 0) + 1);
        for (const [deviceId, sent] of sentBy) {
          const n = insertedBy.get(deviceId) ?? 0;
          stored += n;
          if (sent > n) duplicatesByDevice.set(deviceId, sent - n);
        }
      }
      // Each device's newest reading (and newest impossible one) moves its last value and state,
      // when newer than what it holds: readings out of order go into the series only.
      // The reading before the newest is kept too: a fall between two readings of one batch is a fall.
      const newest = new Map<number, { at: number; value: number | null; prevAt: number | null; prevValue: number | null; faultAt: number | null }>();
      const newestOf = (deviceId: number) => newest.get(deviceId) ?? newest.set(deviceId, { at: -Infinity, value: null, prevAt: null, prevValue: null, faultAt: null }).get(deviceId)!;
      for (const r of readings) {
        const seen = newestOf(r.deviceId);
        if (r.at > seen.at) {
          if (seen.value !== null) Object.assign(seen, { prevAt: seen.at, prevValue: seen.value });
          Object.assign(seen, { at: r.at, value: r.value });
        } else if (r.at < seen.at && (seen.prevAt === null || r.at > seen.prevAt)) Object.assign(seen, { prevAt: r.at, prevValue: r.value });
      }
      for (const f of faults) {
        const seen = newestOf(f.deviceId);
        seen.faultAt = Math.max(seen.faultAt ?? f.at, f.at);
      }
      const changed: number[] = [];
      if (newest.size) {
        const rows = [...newest].map(([id, n]) => ({ id, at: n.value === null ? null : n.at, value: n.value, prevAt: n.prevAt, prevValue: n.prevValue, faultAt: n.faultAt }));
        const moved = await queryRows<{ enterpriseId: number; changed: boolean }>(
          tx as unknown as Db,
          sql`with n as (
                select r.id, to_timestamp(r.at / 1000.0) as at, r.value, to_timestamp(r."prevAt" / 1000.0) as prev_at, r."prevValue" as prev_value, to_timestamp(r."faultAt" / 1000.0) as fault_at
                from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id int, at float8, value float8, "prevAt" float8, "prevValue" float8, "faultAt" float8)
              ), before as (
                -- What the newest reading follows: the batch's reading before it, or the device's last, whichever is newer.
                select n.*, case when n.prev_at is not null and (d.last_at is null or n.prev_at > d.last_at) then n.prev_at else d.last_at end as b_at,
                  case when n.prev_at is not null and (d.last_at is null or n.prev_at > d.last_at) then n.prev_value else d.last_value end as b_value
                from n join sensor_devices d on d.id = n.id
              ), next as (
                select d.id, n.at, n.value, n.fault_at, d.state as old_state,
                  case
                    when n.fault_at is not null and (n.at is null or n.fault_at > n.at) and (d.last_at is null or n.fault_at > d.last_at) then 'fault'
                    when n.at is not null and (d.last_at is null or n.at > d.last_at) then sensor_state(d.thresholds, d.state, n.value)
                    else d.state
                  end as state,
                  n.at is not null and n.b_at is not null and n.at > n.b_at and n.at - n.b_at <= interval '30 minutes'
                    and (d.thresholds->>'dropPerMinute')::float8 is not null
                    and (n.b_value - n.value) / greatest(extract(epoch from n.at - n.b_at) / 60, 1.0 / 60) >= (d.thresholds->>'dropPerMinute')::float8 as fell,
                  (n.b_value - n.value) / greatest(extract(epoch from n.at - n.b_at) / 60, 1.0 / 60) as fall
                from before n join sensor_devices d on d.id = n.id
              )
              update sensor_devices d set
                last_value = case when next.at is not null and (d.last_at is null or next.at > d.last_at) then next.value else d.last_value end,
                last_at = case when next.at is not null and (d.last_at is null or next.at > d.last_at) then next.at else d.last_at end,
                state = next.state,
                state_since = case when next.state <> d.state then now() else d.state_since end,
                drop_at = case when next.fell then next.at else d.drop_at end,
                drop_per_minute = case when next.fell then next.fall else d.drop_per_minute end
              from next where d.id = next.id
              returning d.enterprise_id as "enterpriseId", next.state <> next.old_state or next.fell as "changed"`,
        );
        for (const m of moved) if (m.changed) changed.push(m.enterpriseId);
      }
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
      return { stored, duplicates: [...duplicatesByDevice.values()].reduce((a, b) => a + b, 0), changedEnterprises: [...new Set(changed)] };
    });
  }
}

/** Devices that missed three reports in a row become silent (one statement over every enterprise); returns the enterprises touched. */
export async function markSilent(db: Db): Promise<number[]> {
  const rows = await queryRows<{ enterpriseId: number }>(
    db,
    sql`update sensor_devices set state = 'silent', state_since = now()
        where state <> 'silent' and coalesce(last_at, created_at) < now() - make_interval(secs => 3 * interval_seconds)
        returning enterprise_id as "enterpriseId"`,
  );
  return [...new Set(rows.map((r) => r.enterpriseId))];
}
