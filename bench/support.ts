/** What the benchmarks share: fresh databases on both engines, peak memory, the peers' availability. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrateDatabase, openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/testing/databases.ts';

const run = promisify(execFile);
export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The `p`th percentile of latencies sorted ascending. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Peak resident memory of this process while `work` runs (sampled every 50 ms). */
export async function withPeakMemory<T>(work: () => Promise<T>): Promise<{ value: T; peakRss: number; ms: number }> {
  let peakRss = process.memoryUsage().rss;
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const started = performance.now();
  try {
    const value = await work();
    return { value, peakRss: Math.max(peakRss, process.memoryUsage().rss), ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

/** A new empty database on the PostgreSQL server, for a server process to seed; dropped by the returned function. */
export const emptyServerDatabase = () => createScratchDatabase(SERVER_URL, 'console_bench');

/** A database for one run: embedded PGlite in a folder, or a new database on the server (dropped at the end). */
export async function freshDatabase(kind: 'pglite' | 'postgres', dir: string): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ dataDir: join(dir, 'pglite') });
    await migrateDatabase(database);
    return { database, drop: async () => database.close() };
  }
  const created = await emptyServerDatabase();
  const database = await openDatabase({ databaseUrl: created.url, dataDir: null });
  await migrateDatabase(database);
  return {
    database,
    url: created.url,
    drop: async () => {
      await database.close();
      await created.drop();
    },
  };
}

export async function hasCommand(command: string) {
  return run(command, ['--version']).then(() => true, () => false);
}

export async function postgisAvailable(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists postgis');
    return true;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

