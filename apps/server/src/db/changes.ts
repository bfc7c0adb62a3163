import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** What changed: an enterprise's data, or (null) something of no one enterprise (accounts, tokens). */
export interface Change {
  enterpriseId: number | null;
}

const CHANNEL = 'console_changes';

/**
 * Tells every server on the database that data changed, so their caches drop what is stale: at
 * once in this process, and through PostgreSQL's LISTEN/NOTIFY in the others (the embedded
 * database has one server). Caches also expire on their own within a second, should a
 * notification be lost with a connection.
 */
export class ChangeFeed {
  private readonly listeners = new Set<(change: Change) => void>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly database: Database) {}

  async start() {
    if (this.database.listen) this.unlisten = await this.database.listen(CHANNEL, (payload) => this.deliver(JSON.parse(payload) as Change));
  }

  on(listener: (change: Change) => void) {
    this.listeners.add(listener);
  }

  publish(change: Change) {
    this.deliver(change);
    if (this.database.kind === 'postgres') {
      this.database.db.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(change)})`).catch(() => {});
    }
  }

  private deliver(change: Change) {
    for (const listener of this.listeners) listener(change);
  }

  async close() {
    await this.unlisten?.();
    this.unlisten = null;
  }
}
