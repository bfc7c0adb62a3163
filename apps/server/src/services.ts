import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { ChangeFeed } from './db/changes.ts';
import { ReadReplicas } from './db/replicas.ts';
import { AccessCache } from './http/access.ts';
import { watchDatabase } from './http/availability.ts';
import { ReadCache } from './http/cache.ts';
import { AlertEngine } from './modules/alerts/engine.ts';
import { AuditRetention } from './modules/audit/service.ts';
import { ChannelOutbox } from './modules/channels/outbox.ts';
import { channelSenders } from './modules/channels/senders.ts';
import { abandonIdleJobs } from './modules/imports/jobs.ts';
import { JobRunner } from './modules/imports/runner.ts';
import { ConsoleMetrics } from './modules/metrics/registry.ts';
import { PipeRiskJobs } from './modules/pipeRisk/jobs.ts';
import { MonthlyReports } from './modules/reports/schedule.ts';
import { localSmsProvider, type SmsProvider } from './modules/sms/provider.ts';
import { WeatherSchedule } from './modules/weather/provider.ts';
import { SensorStreams } from './modules/sensors/streams.ts';

/**
 * The server's background services, started once and stopped when the app closes: read
 * replicas, the change feed and the caches it clears, import jobs, risk assessments, the alert
 * rules, the channels' outbox, the weather, audit and monthly report schedules, the sensors' stream, and the watch on the database
 * that resumes them all after an outage. Each is decorated on the app for the routes.
 */
export async function startServices(app: FastifyInstance, config: Config, database: Database, smsProvider?: SmsProvider) {
  // Heavy reads go to streaming replicas when DATABASE_READ_URL names some (a server database only).
  const replicas = new ReadReplicas(database, database.kind === 'postgres' ? config.databaseReadUrls : [], {
    maxLagBytes: config.readMaxLagBytes,
    checkMs: config.readCheckMs,
    onChange: (states) => app.log.warn({ replicas: states }, 'read replicas changed'),
    onRead: (target) => metrics.heavyReads.inc({ target }),
  });
  const metrics = new ConsoleMetrics(database, () => replicas.states());
  app.decorate('metrics', metrics);
  await replicas.start();
  app.decorate('replicas', replicas);
  const changes = new ChangeFeed(database);
  await changes.start();
  app.decorate('changes', changes);
  app.decorate('access', new AccessCache(database.db, changes));
  app.decorate('reads', new ReadCache(changes));
  // Imports run in the background; closing the server stops them (they end as failed, writing nothing).
  const importRunner = new JobRunner(database.db, changes);
  app.decorate('imports', importRunner);
  // Uploads left at the mapping step for an hour are removed (each enterprise's are also swept when it uploads or lists).
  const sweepUploads = () => void abandonIdleJobs(database.db).catch((error) => app.log.error({ err: error }, 'sweeping abandoned uploads failed'));
  const uploadSweeper = setInterval(sweepUploads, 10 * 60_000).unref();
  sweepUploads();
  // Enterprises whose weather comes from a service are fetched on their schedule (one instance each time).
  const weatherSchedule = new WeatherSchedule(database.db);
  weatherSchedule.start();
  // Every pipe's composite risk, assessed again when what it is made of changes.
  const pipeRisk = new PipeRiskJobs(database.db, app.log, config.riskDelayMs, metrics);
  // A pipe import assesses the network itself, as the last step of its job (app.ts afterImport).
  importRunner.whenFinished((job) => job.kind !== 'pipes' && pipeRisk.soon(job.enterpriseId, 'change'));
  app.decorate('pipeRisk', pipeRisk);
  // Alerts raised by the rules shortly after what they read changes, and every few minutes.
  const sms = smsProvider ?? localSmsProvider(database.db, app.log);
  // Incidents announced to the enterprises' group robots and mail, sent after the step that caused them.
  const outbox = new ChannelOutbox(database.db, channelSenders({ url: config.smtpUrl, from: config.smtpFrom }), { consoleUrl: config.consoleUrl, retryMs: config.channelRetryMs, robotHosts: config.robotHosts }, app.log);
  outbox.start();
  const alertEngine = new AlertEngine(database, sms, outbox, app.log, config.alertDelayMs, metrics);
  await alertEngine.start(config.alertDelayMs > 0);
  importRunner.whenFinished((job) => alertEngine.soon(job.enterpriseId));
  pipeRisk.whenAssessed((enterpriseId) => alertEngine.soon(enterpriseId));
  app.decorate('alerts', alertEngine);
  // Each enterprise's report of the month just ended, made on the first and sent to its channels.
  const monthlyReports = new MonthlyReports(database.db, outbox, app.log);
  monthlyReports.start();
  app.decorate('monthlyReports', monthlyReports);
  // Sensors' readings from the MQTT broker (or the embedded one, with the demo's devices); a device whose state changes has its rules checked soon.
  const sensors = new SensorStreams(database.db, config, app.log, metrics, (enterpriseId) => alertEngine.soon(enterpriseId));
  await sensors.start();
  app.decorate('sensors', sensors);
  // The audit trail's records past the retention time, removed by one server.
  // With two roles the application cannot delete audit records: the retention job runs as the owner.
  const owner = config.databaseOwnerUrl ? await openDatabase({ databaseUrl: config.databaseOwnerUrl, dataDir: null }) : null;
  const auditRetention = new AuditRetention(
    (owner ?? database).db,
    config.auditRetentionDays,
    (count) => metrics.auditPruned.inc(count),
    (error) => app.log.error({ err: error }, 'pruning the audit trail failed'),
  );
  auditRetention.start();
  // While the database is away requests are answered 503; when it is back, what was missed is made good.
  const watch = watchDatabase(app, database, config, () => {
    changes.resumed();
    alertEngine.resume();
    outbox.kick();
    weatherSchedule.kick();
    monthlyReports.kick();
  });
  app.addHook('onClose', async () => {
    clearInterval(uploadSweeper);
    await sensors.close();
    await replicas.close();
    await auditRetention.close();
    await owner?.close();
    await alertEngine.close();
    await monthlyReports.close();
    await outbox.close();
    await weatherSchedule.close();
    await pipeRisk.idle();
    await importRunner.close();
    await changes.close();
  });
  return { replicas, metrics, changes, importRunner, pipeRisk, sms, outbox, alertEngine, monthlyReports, sensors, watch };
}
