import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { AUDIT_MIN_RETENTION_DAYS } from '@console/contract';

export interface Config {
  port: number;
  host: string;
  /** postgres://... to use a PostgreSQL server; unset for embedded PGlite. */
  databaseUrl?: string;
  /** postgres://... of the role that owns the schema and runs the migrations (DATABASE_OWNER_URL); the server itself works as DATABASE_URL's role. */
  databaseOwnerUrl?: string;
  /** postgres://... of streaming replicas for heavy reads (DATABASE_READ_URL, comma-separated); only with databaseUrl. */
  databaseReadUrls: string[];
  /** A replica further behind the primary's WAL than this is left out (bytes). */
  readMaxLagBytes: number;
  /** How often the replicas' lag and answer are checked (ms). */
  readCheckMs: number;
  /** How often a PostgreSQL server is asked whether it answers (ms; every second while it is away). */
  dbCheckMs: number;
  /** An answer later than this counts as the server away (a hung server; ms). */
  dbTimeoutMs: number;
  /** Where embedded PGlite keeps its files (and, later, uploads). */
  dataDir: string;
  /** Built console to serve; unset or missing folder means API only. */
  webDist: string;
  /** ICP filing number shown in the console footer. */
  icpNumber: string;
  /** Body size limit in bytes (JSON and form bodies). */
  bodyLimit: number;
  /** Size limit of one uploaded file in bytes (imports). */
  uploadLimit: number;
  /** What an enterprise's pending imports (analysed or running) may hold on disk at once. */
  importQuota: number;
  /** Imports of files from this size on read their rows in worker threads, where the kind can (bytes). */
  parallelImportBytes: number;
  /** Size limit of one photo in bytes. */
  photoLimit: number;
  logLevel: string;
  /** Which requests get a log line: `slow` (the default: failed or slower than logSlowMs) or `all`. */
  logRequests: 'slow' | 'all';
  logSlowMs: number;
  /** Trust X-Forwarded-For from a load balancer (TRUST_PROXY=true), for the sign-in lockout by address. */
  trustProxy: boolean;
  /** The network's risk is assessed again this long after the last change to what it is made of (ms; 0: only when asked). */
  riskDelayMs: number;
  /** The alert rules run this long after a change to what they read (ms; 0: only when asked, and no sweep). */
  alertDelayMs: number;
  /** Sites whose pages may read the open data (OGC API, tiles, TileJSON, styles) with a personal token: '*' for any, else a list of origins. */
  openDataOrigins: '*' | string[];
  /** The console's address as people open it (links in messages to group chats and mail). */
  consoleUrl: string;
  /** smtp://user:pass@host:port (smtps:// for TLS) to send incident mail; unset: no e-mail channel. */
  smtpUrl?: string;
  smtpFrom: string;
  /** The CJK font embedded in report PDFs (a TrueType font or collection). */
  reportFont: string;
  /** Hosts a group robot's webhook may be on: the server sends to these and no others. */
  robotHosts: string[];
  /** A failed channel send is tried again after this, doubling each time (ms). */
  channelRetryMs: number;
  /** A scraper's bearer token for /metrics on the console's port; unset: no /metrics there. */
  metricsToken?: string;
  /** host:port where /metrics is served without a token (a private address); unset: none. */
  metricsListen?: string;
  /** Audit records are kept this many days (at least 180, the MLPS 2.0 minimum). */
  auditRetentionDays: number;
  /** AUDIT_TRAIL=off: writes unrecorded, only for the benchmark's peer (the server warns at start). */
  auditTrail: boolean;
  /** Sensors: the MQTT broker the server subscribes to (MQTT_URL, mqtt:// or mqtts://, user and password in it); unset: the embedded broker. */
  mqttUrl?: string;
  /** host:port the embedded broker listens on when no MQTT_URL is set (MQTT_LISTEN; 'off': none). */
  mqttListen: { host: string; port: number } | null;
  /** MQTT protocol version spoken to MQTT_URL's broker: 5 (the default: shared subscriptions, a receive maximum) or 4 (3.1.1). */
  mqttProtocol: 4 | 5;
  /** This server's session on the broker (MQTT_CLIENT_ID): stable across restarts, so what arrived meanwhile is kept for it. */
  mqttClientId: string;
  /** Mosquitto's password file, written from the devices' credentials (MOSQUITTO_PASSWORD_FILE); unset: the broker's accounts are kept elsewhere. */
  mosquittoPasswordFile?: string;
  /** Mosquitto's pid file (MOSQUITTO_PID_FILE): it is sent SIGHUP to read the password file again. */
  mosquittoPidFile?: string;
  /** How long the broker keeps this server's session while it is away (MQTT_SESSION_EXPIRY_S, MQTT 5): what arrives meanwhile waits that long. */
  mqttSessionExpirySeconds: number;
  /** The shared subscription's group (MQTT_SHARE_GROUP): the servers of one console share the stream, each message handled once. */
  mqttShareGroup: string;
}

