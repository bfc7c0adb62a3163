import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { SensorKind } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import type { EmbeddedBroker } from './broker.ts';
import { sensorTopic } from './ingest.ts';

/**
 * The demo city's devices, publishing through the embedded broker as real ones would (QoS 1, a
 * JSON or SenML payload on their own topic), so the first `npm start` shows live sensors. Only
 * devices marked simulated (the demo's) are played; each reports on its interval. The values
 * follow a day's rhythm with noise; one gas detector's methane creeps up past the low alarm and
 * back over an hour, and one pressure meter drops for a few minutes, so the alerts are seen too.
 */
const TICK_MS = 5_000;

interface Played {
  id: number;
  enterpriseId: number;
  code: string;
  kind: SensorKind;
  intervalSeconds: number;
  /** Which of the kind's devices it is: the first of each kind plays the episode. */
  rank: number;
}

export function simulatedValue(kind: SensorKind, rank: number, at: number): number {
  const hour = (at / 3_600_000) % 24;
  const day = Math.sin(((hour - 6) / 24) * 2 * Math.PI);
  const noise = (Math.sin(at / 7_000 + rank * 13) + Math.sin(at / 3_100 + rank * 7)) / 2;
  // The episode: the first of its kind, in the second half of every hour.
  const minute = (at / 60_000) % 60;
  const episode = rank === 0 && minute >= 30 ? Math.sin(((minute - 30) / 30) * Math.PI) : 0;
  switch (kind) {
    case 'gas':
      return Math.max(0, 2 + noise + episode * 32);
    case 'pressure':
      return 0.32 + 0.03 * day + 0.005 * noise - (rank === 0 && minute >= 40 && minute < 44 ? 0.18 : 0);
    case 'flow':
      return 180 + 90 * day + 8 * noise + rank * 20;
    case 'level':
      return 0.6 + 0.1 * day + 0.05 * noise + episode * 1.8;
    case 'cover':
      return Math.max(0, 1 + 0.5 * noise);
    case 'temperature':
      return 16 + 4 * day + noise;
  }
}

export class SensorSimulator {
  private timer: NodeJS.Timeout | null = null;
  private devices: Played[] = [];
  private nextAt = new Map<number, number>();
  private loadedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly broker: EmbeddedBroker,
    private readonly log: FastifyBaseLogger,
  ) {}

  start() {
    this.timer = setInterval(() => void this.tick().catch((error) => this.log.warn({ err: error }, 'the demo sensors could not publish')), TICK_MS);
    this.timer.unref();
    void this.tick().catch(() => {});
  }

  close() {
    if (this.timer) clearInterval(this.timer);
  }

  private async tick() {
    const now = Date.now();
    // The demo's devices read again every minute (one added or removed by hand is seen).
    if (now - this.loadedAt > 60_000) {
      this.devices = await queryRows<Played>(
        this.db,
        sql`select id, enterprise_id as "enterpriseId", code, kind, interval_seconds as "intervalSeconds",
              (row_number() over (partition by enterprise_id, kind order by id) - 1)::int as rank
            from sensor_devices where simulated and credential_hash is not null order by id`,
      );
      this.loadedAt = now;
    }
    for (const device of this.devices) {
      const due = this.nextAt.get(device.id) ?? now;
      if (due > now) continue;
      this.nextAt.set(device.id, now + device.intervalSeconds * 1000);
      const value = Number(simulatedValue(device.kind, device.rank, now).toFixed(3));
      // Half write plain JSON, half SenML, as a city's mix of vendors does.
      const payload = device.id % 2 ? JSON.stringify({ value, ts: new Date(now).toISOString() }) : JSON.stringify([{ bn: `${device.code}/`, bt: now / 1000, n: device.kind, v: value }]);
      await this.broker.publish(sensorTopic(device.enterpriseId, device.code), payload);
    }
  }
}
