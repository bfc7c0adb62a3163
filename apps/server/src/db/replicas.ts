import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyRequest } from 'fastify';
import * as schema from './schema.ts';
import { cancellableOn, type Database, type Db } from './client.ts';
import { isUnavailable } from './availability.ts';

/**
 * Heavy reads sent to PostgreSQL streaming replicas (DATABASE_READ_URL), everything else to the
 * primary. A replica is used while it answers, is in recovery and is within `maxLagBytes` of the
 * primary's WAL; a user who just wrote reads from the primary until a replica has replayed past
 * the primary's WAL position at that write (read-your-writes by LSN). Checked every `checkMs`.
 */

/** A WAL position ('16/B374D848') as a number of bytes. */
export const lsnBytes = (lsn: string): bigint => {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

export interface ReplicaState {
  name: string;
  up: boolean;
  lagBytes: number | null;
  /** Why it is left out, when it is. */
  reason: string | null;
}

interface Replica {
  name: string;
  pool: pg.Pool;
  db: Db;
  cancellable: Database['cancellable'];
  replayed: bigint | null;
  state: ReplicaState;
}

export interface ReplicaOptions {
  maxLagBytes: number;
  checkMs: number;
  onChange?: (states: ReplicaState[]) => void;
  /** Counts where each heavy read went. */
  onRead?: (target: 'primary' | 'replica') => void;
}

/** How long a user's last write position is remembered (a replica far behind is left out anyway). */
const WRITE_MEMORY_MS = 60_000;
const MAX_WRITERS = 10_000;

export class ReadReplicas {
  private readonly replicas: Replica[];
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  private checking: Promise<void> = Promise.resolve();
  /** Each user's WAL position after their latest write, and when. */
  private readonly writes = new Map<number, { lsn: bigint; at: number }>();

  constructor(
    private readonly primary: Database,
    urls: string[],
    private readonly options: ReplicaOptions,
  ) {
    this.replicas = urls.map((url, i) => {
      const pool = new pg.Pool({ connectionString: url, max: 10 });
      // A replica that goes away must not take the server with it: the next check leaves it out.
      pool.on('error', () => {});
      pool.on('connect', (client) => client.on('error', () => {}));
      const name = `replica${i + 1}:${new URL(url).host}`;
      const cancellable = cancellableOn(pool, (client) => drizzle(client, { schema }) as unknown as Db);
      return { name, pool, db: drizzle(pool, { schema }) as unknown as Db, cancellable, replayed: null, state: { name, up: false, lagBytes: null, reason: 'not checked yet' } };
    });
  }

  get configured() {
    return this.replicas.length > 0;
  }

  states(): ReplicaState[] {
    return this.replicas.map((r) => r.state);
  }

  async start() {
    if (!this.configured) return;
    await this.check();
    this.timer = setInterval(() => {
      this.checking = this.check();
    }, this.options.checkMs).unref();
  }

  /** The primary's WAL position now, then each replica's replay position, answer and recovery. */
  async check() {
    const primaryLsn = await this.primaryLsn().catch(() => null);
    await Promise.all(
      this.replicas.map(async (replica) => {
        const before = replica.state.up;
        try {
          const { rows } = await replica.pool.query<{ recovery: boolean; replayed: string | null }>({
            text: 'select pg_is_in_recovery() as recovery, pg_last_wal_replay_lsn()::text as replayed',
            query_timeout: Math.max(500, this.options.checkMs),
          } as pg.QueryConfig);
          const { recovery, replayed } = rows[0];
          replica.replayed = replayed ? lsnBytes(replayed) : null;
          const lag = primaryLsn !== null && replica.replayed !== null ? Number(primaryLsn > replica.replayed ? primaryLsn - replica.replayed : 0n) : null;
          const reason = !recovery ? 'not a standby (not in recovery)' : lag === null ? 'replay position unknown' : lag > this.options.maxLagBytes ? `behind by ${lag} bytes` : null;
          replica.state = { name: replica.name, up: reason === null, lagBytes: lag, reason };
        } catch (error) {
          replica.replayed = null;
          replica.state = { name: replica.name, up: false, lagBytes: null, reason: `not answering: ${(error as Error).message}` };
        }
        if (before !== replica.state.up) this.options.onChange?.(this.states());
      }),
    );
  }

  private async primaryLsn(): Promise<bigint> {
    const result = (await this.primary.db.execute(sql`select pg_current_wal_lsn()::text as lsn`)) as unknown as { rows: { lsn: string }[] };
    return lsnBytes(result.rows[0].lsn);
  }

  /** After a user's write: reads of theirs wait for a replica that has replayed this far. */
  async noteWrite(userId: number) {
    if (!this.configured) return;
    const lsn = await this.primaryLsn();
    if (this.writes.size >= MAX_WRITERS) this.writes.delete(this.writes.keys().next().value!);
    this.writes.delete(userId);
    this.writes.set(userId, { lsn, at: Date.now() });
  }

  /** The replica a read of this user's goes to: one that is up (and has their latest write); null: the primary. */
  private pick(userId: number | null | undefined): Replica | null {
    if (!this.configured) return null;
    const write = userId != null ? this.writes.get(userId) : undefined;
    const needs = write && Date.now() - write.at < WRITE_MEMORY_MS ? write.lsn : null;
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      if (replica.state.up && (needs === null || (replica.replayed !== null && replica.replayed >= needs))) {
        this.next = (this.next + i + 1) % this.replicas.length;
        this.options.onRead?.('replica');
        return replica;
      }
    }
    this.options.onRead?.('primary');
    return null;
  }

  /** Where a heavy read goes. */
  db(userId: number | null | undefined): Db {
    return this.pick(userId)?.db ?? this.primary.db;
  }

  /**
   * A heavy read on one connection, cancelled when the client goes away (`onReplica`: it is not
   * the primary). A replica that fails it for being away (stopped, restarting, its connection
   * lost) is left out at once and the read is made again on the primary: the caller never sees
   * a replica drop.
   */
  async cancellable<T>(userId: number | null | undefined, signal: AbortSignal, work: (db: Db, onReplica: boolean) => Promise<T>): Promise<T> {
    const replica = this.pick(userId);
    if (!replica) return this.primary.cancellable(signal, (db) => work(db, false));
    try {
      return await replica.cancellable(signal, (db) => work(db, true));
    } catch (error) {
      if (signal.aborted || !isUnavailable(error)) throw error;
      this.leaveOut(replica, error);
      this.options.onRead?.('primary');
      return this.primary.cancellable(signal, (db) => work(db, false));
    }
  }

  /** A heavy read that is not streamed (a figure, a page): on a replica when one can serve it, else, or if it drops meanwhile, on the primary. */
  read<T>(userId: number | null | undefined, work: (db: Db) => Promise<T>): Promise<T> {
    return this.cancellable(userId, new AbortController().signal, (db) => work(db));
  }

  /** A replica that failed a read for being away: not used until a check finds it well again. */
  private leaveOut(replica: Replica, error: unknown) {
    if (!replica.state.up) return;
    replica.state = { name: replica.name, up: false, lagBytes: null, reason: `not answering: ${(error as Error).message}` };
    this.options.onChange?.(this.states());
  }

  async close() {
    if (this.timer) clearInterval(this.timer);
    await this.checking;
    await Promise.all(this.replicas.map((r) => r.pool.end()));
  }
}

/** The database a heavy read of this request goes to (a replica when one can serve it). */
export const readDb = (request: FastifyRequest): Db => request.server.replicas.db(request.user?.id);