const ROOT = resolve(import.meta.dirname, '../../..');

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`PORT: not a valid port: ${env.PORT}`);
  if (env.DATABASE_URL && !/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
    throw new Error('DATABASE_URL: must start with postgres:// or postgresql://');
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseOwnerUrl: env.DATABASE_URL ? env.DATABASE_OWNER_URL || undefined : undefined,
    databaseReadUrls: readUrls(env),
    readMaxLagBytes: megabytes(env, 'READ_MAX_LAG_MB', 16),
    readCheckMs: seconds(env, 'READ_CHECK_S', 1) * 1000 || 1000,
    dbCheckMs: seconds(env, 'DB_CHECK_S', 2) * 1000 || 2000,
    dbTimeoutMs: seconds(env, 'DB_TIMEOUT_S', 5) * 1000 || 5000,
    dataDir: resolve(env.DATA_DIR ?? resolve(ROOT, 'data')),
    webDist: resolve(env.WEB_DIST ?? resolve(ROOT, 'apps/web/dist')),
    icpNumber: env.ICP_NUMBER ?? '京ICP备00000000号',
    bodyLimit: megabytes(env, 'BODY_LIMIT_MB', 20),
    uploadLimit: megabytes(env, 'UPLOAD_LIMIT_MB', 200),
    importQuota: megabytes(env, 'IMPORT_QUOTA_MB', 2048),
    parallelImportBytes: megabytes(env, 'PARALLEL_IMPORT_MB', 32),
    photoLimit: megabytes(env, 'PHOTO_LIMIT_MB', 10),
    logLevel: env.LOG_LEVEL ?? 'info',
    logRequests: logRequests(env),
    logSlowMs: seconds(env, 'LOG_SLOW_S', 1) * 1000,
    trustProxy: env.TRUST_PROXY === 'true',
    riskDelayMs: seconds(env, 'RISK_ASSESS_DELAY_S', 60) * 1000,
    alertDelayMs: seconds(env, 'ALERT_CHECK_DELAY_S', 1) * 1000,
    openDataOrigins: origins(env, 'OPEN_DATA_ORIGINS'),
    consoleUrl: (env.CONSOLE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM ?? 'pipeline-risk@localhost',
    // Debian's fonts-wqy-microhei: Chinese and Latin letters in one font.
    reportFont: env.REPORT_FONT ?? '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
    robotHosts: (env.ROBOT_HOSTS ?? 'oapi.dingtalk.com,qyapi.weixin.qq.com').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    channelRetryMs: seconds(env, 'CHANNEL_RETRY_S', 30) * 1000,
    metricsToken: metricsToken(env),
    metricsListen: listenAddress(env, 'METRICS_LISTEN'),
    auditRetentionDays: retentionDays(env),
    auditTrail: env.AUDIT_TRAIL !== 'off',
    mqttUrl: mqttUrl(env),
    mqttListen: env.MQTT_LISTEN === 'off' ? null : listenOn(env.MQTT_LISTEN ?? `${env.HOST ?? '0.0.0.0'}:1884`, 'MQTT_LISTEN'),
    mqttProtocol: env.MQTT_PROTOCOL === '4' ? 4 : 5,
    mqttClientId: env.MQTT_CLIENT_ID || `console-${hostname()}-${port}`,
    mqttShareGroup: env.MQTT_SHARE_GROUP || 'console',
    mqttSessionExpirySeconds: seconds(env, 'MQTT_SESSION_EXPIRY_S', 7 * 86_400) || 7 * 86_400,
    mosquittoPasswordFile: env.MOSQUITTO_PASSWORD_FILE || undefined,
    mosquittoPidFile: env.MOSQUITTO_PID_FILE || undefined,
  };
}

