import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import { clientForHosts, parseHosts } from './hosts.ts';
import { holdDataDir } from './dataDirLock.ts';

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
  /**
   * PostgreSQL server only: LISTEN on a channel over a connection of its own, connected again
   * whenever it is lost (`onResumed` then: what was notified meanwhile is lost); returns the way to stop.
   */
  listen?(channel: string, onMessage: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>>;
  /** PostgreSQL server only: asks the server a trivial question on a connection of its own; rejects when it is away or late. */
  probe?(timeoutMs: number): Promise<void>;
  /** PostgreSQL server only: closes every connection of the pool (a hung server holds them; the pool makes new ones). */
  dropConnections?(): void;
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

/** How long a new connection may take (a hung server accepts the socket and never answers). */
const CONNECT_TIMEOUT_MS = 10_000;
/** How long a lost LISTEN connection waits before connecting again. */
const LISTEN_RETRY_MS = 1_000;

/**
 * LISTEN on a connection of its own that is made again whenever it is lost (a restart, a
 * failover), until stopped; `onResumed` after each reconnection, since notifications sent
 * meanwhile were missed.
 */
async function listenAgainAndAgain(Client: typeof import('pg').Client, url: string, channel: string, onMessage: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>> {
  let client: import('pg').Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (first: boolean) => {
    const next = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    next.on('notification', (message) => message.channel === channel && message.payload !== undefined && onMessage(message.payload));
    let lost = false;
    const again = () => {
      if (lost || stopped) return;
      lost = true;
      next.end().catch(() => {});
      retry = setTimeout(() => void connect(false).catch(() => {}), LISTEN_RETRY_MS).unref();
    };
    next.on('error', again);
    next.on('end', again);
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      if (first) {
        lost = true;
        next.end().catch(() => {});
        throw error;
      }
      again();
      return;
    }
    if (stopped) return void next.end().catch(() => {});
    client = next;
    if (!first) onResumed?.();
  };
  await connect(true);
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
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
    // Several hosts (libpq's multi-host URL): each connection finds the one that serves (db/hosts.ts).
    const hosts = parseHosts(options.databaseUrl);
    const Client = clientForHosts(hosts);
    const url = hosts.urls[0];
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, Client });
    // An idle connection the server closed (a restart, a failover) is an event, not a crash: the
    // pool drops it and makes a new one; the database watch tells whether the server is away.
    pool.on('error', () => {});
    // pg takes its listener off a connection lent to a request: one lost while lent (between two
    // statements of a transaction, say) would raise an 'error' nobody hears, which ends the process.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzle(pool, { schema }) as unknown as Db;
    const listen = (channel: string, onMessage: (payload: string) => void, onResumed?: () => void) => listenAgainAndAgain(Client, url, channel, onMessage, onResumed);
    let prober: import('pg').Client | null = null;
    const probe = async (timeoutMs: number) => {
      try {
        if (!prober) {
          const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, keepAlive: true });
          client.on('error', () => {});
          prober = client;
          await client.connect();
        }
        await prober.query('select 1');
      } catch (error) {
        // A connection that failed once is not asked again: the next probe connects afresh.
        (prober as unknown as { connection?: { stream?: { destroy(): void } } } | null)?.connection?.stream?.destroy();
        prober = null;
        throw error;
      }
    };
    // pg's pool keeps its connections in `_clients` (no public way to close busy ones): each
    // socket destroyed fails its running statement and leaves the pool.
    const dropConnections = () => {
      for (const client of (pool as unknown as { _clients: { connection?: { stream?: { destroy(): void } } }[] })._clients ?? []) {
        client.connection?.stream?.destroy();
      }
    };
    const cancellable = cancellableOn(pool, (client) => drizzle(client, { schema }) as unknown as Db);
    const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    const close = async () => {
      (prober as unknown as { end(): Promise<void> } | null)?.end().catch(() => {});
      await pool.end();
    };
    return { db, kind: 'postgres', close, listen, cancellable, poolStats, probe, dropConnections };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  // pg_trgm: the pipe list's keyword search runs on a trigram index, as on a PostgreSQL server.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // One process at a time on the folder (a second one harms it): refused before PGlite opens it.
  const release = options.dataDir ? holdDataDir(options.dataDir) : () => {};
  let client: InstanceType<typeof PGlite>;
  try {
    client = new PGlite({ dataDir: options.dataDir ?? undefined, extensions: { pg_trgm }, loadDataDir: options.loadDataDir });
    await client.waitReady;
  } catch (error) {
    release();
    throw error;
  }
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
  const close = async () => {
    await client.close();
    release();
  };
  return { db, kind: 'pglite', close, cancellable, dumpDataDir: () => client.dumpDataDir('gzip'), copyOut };
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
