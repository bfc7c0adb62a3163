import { and, desc, eq, gte, like, lt, lte, sql, type SQL } from 'drizzle-orm';
import { EXACT_LIST_LIMIT, type AuditEvent, type AuditFilters, type AuditHistoryEntry, type AuditListQuery, type AuditPage } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';
import { keysetPages } from '../exports/features.ts';

/** The advisory lock of the retention job: two servers prune once. */
const PRUNE_LOCK = 7_301;
/** A drawer's history shows the latest this many records. */
const HISTORY_LIMIT = 100;

/** Whose records a caller reads: one enterprise's (its admins), or every one (platform admins; one when they filter). */
export type AuditScope = { enterpriseId: number } | { all: true };

const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereOf(scope: AuditScope, f: AuditFilters): SQL | undefined {
  const enterpriseId = 'enterpriseId' in scope ? scope.enterpriseId : f.enterpriseId;
  return and(
    enterpriseId !== undefined ? eq(auditEvents.enterpriseId, enterpriseId) : undefined,
    f.username ? like(auditEvents.username, prefixPattern(f.username)) : undefined,
    f.object ? eq(auditEvents.object, f.object) : undefined,
    f.objectId ? eq(auditEvents.objectId, f.objectId) : undefined,
    f.kind ? eq(auditEvents.kind, f.kind) : undefined,
    f.outcome ? eq(auditEvents.outcome, f.outcome) : undefined,
    f.from ? gte(auditEvents.at, new Date(f.from)) : undefined,
    f.to ? lte(auditEvents.at, new Date(f.to)) : undefined,
  );
}

const columns = {
  id: auditEvents.id,
  at: auditEvents.at,
  kind: auditEvents.kind,
  enterpriseId: auditEvents.enterpriseId,
  userId: auditEvents.userId,
  username: auditEvents.username,
  role: auditEvents.role,
  method: auditEvents.method,
  route: auditEvents.route,
  object: auditEvents.object,
  objectId: auditEvents.objectId,
  changes: auditEvents.changes,
  outcome: auditEvents.outcome,
  status: auditEvents.status,
  address: auditEvents.address,
  userAgent: auditEvents.userAgent,
};

const asEvent = (row: Omit<AuditEvent, 'at'> & { at: Date }): AuditEvent => ({ ...row, at: row.at.toISOString() });

/** Newest first, a page at a time by id; counted up to EXACT_LIST_LIMIT. */
export async function listAudit(db: Db, scope: AuditScope, q: AuditListQuery): Promise<AuditPage> {
  const where = whereOf(scope, q);
  const [rows, counted] = await Promise.all([
    db
      .select(columns)
      .from(auditEvents)
      .where(and(where, q.before ? lt(auditEvents.id, q.before) : undefined))
      .orderBy(desc(auditEvents.id))
      .limit(q.pageSize + 1),
    db.execute(sql`select count(*)::int as "count" from (select 1 from ${auditEvents} ${where ? sql`where ${where}` : sql``} limit ${EXACT_LIST_LIMIT + 1}) matching`) as unknown as Promise<{ rows: { count: number }[] }>,
  ]);
  const count = counted.rows[0].count;
  const more = rows.length > q.pageSize;
  const list = rows.slice(0, q.pageSize).map(asEvent);
  return {
    list,
    total: Math.min(count, EXACT_LIST_LIMIT),
    totalExact: count <= EXACT_LIST_LIMIT,
    nextBefore: more ? list[list.length - 1].id : null,
  };
}

/** Every record the filters find, newest first, read a page at a time (exports). */
export function auditPages(db: Db, scope: AuditScope, f: AuditFilters): AsyncGenerator<AuditEvent[]> {
  const where = whereOf(scope, f);
  return keysetPages(
    async (before: number | null) =>
      (
        await db
          .select(columns)
          .from(auditEvents)
          .where(and(where, before !== null ? lt(auditEvents.id, before) : undefined))
          .orderBy(desc(auditEvents.id))
          .limit(5_000)
      ).map(asEvent),
    (row) => row.id,
  );
}

/** One object's records in one enterprise, newest first: a drawer's history. */
export async function objectHistory(db: Db, enterpriseId: number, object: string, objectId: string): Promise<AuditHistoryEntry[]> {
  const rows = await db
    .select({ id: auditEvents.id, at: auditEvents.at, username: auditEvents.username, method: auditEvents.method, route: auditEvents.route, changes: auditEvents.changes, outcome: auditEvents.outcome })
    .from(auditEvents)
    .where(and(eq(auditEvents.enterpriseId, enterpriseId), eq(auditEvents.object, object), eq(auditEvents.objectId, objectId), eq(auditEvents.kind, 'write')))
    .orderBy(desc(auditEvents.id))
    .limit(HISTORY_LIMIT);
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}

/**
 * Removes the records older than the retention time, once across servers (the first to take
 * the lock; the others skip this round). The database lets only this transaction delete, and
 * only records past the 180-day floor.
 */
export async function pruneAudit(db: Db, retentionDays: number): Promise<number | null> {
  return db.transaction(async (tx) => {
    const locked = (await tx.execute(sql`select pg_try_advisory_xact_lock(${PRUNE_LOCK}) as "locked"`)) as unknown as { rows: { locked: boolean }[] };
    if (!locked.rows[0].locked) return null;
    await tx.execute(sql`select set_config('console.audit_prune', 'on', true)`);
    const removed = (await tx.execute(
      sql`with gone as (delete from ${auditEvents} where ${auditEvents.at} < now() - make_interval(days => ${retentionDays}::int) returning 1) select count(*)::int as "count" from gone`,
    )) as unknown as { rows: { count: number }[] };
    return removed.rows[0].count;
  });
}

/** The retention job: at start and every few hours. */
export class AuditRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly retentionDays: number,
    private readonly onPruned: (count: number) => void,
    private readonly onError: (error: unknown) => void,
    private readonly everyMs = 6 * 3_600_000,
  ) {}

  start() {
    const run = () => {
      this.running = pruneAudit(this.db, this.retentionDays).then((count) => count && this.onPruned(count), this.onError);
    };
    run();
    this.timer = setInterval(run, this.everyMs).unref();
  }

  async close() {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