function logRequests(env: NodeJS.ProcessEnv): Config['logRequests'] {
  const value = (env.LOG_REQUESTS ?? 'slow').trim().toLowerCase();
  if (value !== 'slow' && value !== 'all') throw new Error(`LOG_REQUESTS must be slow or all, not ${value}`);
  return value;
}

/** '*' (the default), or origins separated by commas, each scheme://host[:port]. */
function origins(env: NodeJS.ProcessEnv, name: string): '*' | string[] {
  const text = (env[name] ?? '*').trim();
  if (text === '*') return '*';
  const list = text.split(',').map((o) => o.trim()).filter(Boolean);
  const bad = list.find((o) => !/^https?:\/\/[^/\s]+$/.test(o));
  if (bad !== undefined || !list.length) throw new Error(`${name}: must be * or origins like https://map.example.com separated by commas: ${env[name]}`);
  return list;
}

function metricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.METRICS_TOKEN;
  if (token === undefined || token === '') return undefined;
  if (token.length < 16) throw new Error('METRICS_TOKEN: must be at least 16 characters');
  return token;
}

function listenAddress(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  if (!value) return undefined;
  if (!/^[^\s:]+:\d{1,5}$/.test(value) && !/^\[[0-9a-f:]+\]:\d{1,5}$/i.test(value)) throw new Error(`${name}: must be host:port, such as 127.0.0.1:9464: ${value}`);
  return value;
}

function readUrls(env: NodeJS.ProcessEnv): string[] {
  const urls = (env.DATABASE_READ_URL ?? '').split(',').map((u) => u.trim()).filter(Boolean);
  if (urls.length && !env.DATABASE_URL) throw new Error('DATABASE_READ_URL: replicas need DATABASE_URL (the primary); the embedded database has none');
  const bad = urls.find((u) => !/^postgres(ql)?:\/\//.test(u));
  if (bad) throw new Error(`DATABASE_READ_URL: each URL must start with postgres:// or postgresql://`);
  return urls;
}

function retentionDays(env: NodeJS.ProcessEnv): number {
  const value = Number(env.AUDIT_RETENTION_DAYS ?? AUDIT_MIN_RETENTION_DAYS);
  if (!Number.isInteger(value) || value < AUDIT_MIN_RETENTION_DAYS) throw new Error(`AUDIT_RETENTION_DAYS: must be a whole number of days, ${AUDIT_MIN_RETENTION_DAYS} or more: ${env.AUDIT_RETENTION_DAYS}`);
  return value;
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!(value >= 0)) throw new Error(`${name}: must be a number of seconds, 0 or more: ${env[name]}`);
  return value;
}

function megabytes(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!(value > 0)) throw new Error(`${name}: must be a positive number of megabytes: ${env[name]}`);
  return Math.round(value * 1024 * 1024);
}

function mqttUrl(env: NodeJS.ProcessEnv): string | undefined {
  const url = env.MQTT_URL?.trim();
  if (!url) return undefined;
  if (!/^(mqtts?|tcp|ssl):\/\/[^/\s]+\/?$/.test(url)) throw new Error('MQTT_URL: must be mqtt://host:port or mqtts://host:port (user:password@ before the host)');
  return url;
}

function listenOn(text: string, name: string): { host: string; port: number } {
  const match = /^(.*):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new Error(`${name}: must be host:port or off, not ${text}`);
  return { host: match[1] || '0.0.0.0', port };
}
