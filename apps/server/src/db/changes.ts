import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Messages to every server on the database: delivered at once in this process, and through
 * PostgreSQL's LISTEN/NOTIFY in the others (the embedded database has one server). A server's
 * own notifications come back to its listening connection too; they carry its id and are skipped,
 * since they were delivered here already.
 */
export class Feed<T> {
  private readonly listeners = new Set<(message: T) => void>();
  private readonly resumers = new Set<() => void>();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly origin = randomUUID();

  constructor(
    private readonly database: Database,
    private readonly channel: string,
  ) {}

  async start() {
    if (!this.database.listen) return;
    this.unlisten = await this.database.listen(this.channel, (payload) => {
      const { origin, message } = JSON.parse(payload) as { origin: string; message: T };
      if (origin !== this.origin) this.deliver(message);
    }, () => this.resumed());
  }

  /** Called when the listening connection was made again after it was lost: messages from other servers may have been missed meanwhile. */
  onResume(listener: () => void) {
    this.resumers.add(listener);
  }

  /** The database is back after an outage (or the listening connection was): whatever was missed is made good. */
  resumed() {
    for (const listener of this.resumers) listener();
  }

  /** Listens; answers the way to stop listening. */
  on(listener: (message: T) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  publish(message: T) {
    this.deliver(message);
    if (this.database.kind === 'postgres') {
      this.database.db.execute(sql`select pg_notify(${this.channel}, ${JSON.stringify({ origin: this.origin, message })})`).catch(() => {});
    }
  }

  /** Delivered in this process only. */
  protected publishLocally(message: T) {
    this.deliver(message);
  }

  private deliver(message: T) {
    for (const listener of this.listeners) listener(message);
  }

  async close() {
    await this.unlisten?.();
    this.unlisten = null;
  }
}

/** What changed: an enterprise's data, or (null) something of no one enterprise (accounts, tokens). */
export interface Change {
  enterpriseId: number | null;
  /** Who may do what changed (members, roles, join requests): the access caches drop too. */
  access?: boolean;
}

/**
 * Tells every server that data changed, so their caches drop what is stale. Caches also expire
 * on their own within a second, should a notification be lost with a connection.
 */
export class ChangeFeed extends Feed<Change> {
  constructor(database: Database) {
    super(database, 'console_changes');
    // Changes made elsewhere while the feed was deaf: every cache drops everything.
    this.onResume(() => this.publishLocally({ enterpriseId: null, access: true }));
  }
}
