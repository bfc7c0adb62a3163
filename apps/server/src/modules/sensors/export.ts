import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { SensorDevice } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';

/** A CSV of readings covers at most this many days (a reading a second is 2.6 million rows a month). */
export const CSV_MAX_DAYS = 31;
const PAGE = 10_000;

/**
 * A device's readings from `from` (inclusive) to `to` (exclusive) as CSV (time in UTC ISO 8601,
 * value in the kind's kept unit), read page by page by the key (never all at once), so a month
 * of a device reporting every second streams in constant memory.
 */
export function sensorReadingsCsv(db: Db, device: SensorDevice, from: Date, to: Date) {
  async function* lines() {
    yield `device,time,value_${device.unit.replace(/[^A-Za-z0-9%]/g, '') || 'value'}\r\n`;
    let after = new Date(from.getTime() - 1).toISOString();
    let first = true;
    for (;;) {
      const rows = await queryRows<{ at: string; value: number }>(
        db,
        sql`select at, value from sensor_readings where device_id = ${device.id}
            and ${first ? sql`at >= ${from.toISOString()}::timestamptz` : sql`at > ${after}::timestamptz`} and at < ${to.toISOString()}::timestamptz
            order by at limit ${PAGE}`,
      );
      first = false;
      if (!rows.length) return;
      yield rows.map((r) => `${device.code},${new Date(r.at).toISOString()},${Number(r.value)}`).join('\r\n') + '\r\n';
      if (rows.length < PAGE) return;
      after = new Date(rows[rows.length - 1].at).toISOString();
    }
  }
  return Readable.from(lines());
}
