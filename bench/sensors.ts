/**
 * Sensor readings through the machine's Mosquitto (npm run bench:sensors, or a part of npm run bench):
 * 10,000 devices publishing at BENCH_SENSOR_RATE readings a second (default 20,000) for
 * BENCH_SENSOR_SECONDS (default 300), QoS 1, each with its own time; ours is the console's server
 * as `npm start` runs it on the PostgreSQL server (MQTT_URL, its persistent shared session,
 * batches acknowledged once stored); the peer is a bare MQTT subscriber (MQTT.js, acknowledging on
 * arrival) writing the same readings by COPY into a table with the same key, in a process of its
 * own. Both get the same load, one after the other; printed: readings stored a second over the
 * run, the lag from a reading's time to its being stored (ours: the server's histogram, p50 and p99
 * as bucket bounds; the peer: measured per batch), the server's memory every 30 s, and CPU-seconds
 * of each process and of the database.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import pg from 'pg';
import { cpuSeconds, postgresServer } from './cpu.ts';
import { startConsoleServer } from './api.ts';
import { emptyServerDatabase, mb } from './support.ts';

const RATE = Number(process.env.BENCH_SENSOR_RATE ?? 20_000);
const SECONDS = Number(process.env.BENCH_SENSOR_SECONDS ?? 300);
const DEVICES = 10_000;
const PUBLISHERS = 4;
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

interface Published {
  sent: number;
  acked: number;
  seconds: number;
}

/** Publishes RATE readings a second round the devices for SECONDS, QoS 1, from PUBLISHERS connections; answers what was sent and acknowledged. */
async function publishLoad(brokerUrl: string, enterpriseId: number, codes: string[], tag: string): Promise<Published> {
  const clients = await Promise.all(Array.from({ length: PUBLISHERS }, (_, i) => mqtt.connectAsync(brokerUrl, { protocolVersion: 5, clientId: `bench-pub-${tag}-${i}`, reconnectPeriod: 0 })));
  let sent = 0;
  let acked = 0;
  const started = Date.now();
  const tickMs = 10;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = Date.now() - started;
      if (elapsed >= SECONDS * 1000) {
        clearInterval(timer);
        resolve();
        return;
      }
      // Whatever the rate says should have gone by now (a late tick catches up).
      const due = Math.floor((elapsed / 1000) * RATE) - sent;
      for (let i = 0; i < due; i++, sent++) {
        const code = codes[sent % codes.length];
        const client = clients[sent % PUBLISHERS];
        client.publish(`sensors/${enterpriseId}/${code}`, `{"value":${(0.3 + (sent % 100) / 1000).toFixed(3)},"ts":${Date.now()}}`, { qos: 1 }, (error) => {
          if (!error) acked++;
        });
      }
    }, tickMs);
  });
  // The window's length: readings stored a second are what it published, over the time it published them.
  const seconds = (Date.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await Promise.all(clients.map((c) => c.endAsync()));
  return { sent, acked, seconds };
}

const ALARMS = 20;

/** Each of the alarm devices publishes one reading below its alarm bound; answers when each was published. */
async function publishAlarms(brokerUrl: string, enterpriseId: number, published: Map<string, number>) {
  const client = await mqtt.connectAsync(brokerUrl, { protocolVersion: 5, clientId: `bench-alarms-${randomBytes(3).toString('hex')}`, reconnectPeriod: 0 });
  for (let i = 1; i <= ALARMS; i++) {
    const code = `A-${String(i).padStart(2, '0')}`;
    const at = Date.now();
    published.set(code, at);
    await client.publishAsync(`sensors/${enterpriseId}/${code}`, `{"value":0.1,"ts":${at}}`, { qos: 1 });
    await new Promise((r) => setTimeout(r, 250));
  }
  await client.endAsync();
}

