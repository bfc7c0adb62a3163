import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

/** The Drizzle database, the same type whether it runs on PGlite or on a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle a `db.transaction` callback gets. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * Runs `work` on a database that stops when `signal` aborts (the client went away): on a
   * PostgreSQL server the running statement is cancelled (pg_cancel_backend on the connection the
   * work holds); on the embedded database, which runs one statement at a time, work not yet
   * started is dropped instead of waiting its turn for nobody.
   */
  cancellable<T>(signal: AbortSignal, work: (db: Db) => Promise<T>): Promise<T>;
  /** PostgreSQL server only: LISTEN on a channel over a connection of its own; returns the way to stop. */
  listen?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** PostgreSQL server only: the pool's connections (open, idle) and the requests waiting for one. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Embedded database only: PGlite's own dump of its data directory (a gzip tarball), for backups. */
  dumpDataDir?(): Promise<Blob>;
  /** Embedded database only: a table's rows in COPY's text format (moving to a server). Names come from the catalog. */
  copyOut?(table: string): Promise<Buffer>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** The database, refusing to start another statement once `signal` has aborted. */
function stopsWhenAborted(db: Db, signal: AbortSignal): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'execute' || property === 'select' || property === 'selectDistinct' || property === 'insert' || property === 'update' || property === 'delete') {
        signal.throwIfAborted();
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/** Work on one connection of a server's pool, its statement cancelled when `signal` aborts (the client went away). */
export function cancellableOn(pool: import('pg').Pool, dbOf: (client: import('pg').PoolClient) => Db): Database['cancellable'] {
  // One drizzle instance per pooled connection, made on its first use: making one works out the
  // relations of the whole schema, which cost every uncached list or tile request ~0.3 ms of Node.
  const dbs = new WeakMap<import('pg').PoolClient, Db>();
  const dbFor = (client: import('pg').PoolClient) => {
    let db = dbs.get(client);
    if (!db) dbs.set(client, (db = dbOf(client)));
    return db;
  };
  return async <T>(signal: AbortSignal, work: (db: Db) => Promise<T>): Promise<T> => {
    signal.throwIfAborted();
    const client = await pool.connect();
    const processId = (client as unknown as { processID: number }).processID;
    const cancel = () => void pool.query('select pg_cancel_backend($1)', [processId]).catch(() => {});
    signal.addEventListener('abort', cancel, { once: true });
    try {
      signal.throwIfAborted();
      return await work(stopsWhenAborted(dbFor(client), signal));
    } finally {
      signal.removeEventListener('abort', cancel);
      // A cancel may still be on its way to this connection: it is closed, not handed to the
      // next request, whose statement the late cancel would otherwise stop.
      client.release(signal.aborted);
    }
  };
}

/**
 * Opens the database: a PostgreSQL server when `databaseUrl` is given, otherwise embedded
 * PGlite stored in `dataDir` (in memory when dataDir is null, as tests do).
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string | null; loadDataDir?: Blob }): Promise<Database> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzle(pool, { schema }) as unknown as Db;
    const listen = async (channel: string, onMessage: (payload: string) => void) => {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      client.on('notification', (message) => message.channel === channel && message.payload !== undefined && onMessage(message.payload));
      // A lost connection loses notifications only: caches still expire on their own.
      client.on('error', () => {});
      await client.connect();
      await client.query(`listen ${channel}`);
      return () => client.end();
    };
    const cancellable = cancellableOn(pool, (client) => drizzle(client, { schema }) as unknown as Db);
    const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, kind: 'postgres', close: () => pool.end(), listen, cancellable, poolStats };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  // pg_trgm: the pipe list's keyword search runs on a trigram index, as on a PostgreSQL server.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({ dataDir: options.dataDir ?? undefined, extensions: { pg_trgm }, loadDataDir: options.loadDataDir });
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  // Each statement waits for the one before it: a statement of a request already gone is not run.
  const cancellable = async <T>(signal: AbortSignal, work: (db: Db) => Promise<T>): Promise<T> => {
    signal.throwIfAborted();
    return work(stopsWhenAborted(db, signal));
  };
  const copyOut = async (table: string) => {
    const result = await client.query(`copy "${table.replaceAll('"', '""')}" to '/dev/blob'`);
    return Buffer.from((await result.blob?.arrayBuffer()) ?? new ArrayBuffer(0));
  };
  return { db, kind: 'pglite', close: () => client.close(), cancellable, dumpDataDir: () => client.dumpDataDir('gzip'), copyOut };
}

/** Applies the migrations in src/db/migrations that the database has not seen yet. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'postgres') {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } else {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  }
}

export async function isReachable(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** The rows of a raw statement (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
