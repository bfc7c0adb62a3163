import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.ts';
import type { ReplicaState } from '../../db/replicas.ts';

/** Seconds buckets for API answers: most are a few milliseconds, an import's start a few seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds buckets for background work (a rule check, a network's assessment). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/**
 * What an operations team's Prometheus scrapes (prom-client, one registry per server): requests by
 * route template and status, the database pool, import jobs by state, open live streams, alert rule
 * runs, risk assessments, and the process (memory, event-loop delay, GC). Route templates, never
 * raw URLs, keep the label sets bounded.
 */
export class ConsoleMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'console_http_requests_total', help: 'API and console requests answered, by method, route template and status', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  readonly requestSeconds = new Histogram({ name: 'console_http_request_duration_seconds', help: 'Time to answer, by method, route template and status', labelNames: ['method', 'route', 'status'], buckets: REQUEST_BUCKETS, registers: [this.registry] });
  readonly liveStreams = new Gauge({ name: 'console_alert_live_streams', help: 'Alert live streams (server-sent events) open on this server', registers: [this.registry] });
  readonly ruleRuns = new Counter({ name: 'console_alert_rule_runs_total', help: 'Alert rule runs, by rule', labelNames: ['rule'], registers: [this.registry] });
  readonly ruleSeconds = new Histogram({ name: 'console_alert_rule_duration_seconds', help: 'Time one alert rule took (escalate, clear and raise), by rule', labelNames: ['rule'], buckets: JOB_BUCKETS, registers: [this.registry] });
  readonly riskSeconds = new Histogram({ name: 'console_risk_assessment_duration_seconds', help: 'Time a network composite-risk assessment took', labelNames: ['outcome'], buckets: JOB_BUCKETS, registers: [this.registry] });

  readonly auditFailures = new Counter({ name: 'console_audit_write_failures_total', help: 'Writes whose audit record could not be written (the write itself stands)', registers: [this.registry] });
  readonly auditPruned = new Counter({ name: 'console_audit_pruned_total', help: 'Audit records removed past the retention time', registers: [this.registry] });

  readonly sensorReadings = new Counter({ name: 'console_sensor_readings_total', help: 'Sensor readings stored', registers: [this.registry] });
  readonly sensorRefused = new Counter({ name: 'console_sensor_refused_total', help: 'Sensor messages and readings kept out of the series, by reason (an unknown topic too)', labelNames: ['reason'], registers: [this.registry] });
  readonly sensorLagSeconds = new Histogram({ name: 'console_sensor_store_lag_seconds', help: 'From a reading\'s own time to its being stored', buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 30, 300], registers: [this.registry] });
  readonly sensorBatchSeconds = new Histogram({ name: 'console_sensor_batch_seconds', help: 'Time one batch of sensor messages took to store (look-ups, readings, devices, refusals)', buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 30], registers: [this.registry] });
  readonly sensorPending = new Gauge({ name: 'console_sensor_pending_messages', help: 'MQTT messages received and not yet stored (not acknowledged to the broker)', registers: [this.registry] });
  readonly heavyReads = new Counter({ name: 'console_db_heavy_reads_total', help: 'Heavy reads (tiles, open data, lists, the big screen, exports) by where they went: a replica, or the primary', labelNames: ['target'], registers: [this.registry] });

  constructor(database: Database, replicaStates: () => ReplicaState[] = () => []) {
    collectDefaultMetrics({ register: this.registry, prefix: 'console_' });
    new Gauge({
      name: 'console_db_pool_connections',
      help: 'Database pool connections by state (total, idle) and requests waiting for one; the embedded database has one connection',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const stats = database.poolStats?.() ?? { total: 1, idle: 0, waiting: 0 };
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    new Gauge({
      name: 'console_db_replica_up',
      help: 'Each read replica: 1 while it serves reads, 0 while it is left out (not answering, not a standby, or behind by more than READ_MAX_LAG_MB)',
      labelNames: ['replica'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of replicaStates()) this.set({ replica: r.name }, r.up ? 1 : 0);
      },
    });
    new Gauge({
      name: 'console_db_replica_lag_bytes',
      help: "Each read replica's distance behind the primary's WAL at the last check (absent when unknown)",
      labelNames: ['replica'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of replicaStates()) if (r.lagBytes !== null) this.set({ replica: r.name }, r.lagBytes);
      },
    });
    new Gauge({
      name: 'console_import_jobs',
      help: 'Import jobs by state, all enterprises (counted when scraped)',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const rows = await queryRows<{ status: string; n: number }>(database.db, sql`select status, count(*)::int as n from import_jobs group by status`).catch(() => []);
        this.reset();
        for (const row of rows) this.set({ state: row.status }, Number(row.n));
      },
    });
  }

  /** One answered request (route: the matched template, or "unmatched"). */
  observeRequest(method: string, route: string, status: number, seconds: number) {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, seconds);
  }

  /** The text a Prometheus server scrapes. */
  text() {
    return this.registry.metrics();
  }
}