/** A Prometheus counter's and histogram's values from the server's /metrics. */
async function serverMetrics(url: string) {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const stored = Number(/^console_sensor_readings_total (\S+)$/m.exec(text)?.[1] ?? 0);
  const histogram = (name: string) => [...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`, 'gm'))].map((m) => [m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2])] as const);
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    stored,
    buckets: histogram('console_sensor_store_lag_seconds'),
    batches: histogram('console_sensor_batch_seconds'),
    batchSeconds: gauge('console_sensor_batch_seconds_sum'),
    batchCount: gauge('console_sensor_batch_seconds_count'),
    /** The event loop's longest delay since the scrape before (prom-client resets it at each scrape). */
    loopMax: gauge('console_nodejs_eventloop_lag_max_seconds'),
    pending: gauge('console_sensor_pending_messages'),
  };
}

type Metrics = Awaited<ReturnType<typeof serverMetrics>>;

/** One 10 s window of the run: readings stored within 1 s, the slowest batch's bucket, the event loop's longest delay, messages waiting. */
function windowOf(before: Metrics, after: Metrics) {
  const delta = (a: (readonly [number, number])[], b: (readonly [number, number])[]) => a.map(([le, n], i) => [le, n - (b[i]?.[1] ?? 0)] as const);
  const lag = delta(after.buckets, before.buckets);
  const total = lag.at(-1)?.[1] ?? 0;
  const within1 = lag.find(([le]) => le === 1)?.[1] ?? 0;
  const batches = delta(after.batches, before.batches);
  const slowest = batches.find(([, n]) => n === batches.at(-1)![1])?.[0] ?? 0;
  return { readings: total, within1: total ? (100 * within1) / total : 100, slowestBatch: slowest, loopMax: after.loopMax, pending: after.pending };
}

/** The upper bound of the bucket holding quantile q (a histogram's honest answer). */
function bucketQuantile(buckets: (readonly [number, number])[], q: number) {
  const total = buckets.at(-1)?.[1] ?? 0;
  const bound = buckets.find(([, n]) => n >= q * total);
  return bound ? bound[0] : Infinity;
}

/** The bare peer in a process of its own: MQTT.js subscriber, acknowledging on arrival, COPY per batch into `peer_readings`. */
const PEER_SCRIPT = `
import mqtt from 'mqtt';
import pg from 'pg';
import { from } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
const [url, broker, clientId] = process.argv.slice(1);
const db = new pg.Client({ connectionString: url });
await db.connect();
const ids = new Map((await db.query("select id, code from sensor_devices where code like 'B-%'")).rows.map((r) => [r.code, r.id]));
let rows = [];
let stored = 0;
const lags = [];
let writing = false;
async function flush() {
  if (writing || !rows.length) return;
  writing = true;
  const batch = rows; rows = [];
  const text = batch.map((r) => r.slice(0, 3).join('\\t')).join('\\n') + '\\n';
  await pipeline(Readable.from([text]), db.query(from('copy peer_readings (device_id, at, value) from stdin')));
  stored += batch.length;
  const now = Date.now();
  for (let i = 0; i < batch.length; i += 50) lags.push(now - batch[i][3]);
  writing = false;
}
setInterval(() => void flush().catch((e) => { console.error(e.message); process.exit(1); }), 50);
setInterval(() => process.stdout.write(JSON.stringify({ stored, lags: lags.splice(0) }) + '\\n'), 1000);
const client = await mqtt.connectAsync(broker, { protocolVersion: 5, clientId, clean: true });
client.on('message', (topic, payload) => {
  const id = ids.get(topic.slice(topic.lastIndexOf('/') + 1));
  if (id === undefined) return;
  const r = JSON.parse(payload.toString());
  rows.push([id, new Date(r.ts).toISOString(), r.value, r.ts]);
});
await client.subscribeAsync('sensors/+/+', { qos: 1 });
process.stdout.write('ready\\n');
`;

export async function benchSensorIngest() {
  const tag = randomBytes(3).toString('hex');
  const broker = await startMosquitto();
  console.log(`\nSensor readings through Mosquitto (the machine's, run with the README's settings: no cap on what waits for a session): ${DEVICES.toLocaleString('en-US')} devices, ${RATE.toLocaleString('en-US')} readings/s asked for ${SECONDS} s, QoS 1, ${PUBLISHERS} publishing connections in the bench's process`);
  const scratch = await emptyServerDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-sensors-'));
  const logFile = join(dataDir, 'server.log');
  const admin = new pg.Client({ connectionString: scratch.url });
  try {
    const server = await startConsoleServer({
      dataDir,
      databaseUrl: scratch.url,
      logFile,
      nodeArgs: process.env.BENCH_SENSOR_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SENSOR_PROFILE}`] : [],
      env: { MQTT_URL: broker.url, MQTT_CLIENT_ID: `bench-console-${tag}`, MQTT_SHARE_GROUP: `bench${tag}`, METRICS_TOKEN, ALERT_CHECK_DELAY_S: '1', MQTT_LISTEN: 'off' },
    });
    await admin.connect();
    const [{ id: enterpriseId }] = (await admin.query<{ id: number }>(`select id from enterprises order by id limit 1`)).rows;
    // The devices, as an import would leave them: pressure meters on a grid over the demo city, credentials made.
    await admin.query(
      `insert into sensor_devices (enterprise_id, code, name, kind, lon, lat, interval_seconds, thresholds, credential_hash)
       select $1, 'B-' || lpad(i::text, 5, '0'), 'bench ' || i, 'pressure', 120.15 + (i % 100) * 0.001, 30.18 + (i / 100) * 0.001, 1,
         '{"belowWarning": 0.2, "belowAlarm": 0.15, "hysteresis": 0.02}', 'bench'
       from generate_series(1, ${DEVICES}) i`,
      [enterpriseId],
    );
    const devices = (await admin.query<{ id: number; code: string }>(`select id, code from sensor_devices where code like 'B-%' order by id`)).rows;
    const codes = devices.map((d) => d.code);
    // Devices outside the load that go into alarm halfway through it: from publish to alert raised.
    await admin.query(
      `insert into sensor_devices (enterprise_id, code, name, kind, lon, lat, interval_seconds, thresholds, credential_hash)
       select $1, 'A-' || lpad(i::text, 2, '0'), 'alarm ' || i, 'pressure', 120.16 + i * 0.01, 30.2, 3600, '{"belowWarning": 0.2, "belowAlarm": 0.15, "hysteresis": 0.02}', 'bench'
       from generate_series(1, ${ALARMS}) i`,
      [enterpriseId],
    );
    const alarmPublished = new Map<string, number>();
    const alarms = setTimeout(() => void publishAlarms(broker.url, enterpriseId, alarmPublished), (SECONDS * 1000) / 2);

    // Ours.
    const memory: number[] = [];
    const cpuBefore = await cpuSeconds(server.pid);
    const database = await postgresServer(scratch.url);
    const dbBefore = await database.cpuSeconds();
    const before = await serverMetrics(server.url);
    const sampler = setInterval(() => void readRss(server.pid!).then((rss) => memory.push(rss), () => {}), 30_000);
    // Every 10 s: how the readings of that window fared (a stall shows where it happened).
    const windows: ReturnType<typeof windowOf>[] = [];
    let windowStart = before;
    const windowSampler = setInterval(() => {
      void serverMetrics(server.url).then((now) => {
        windows.push(windowOf(windowStart, now));
        windowStart = now;
      }, () => {});
    }, 10_000);
    const published = await publishLoad(broker.url, enterpriseId, codes, `${tag}o`);
    const atEnd = (await serverMetrics(server.url)).stored - before.stored;
    // What is still on its way is stored after, or counted as not.
    let after = await serverMetrics(server.url);
    let caughtUp = 0;
    for (; caughtUp < 120 && after.stored - before.stored < published.acked; caughtUp++) {
      await new Promise((r) => setTimeout(r, 1000));
      after = await serverMetrics(server.url);
    }
    clearInterval(sampler);
    clearInterval(windowSampler);
    clearTimeout(alarms);
    const raised = new Map(
      (await admin.query<{ subject: string; at: Date }>(`select subject, raised_at as at from alerts where rule = 'sensorThreshold' and subject like 'A-%'`)).rows.map((r) => [r.subject, r.at.getTime()]),
    );
    const alertLags = [...alarmPublished].map(([code, at]) => (raised.has(code) ? raised.get(code)! - at : Infinity)).sort((a, b) => a - b);
    const [{ silent }] = (await admin.query<{ silent: number }>(`select count(*)::int as silent from alerts where rule = 'sensorSilent' and subject like 'B-%'`)).rows;
    const ours = { stored: after.stored - before.stored, cpu: (await cpuSeconds(server.pid)) - cpuBefore, db: (await database.cpuSeconds()) - dbBefore };
    const lagBuckets = after.buckets.map(([le, n], i) => [le, n - (before.buckets[i]?.[1] ?? 0)] as const);
    console.log(`  ours (the console, PostgreSQL): ${Math.round(atEnd / published.seconds).toLocaleString('en-US')} readings/s stored over the publishing window (counted 2 s after its end); ${ours.stored.toLocaleString('en-US')} of ${(published.sent + alarmPublished.size).toLocaleString('en-US')} sent stored in all, ${caughtUp} s after the last, lag to stored p50 <= ${bucketQuantile(lagBuckets, 0.5)} s, p99 <= ${bucketQuantile(lagBuckets, 0.99)} s (goal p99 < 1 s); ${ours.cpu.toFixed(1)} CPU-s server, ${ours.db.toFixed(1)} CPU-s database`);
    console.log(`    publish to alert raised, ${alertLags.length} devices going into alarm halfway through: median ${(alertLags[Math.floor(alertLags.length / 2)] / 1000).toFixed(2)} s, slowest ${(alertLags.at(-1)! / 1000).toFixed(2)} s (goal < 2 s; the alert check waits a second after a change, ALERT_CHECK_DELAY_S); loaded devices wrongly raised silent: ${silent}`);
    const lagTotal = lagBuckets.at(-1)?.[1] ?? 0;
    console.log(`    readings stored within: ${lagBuckets.filter(([le]) => le <= 5).map(([le, n]) => `${le} s ${((100 * n) / Math.max(1, lagTotal)).toFixed(1)} %`).join(', ')}`);
    console.log(`    server memory every 30 s: ${memory.map(mb).join(', ')}`);
    const batchCount = after.batchCount - before.batchCount;
    const batchBuckets = after.batches.map(([le, n], i) => [le, n - (before.batches[i]?.[1] ?? 0)] as const);
    console.log(`    batches: ${batchCount.toLocaleString('en-US')}, ${Math.round(ours.stored / Math.max(1, batchCount)).toLocaleString('en-US')} readings and ${(((after.batchSeconds - before.batchSeconds) / Math.max(1, batchCount)) * 1000).toFixed(0)} ms each on average, p50 <= ${bucketQuantile(batchBuckets, 0.5)} s, p99 <= ${bucketQuantile(batchBuckets, 0.99)} s; the store busy ${((100 * (after.batchSeconds - before.batchSeconds)) / published.seconds).toFixed(0)} % of the run`);
    console.log(`    per 10 s, % stored within 1 s: ${windows.map((w) => w.within1.toFixed(w.within1 === 100 ? 0 : 1)).join(' ')}`);
    for (const [i, w] of windows.entries()) {
      if (w.within1 < 99) console.log(`      ${i * 10}-${i * 10 + 10} s: ${w.within1.toFixed(1)} % of ${w.readings.toLocaleString('en-US')} within 1 s; slowest batch <= ${w.slowestBatch} s; event loop's longest delay ${(w.loopMax * 1000).toFixed(0)} ms; ${w.pending.toLocaleString('en-US')} waiting at the end`);
    }
    const slow = (await readFile(logFile, 'utf8').catch(() => '')).split('\n').filter((line) => line.includes('"sensor batch slow"')).map((line) => JSON.parse(line) as Record<string, number>);
    if (slow.length) {
      const worst = slow.reduce((a, b) => (b.ms > a.ms ? b : a));
      console.log(`    batches slower than 1 s (the server's log): ${slow.length}; the slowest ${worst.ms} ms: look-up ${worst.lookUpMs} ms, readings ${worst.readingsMs} ms, ${worst.devices} devices ${worst.devicesMs} ms, refusals ${worst.refusalsMs} ms, commit and the rest ${worst.ms - worst.lookUpMs - worst.readingsMs - worst.devicesMs - worst.refusalsMs} ms; ${worst.readings} readings, ${worst.pending} waiting`);
    }
    await server.stop();
    // Its session is removed from the broker (a persistent one would go on collecting every reading).
    await (await mqtt.connectAsync(broker.url, { protocolVersion: 5, clientId: `bench-console-${tag}`, clean: true, properties: { sessionExpiryInterval: 0 } })).endAsync();

    // The peer.
    await admin.query(`create table peer_readings (device_id int not null, at timestamptz not null, value float8 not null, primary key (device_id, at))`);
    const peer = spawn(process.execPath, ['--input-type=module', '-e', PEER_SCRIPT, scratch.url, broker.url, `bench-peer-${tag}`], { cwd: join(import.meta.dirname, '../apps/server'), stdio: ['ignore', 'pipe', 'inherit'] });
    let peerStored = 0;
    const peerLags: number[] = [];
    let ready!: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    let buffer = '';
    peer.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let cut;
      while ((cut = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 1);
        if (line === 'ready') ready();
        else if (line.startsWith('{')) {
          const report = JSON.parse(line) as { stored: number; lags: number[] };
          peerStored = report.stored;
          peerLags.push(...report.lags);
        }
      }
    });
    await isReady;
    const peerCpuBefore = await cpuSeconds(peer.pid);
    const peerDbBefore = await database.cpuSeconds();
    const peerPublished = await publishLoad(broker.url, enterpriseId, codes, `${tag}p`);
    const peerAtEnd = peerStored;
    let peerCaughtUp = 0;
    for (; peerCaughtUp < 120 && peerStored < peerPublished.acked; peerCaughtUp++) await new Promise((r) => setTimeout(r, 1000));
    const peerCpu = (await cpuSeconds(peer.pid)) - peerCpuBefore;
    const peerDb = (await database.cpuSeconds()) - peerDbBefore;
    peer.kill();
    const sorted = peerLags.sort((a, b) => a - b);
    const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1000 : NaN);
    console.log(`  peer (a bare MQTT.js subscriber, COPY per batch): ${Math.round(peerAtEnd / peerPublished.seconds).toLocaleString('en-US')} readings/s stored over the publishing window (counted 2 s after its end); ${peerStored.toLocaleString('en-US')} of ${peerPublished.sent.toLocaleString('en-US')} sent stored in all, ${peerCaughtUp} s after the last, lag p50 ${at(0.5).toFixed(2)} s, p99 ${at(0.99).toFixed(2)} s; ${peerCpu.toFixed(1)} CPU-s subscriber, ${peerDb.toFixed(1)} CPU-s database`);
    console.log(`  ratio ours/peer readings stored a second over the window: ${(atEnd / published.seconds / (peerAtEnd / peerPublished.seconds)).toFixed(2)} (goal >= 0.7); ours acknowledges only what is stored, the peer on arrival`);
  } finally {
    broker.stop();
    await admin.end().catch(() => {});
    await scratch.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The machine's Mosquitto binary on a port of its own, set as the README says for the console: nothing queued for a session is dropped. */
async function startMosquitto() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-mosquitto-'));
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  await writeFile(join(dir, 'mosquitto.conf'), [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', 'max_queued_messages 0', 'max_inflight_messages 0', 'user root'].join('\n') + '\n');
  const child = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    const up = await new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `mqtt://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function readRss(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSensorIngest();
