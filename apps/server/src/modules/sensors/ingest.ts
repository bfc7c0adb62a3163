import type { FastifyBaseLogger } from 'fastify';
import type { SensorRefusal } from '@console/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import type { ConsoleMetrics } from '../metrics/registry.ts';
import { readPayload, type ReadPayload } from './payload.ts';
import { DEVICE_FLUSH_MS, findDevices, markSilent, ReadingStore, settles, type BatchReading, type BatchRefusal, type KnownDevice } from './store.ts';
import { MqttSubscriber, type SubscriberOptions } from './subscriber.ts';

/**
 * Readings from the broker into the database. Messages are gathered for a moment (or until a batch
 * is full), stored in one transaction, then acknowledged: what is not stored stays the broker's.
 * While the database is away the batch is tried again and reads from the broker pause once enough
 * wait, so memory stays bounded and the broker holds the backlog. A device that floods is
 * throttled on arrival (before its payload is read) and counted; nothing it sends slows another.
 */

/** `sensors/<enterprise id>/<device code>`. */
export const SENSOR_TOPIC = /^sensors\/(\d{1,9})\/([A-Za-z0-9._-]{1,64})$/;
export const sensorTopic = (enterpriseId: number, code: string) => `sensors/${enterpriseId}/${code}`;
/** How the ingest knows a device (its cache, its throttle). */
const deviceKey = (enterpriseId: number, code: string) => `${enterpriseId}/${code}`;

const BATCH_MESSAGES = 5_000;
const BATCH_WAIT_MS = 50;
/** Messages held unstored at most before reads from the broker pause (resumed at half). */
const MAX_PENDING = 50_000;
const RETRY_MS = [500, 1_000, 2_000, 5_000];
/** A device's messages: a burst of this many, then this many a second. */
const BURST = 120;
const PER_SECOND = 20;
/** How long a topic's device (or its absence) is remembered: a device made or removed is seen within it. */
const DEVICE_TTL_MS = 30_000;
const SILENT_SWEEP_MS = 30_000;
/** A batch taking longer is logged with its steps' times. */
const SLOW_BATCH_MS = 1_000;

interface Pending {
  key: string;
  enterpriseId: number;
  code: string;
  payload: Buffer;
  ack: () => void;
  /** Read on arrival when its device was known then (the reading overlaps the store of the batch before). */
  read?: { device: KnownDevice; payload: ReadPayload; at: number };
}

interface Bucket {
  tokens: number;
  at: number;
}

export interface IngestOptions extends Omit<SubscriberOptions, 'onMessage' | 'onState'> {
  /** The subscription is shared with the console's other servers (MQTT 5 `$share`). */
  shared: boolean;
}

/** A server taking a share says so this often; one not heard for NODE_GONE_MS is gone. */
const NODE_BEAT_MS = 10_000;
const NODE_GONE_MS = 30_000;
/** The advisory lock's first key (the sensors', shared with the password file's): servers leaving a share take turns. */
const LEAVING_LOCK = 0x5e75;

export class SensorIngest {
  private readonly store: ReadingStore;
  private readonly subscriber: MqttSubscriber;
  private pending: Pending[] = [];
  private paused = false;
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerWait = 0;
  private readonly devices = new Map<string, { device: KnownDevice | null; until: number }>();
  private refreshing: Promise<void> | null = null;
  private readonly buckets = new Map<string, Bucket>();
  /** Throttled and unreadable-topic messages counted since the last batch (acknowledged at once). */
  private throttled = new Map<string, BatchRefusal>();
  private readonly silentSweep: NodeJS.Timeout;
  private readonly beat: NodeJS.Timeout | null = null;
  private closed = false;
  /** Set while `drain` runs: every waiting last value is written with the batch. */
  private draining = false;

