import type { Server } from 'node:http';
import { readConfig } from './config.ts';
import { buildApp } from './app.ts';
import { listenForMetrics } from './modules/metrics/routes.ts';
import { openConfiguredDatabase } from './db/open.ts';
import { DataDirInUse } from './db/dataDirLock.ts';
import { demoSignInText, isEmpty, seedDemo } from './demo/seed.ts';
import { failInterruptedJobs } from './modules/imports/jobs.ts';
import { failInterruptedAnalyses } from './modules/settlement/analysis.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from './db/client.ts';
import { remeasureSites } from './modules/construction/measure.ts';
import { remeasureAreas } from './modules/riskAreas/service.ts';

const config = readConfig();
// A fault outside the process (the database going away under a background job) is logged, never
// the end of the process: the database watch answers 503 meanwhile and resumes the work after.
process.on('unhandledRejection', (reason) => console.error('unhandled rejection (the server goes on):', reason));
const database = await openConfiguredDatabase(config, (error) => console.error(`waiting for the database: ${(error as Error).message}`)).catch((error) => {
  if (!(error instanceof DataDirInUse)) throw error;
  console.error(`refused: ${error.message}`);
  process.exit(1);
});
const seeded = await isEmpty(database.db);
if (seeded) await seedDemo(database.db);

// Imports cut off by a stopped or crashed server end as interrupted, their staged rows dropped;
// one cut off while it measured what depends on its (written) network is measured here.
const cutOff = await failInterruptedJobs(database.db, database.kind === 'pglite');
await failInterruptedAnalyses(database.db);
// So are sites and areas measured before their pipe sets were kept as rows (they kept the nearest
// 50 in their figures), so risk and alerts count every pipe.
const older = await queryRows<{ enterprise_id: number }>(
  database.db,
  sql`select enterprise_id from construction_sites where measure ? 'corridor' union select enterprise_id from risk_areas where pipes ? 'pipes'`,
);
for (const enterpriseId of new Set([...cutOff, ...older.map((r) => Number(r.enterprise_id))])) {
  await remeasureSites(database.db, enterpriseId);
  await remeasureAreas(database.db, enterpriseId);
}
const app = await buildApp({ config, database, logger: { level: config.logLevel } });

let closing = false;
let metricsServer: Server | null = null;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
    metricsServer?.close();
    await app.close();
    await database.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
// Metrics on an address of their own, when one is set (never the public port without a token).
if (config.metricsListen) {
  metricsServer = await listenForMetrics(app.metrics, config.metricsListen);
  app.log.info({ address: config.metricsListen }, 'metrics served');
}
const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
console.log(
  `\nPipeline risk monitoring console is running on ${where}${seeded ? ', demo data seeded' : ''}.\n` +
    demoSignInText(`http://localhost:${config.port}`) +
    '\n',
);