  constructor(
    private readonly db: Db,
    private readonly options: IngestOptions,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: ConsoleMetrics,
    /** An enterprise whose devices changed state: its alert rules are checked soon. */
    private readonly onChanged: (enterpriseId: number) => void,
  ) {
    this.store = new ReadingStore(db);
    this.subscriber = new MqttSubscriber({
      ...options,
      onMessage: (message) => this.receive(message.topic, message.payload, message.ack),
      onState: (state, detail) => {
        if (state === 'connected') return log.info({ broker: redact(options.url) }, 'sensor broker connected');
        log.warn({ broker: redact(options.url), detail }, 'sensor broker disconnected');
        // What the lost connection brought and is not stored yet, the broker sends again to the session.
        this.pending = [];
      },
    });
    this.silentSweep = setInterval(() => void this.sweepSilent(), SILENT_SWEEP_MS).unref();
    if (options.shared) {
      const beat = () => void db.execute(sql`insert into sensor_ingest_nodes (client_id, seen_at) values (${options.clientId}, now()) on conflict (client_id) do update set seen_at = now()`).catch(() => {});
      this.beat = setInterval(beat, NODE_BEAT_MS).unref();
      beat();
    }
  }

  /**
   * Leaving a shared subscription: when another server is there, this one unsubscribes first (the
   * broker sends its share to the others from then on, instead of keeping it for this session) and
   * stores what it holds; the last server stays subscribed, so what comes while it is down waits
   * on the broker. One server leaves at a time (an advisory lock), so two stopping at once do not
   * both leave. Answers whether it left.
   */
  private async leaveShare(): Promise<boolean> {
    const { clientId } = this.options;
    const others = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LEAVING_LOCK}, 0)`);
      await tx.execute(sql`delete from sensor_ingest_nodes where client_id = ${clientId}`);
      const [row] = await queryRows<{ n: number }>(tx as unknown as Db, sql`select count(*)::int as n from sensor_ingest_nodes where seen_at > now() - make_interval(secs => ${NODE_GONE_MS / 1000})`);
      return Number(row.n);
    });
    if (!others) return false;
    await this.subscriber.unsubscribe();
    return true;
  }

  /** Connects; with `wait`, resolves once subscribed. */
  start(wait = false) {
    return this.subscriber.start(wait);
  }

  get connected() {
    return this.subscriber.connected;
  }

  /** A device made, changed or removed: its topic is looked up afresh. */
  forget(enterpriseId: number, code: string) {
    this.devices.delete(deviceKey(enterpriseId, code));
  }

  async close() {
    clearInterval(this.silentSweep);
    if (this.beat) clearInterval(this.beat);
    // A server handing its share to the others stores (and acknowledges) what it holds before it goes.
    const left = this.options.shared ? await this.leaveShare().catch(() => false) : false;
    if (left) await Promise.race([this.drain().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.flushing?.catch(() => {});
    // Stored readings' last values are given to their devices before going.
    if (this.store.devicesWaiting) await this.store.write([], [], [], true).catch((error) => this.log.warn({ err: error }, 'writing sensors\' last values failed'));
    // What is still pending is not acknowledged: the broker sends it again to the session.
    await this.subscriber.close();
  }

  /** Stores what has arrived now (tests and shutdown); resolves when the store has taken it. */
  async drain() {
    this.draining = true;
    try {
      while (this.pending.length || this.flushing || this.throttled.size || this.store.devicesWaiting) {
        if (!this.flushing) this.flushing = this.flush();
        await this.flushing;
      }
    } finally {
      this.draining = false;
    }
  }

  private async sweepSilent() {
    // What is remembered per topic goes once it is idle: topics made up by a careless or hostile
    // publisher would otherwise grow these maps without end.
    const now = Date.now();
    for (const [key, bucket] of this.buckets) if (now - bucket.at > DEVICE_TTL_MS) this.buckets.delete(key);
    // A device in use is looked up again once stale; one stale for another whole while is idle.
    for (const [key, known] of this.devices) if (known.until < now - DEVICE_TTL_MS) this.devices.delete(key);
    // Silence cannot be told from lateness while this server is behind (a backlog waits unstored)
    // or away from the broker: devices are not called silent for readings that wait on us.
    if (!this.subscriber.connected || this.paused || this.pending.length > BATCH_MESSAGES) {
      this.log.warn({ pending: this.pending.length, connected: this.subscriber.connected }, 'sensor ingest behind: silent devices not marked this round');
      return;
    }
    try {
      for (const enterpriseId of await markSilent(this.db)) this.onChanged(enterpriseId);
    } catch (error) {
      this.log.warn({ err: error }, 'marking silent sensors failed');
    }
  }

  private receive(topic: string, payload: Buffer, ack: () => void) {
    const match = SENSOR_TOPIC.exec(topic);
    if (!match) {
      this.metrics.sensorRefused.inc({ reason: 'unknownTopic' });
      ack();
      return;
    }
    const enterpriseId = Number(match[1]);
    const code = match[2];
    const key = deviceKey(enterpriseId, code);
    if (!this.take(key)) {
      const counted = this.throttled.get(key) ?? { enterpriseId, code, deviceId: null, reason: 'throttled' as SensorRefusal, sample: '', count: 0 };
      counted.count++;
      this.throttled.set(key, counted);
      this.metrics.sensorRefused.inc({ reason: 'throttled' });
      ack();
      this.schedule();
      return;
    }
    const message: Pending = { key, enterpriseId, code, payload, ack };
    const known = this.devices.get(key);
    const now = Date.now();
    if (known?.device?.hasCredentials) message.read = { device: known.device, payload: readPayload(payload, known.device.kind, now), at: now };
    this.pending.push(message);
    this.metrics.sensorPending.set(this.pending.length);
    if (this.pending.length >= MAX_PENDING && !this.paused) {
      this.paused = true;
      this.subscriber.pause();
    }
    this.schedule();
  }

  /** Token bucket per topic. */
  private take(key: string): boolean {
    const now = Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: BURST, at: now };
    bucket.tokens = Math.min(BURST, bucket.tokens + ((now - bucket.at) / 1000) * PER_SECOND);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private schedule() {
    if (this.flushing || this.closed) return;
    if (this.pending.length >= BATCH_MESSAGES) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.flushing = this.flush();
      return;
    }
    if (!this.pending.length && !this.throttled.size && !this.store.devicesWaiting) return;
    // Readings wait a moment for company; devices' last values alone wait for their flush.
    const wait = this.pending.length || this.throttled.size ? BATCH_WAIT_MS : DEVICE_FLUSH_MS;
    if (this.timer && this.timerWait <= wait) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerWait = wait;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.flushing) this.flushing = this.flush();
    }, wait);
  }

  /**
   * Looks up the devices of a batch's topics the ingest does not know. Those known longer than
   * DEVICE_TTL_MS are used as they are and looked up again beside the batches (one look-up at a
   * time), so a city's devices coming due together do not hold a batch back.
   */
  private async devicesOf(batch: Pending[], now: number) {
    const missing = new Map<string, { enterpriseId: number; code: string }>();
    const stale = new Map<string, { enterpriseId: number; code: string }>();
    for (const m of batch) {
      const known = this.devices.get(m.key);
      if (!known) missing.set(m.key, { enterpriseId: m.enterpriseId, code: m.code });
      else if (known.until < now) stale.set(m.key, { enterpriseId: m.enterpriseId, code: m.code });
    }
    if (missing.size) await this.lookUp(missing, now);
    if (stale.size && !this.refreshing) {
      this.refreshing = this.lookUp(stale, now)
        .catch((error) => this.log.warn({ err: error }, 'looking sensors up again failed'))
        .finally(() => (this.refreshing = null));
    }
  }

  private async lookUp(keys: Map<string, { enterpriseId: number; code: string }>, now: number) {
    const found = new Map((await findDevices(this.db, [...keys.values()])).map((d) => [deviceKey(d.enterpriseId, d.code), d]));
    for (const key of keys.keys()) this.devices.set(key, { device: found.get(key) ?? null, until: now + DEVICE_TTL_MS });
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0, BATCH_MESSAGES);
    const throttled = [...this.throttled.values()];
    this.throttled = new Map();
    let attempt = 0;
    try {
      for (;;) {
        try {
          await this.storeBatch(batch, throttled);
          break;
        } catch (error) {
          if (this.closed) return;
          this.log.warn({ err: error, messages: batch.length }, 'storing sensor readings failed; trying again');
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]));
        }
      }
      for (const m of batch) m.ack();
    } finally {
      this.metrics.sensorPending.set(this.pending.length);
      if (this.paused && this.pending.length < MAX_PENDING / 2) {
        this.paused = false;
        this.subscriber.resume();
      }
      this.flushing = null;
      this.schedule();
    }
  }

  private async storeBatch(batch: Pending[], throttled: BatchRefusal[]) {
    const now = Date.now();
    await this.devicesOf(batch, now);
    const lookUpMs = Date.now() - now;
    const readings: BatchReading[] = [];
    const refusals: BatchRefusal[] = throttled.map((t) => ({ ...t, deviceId: this.devices.get(deviceKey(t.enterpriseId, t.code))?.device?.id ?? null }));
    const faults: { deviceId: number; at: number }[] = [];
    /** Devices whose readings were read: the states the store writes are kept on them. */
    const read = new Set<KnownDevice>();
    for (const m of batch) {
      const device = m.read?.device ?? this.devices.get(m.key)?.device;
      if (!device) {
        refusals.push({ enterpriseId: m.enterpriseId, code: m.code, deviceId: null, reason: 'unknownDevice', sample: m.payload.subarray(0, 200).toString('utf8'), count: 1 });
        continue;
      }
      if (!device.hasCredentials) {
        refusals.push({ enterpriseId: device.enterpriseId, code: device.code, deviceId: device.id, reason: 'revoked', sample: m.payload.subarray(0, 200).toString('utf8'), count: 1 });
        continue;
      }
      read.add(device);
      const { readings: deviceReadings, refusals: deviceRefusals } = m.read?.payload ?? readPayload(m.payload, device.kind, now);
      for (const r of deviceReadings) {
        readings.push({ deviceId: device.id, at: r.at, value: r.value, settled: settles(device, r.value) });
        device.lastValue = r.value;
      }
      for (const r of deviceRefusals) {
        refusals.push({ enterpriseId: device.enterpriseId, code: device.code, deviceId: device.id, reason: r.reason, sample: r.sample, count: 1 });
        if (r.reason === 'impossible') faults.push({ deviceId: device.id, at: m.read?.at ?? now });
      }
    }
    const result = await this.store.write(readings, refusals, faults, this.closed || this.draining);
    for (const device of read) {
      const state = result.states.get(device.id);
      if (state) device.state = state;
    }
    this.metrics.sensorReadings.inc(result.stored);
    for (const r of refusals) if (r.reason !== 'throttled') this.metrics.sensorRefused.inc({ reason: r.reason }, r.count);
    if (result.duplicates) this.metrics.sensorRefused.inc({ reason: 'duplicate' }, result.duplicates);
    const storedAt = Date.now();
    for (const r of readings) this.metrics.sensorLagSeconds.observe(Math.max(0, storedAt - r.at) / 1000);
    this.metrics.sensorBatchSeconds.observe((storedAt - now) / 1000);
    // A batch this slow holds every reading behind it: the log says which step took the time.
    if (storedAt - now > SLOW_BATCH_MS) {
      this.log.warn({ ms: storedAt - now, lookUpMs, ...result.steps, messages: batch.length, readings: readings.length, pending: this.pending.length }, 'sensor batch slow');
    }
    for (const enterpriseId of result.changedEnterprises) this.onChanged(enterpriseId);
  }
}

/** A broker address without its password, for the log. */
function redact(url: string) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'unreadable address';
  }
}
