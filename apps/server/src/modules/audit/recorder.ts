import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuditChange, AuditOutcome } from '@console/contract';
import type { Db } from '../../db/client.ts';
import type { Access, AuditConfig } from '../../requestContext.ts';
import { AuditJournal, auditLine, refusesTheRecord, storeRecords, type AuditRow, type JournalFile, type JournalPlace } from './journal.ts';

/**
 * The audit trail's recorder: every write through the API (and every sign-in attempt) is one
 * record, in the journal before the answer leaves and in the table within GROUP_MS (a read of the
 * trail waits for it: the caller's next read sees it).
 */

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Fields whose values never enter the trail (passwords, tokens, codes, robot webhooks and their keys). */
const SECRET_FIELD = /pass(word|wd)?|token|secret|smscode|captcha|webhook|credential|^key$|^iv$/i;
/** A value longer than this (as JSON: a polygon, a long list) is recorded by its size only. */
const MAX_VALUE_CHARS = 1_000;
/** A text this short is within MAX_VALUE_CHARS as JSON whatever it holds (at most 6 characters a character, and quotes). */
const SHORT_TEXT = Math.floor((MAX_VALUE_CHARS - 2) / 6);
/** A body or state with more fields than this records the first ones. */
const MAX_FIELDS = 100;
const MAX_TEXT = 300;

export const isAudited = (request: FastifyRequest) => WRITE_METHODS.has(request.method) && request.url.startsWith('/api/') && request.routeOptions.url !== undefined;

/** The object a route writes: its path after /api up to the first parameter (`construction/sites` of `/api/construction/sites/:id/close`). */
export function objectOfRoute(template: string): string {
  const segments: string[] = [];
  for (const segment of template.replace(/^\/api\/?/, '').split('/')) {
    if (segment.startsWith(':')) break;
    if (segment) segments.push(segment);
  }
  return segments.join('/') || 'api';
}

/** A value as the trail keeps it: secrets masked, files by name, big values by size. */
export function auditValue(field: string, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (SECRET_FIELD.test(field)) return value === null || value === '' ? value : '***';
  if (Buffer.isBuffer(value)) return `(${value.length} bytes)`;
  if (value && typeof value === 'object' && 'filename' in value) return { file: String((value as { filename: unknown }).filename) };
  // Most fields are short scalars: kept as they are, without a JSON pass of their own.
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string' && value.length <= SHORT_TEXT) return value.includes('\0') ? value.replace(/\0/g, '\ufffd') : value;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // Hostile input (nested past the stack, or circular): the record is kept, the value described.
    return '(a value too deeply nested or circular to record)';
  }
  if (json === undefined) return null;
  if (json.length > MAX_VALUE_CHARS) return `(${json.length} characters)`;
  // PostgreSQL's jsonb cannot hold U+0000 (a refused request's body may): kept as U+FFFD.
  return json.includes('\\u0000') ? JSON.parse(json.replace(/\\u0000/g, '\\ufffd')) : value;
}

/** JSON with object keys in order: the same value read twice compares equal whatever its keys' order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (plainObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));

const plainObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

/**
 * The fields a write changed: with the object's state before and after, those that differ (both
 * sides); without, the fields the request sent (after only).
 */
export function changesOf(before: unknown, after: unknown, body: unknown): Record<string, AuditChange> | null {
  const changes: Record<string, AuditChange> = {};
  let count = 0;
  const add = (field: string, change: AuditChange) => {
    if (count++ < MAX_FIELDS) changes[field] = change;
  };
  if (plainObject(before) || plainObject(after)) {
    const was = plainObject(before) ? before : {};
    const is = plainObject(after) ? after : {};
    for (const field of new Set([...Object.keys(was), ...Object.keys(is)])) {
      const b = auditValue(field, was[field]);
      const a = auditValue(field, is[field]);
      if (canonical(b) !== canonical(a) || (SECRET_FIELD.test(field) && canonical(was[field]) !== canonical(is[field]))) add(field, { before: b, after: a });
    }
  } else if (plainObject(body)) {
    for (const [field, value] of Object.entries(body)) add(field, { after: auditValue(field, value) });
  }
  return count ? changes : null;
}

const START_FAILED = '{"success":false';
const CREATED_ID = /"result":\{"id":(\d{1,18})\b/;

function payloadHead(payload: unknown): string {
  if (typeof payload === 'string') return payload.slice(0, 400);
  if (Buffer.isBuffer(payload)) return payload.subarray(0, 400).toString('utf8');
  return '';
}

function outcomeOf(status: number, head: string): AuditOutcome {
  if (status >= 500) return 'failed';
  if (status >= 400 || head.startsWith(START_FAILED)) return 'refused';
  return 'ok';
}

const clip = (text: string | undefined | null) => (text ? text.slice(0, MAX_TEXT).replace(/\0/g, '\ufffd') : null);

async function stateAfter(request: FastifyRequest, config: AuditConfig, payload: unknown) {
  if (config.afterIsAnswer && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
    return (JSON.parse(payload.toString()) as { result?: object | null }).result ?? null;
  }
  return config.state!(request);
}

function attempt<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** The record of one write, made of what the request, its route and its answer say. */
export async function auditRecord(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const config = request.routeOptions.config?.audit;
  const template = request.routeOptions.url ?? '';
  const head = payloadHead(payload);
  const outcome = outcomeOf(reply.statusCode, head);
  const params = plainObject(request.params) ? request.params : {};
  const firstParam = Object.values(params)[0];
  // A route's own readers of the request are tried, never trusted to succeed: a refused request's
  // body may be anything (null, a list), and its record must still be made.
  const objectId = config?.objectId ? attempt(() => config.objectId!(request)) : firstParam !== undefined ? String(firstParam) : (CREATED_ID.exec(head)?.[1] ?? null);
  const after = (config?.state || config?.afterIsAnswer) && outcome === 'ok' && request.auditBefore !== undefined ? await stateAfter(request, config, payload).catch(() => undefined) : undefined;
  const body = request.body;
  const user = request.user;
  const triedName = config?.signIn && plainObject(body) && typeof body.username === 'string' ? body.username : null;
  return {
    kind: config?.signIn ? ('signIn' as const) : ('write' as const),
    enterpriseId: request.enterprise?.id ?? null,
    userId: user?.id ?? null,
    username: clip(user?.username ?? triedName),
    role: request.enterprise?.role ?? (user?.isPlatformAdmin ? 'platformAdmin' : null),
    method: request.method,
    route: clip(request.url.split('?')[0])!,
    object: config?.object ?? objectOfRoute(template),
    objectId: clip(objectId),
    changes: config?.signIn ? null : changesOf(request.auditBefore, after, body),
    outcome,
    status: reply.statusCode,
    address: clip(request.ip),
    userAgent: clip(request.headers['user-agent']),
  };
}

/**
 * Records wait at most this long (ms) to share one insert with the others made meanwhile: on the
 * embedded database a statement costs ~1.3 ms before its first row and 0.045 ms a row, so a
 * quarter second's hundred records cost 0.06 ms each where a tenth's forty cost 0.09.
 */
const GROUP_MS = 250;
const GROUP_MAX = 1_000;
const RETRY_MS = 1_000;

/**
 * Stores the records: each is appended to the journal when it is made (before the write's answer
 * leaves) and goes into the table with the others of the next GROUP_MS in one insert. A single-row
 * insert costs the embedded database about ten times a row of a batch of a hundred, and a write
 * waiting for it would wait for a second commit; the journal keeps the record meanwhile.
 */
export class AuditWriter {
  private pending: { line: string; place: JournalPlace | null }[] = [];
  private storing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly journal: AuditJournal | null,
    /** A record the database refused, given up. */
    private readonly onFailure: (error: unknown) => void,
    private readonly onWait: (error: unknown) => void,
  ) {}

  record(row: AuditRow) {
    const line = auditLine({ ...row, at: row.at ?? new Date() });
    this.pending.push({ line, place: this.journal?.append(line) ?? null });
    if (this.pending.length >= GROUP_MAX) void this.store();
    else this.timer ??= setTimeout(() => void this.store(), GROUP_MS);
  }

  /** Resolves once the records made so far are in the table (or could not be stored now): a read of the trail sees them. */
  async flushed() {
    const waiting = this.pending.length;
    if (this.storing) await this.storing;
    if (waiting) await this.store();
  }

  private store(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.storing ??= this.storeBatch().finally(() => {
      this.storing = null;
      if (this.pending.length) this.timer ??= setTimeout(() => void this.store(), this.pending.length >= GROUP_MAX ? 0 : GROUP_MS);
    });
    return this.storing;
  }

  private async storeBatch() {
    const batch = this.pending.slice(0, GROUP_MAX);
    if (!batch.length) return;
    try {
      await this.insert(batch);
      this.pending.splice(0, batch.length);
      return;
    } catch (error) {
      if (!refusesTheRecord(error)) return this.waitForDatabase(error);
    }
    // A record the database refuses must not take the others with it: each alone, the refused given up.
    for (const entry of batch) {
      try {
        await this.insert([entry]);
      } catch (error) {
        if (!refusesTheRecord(error)) return this.waitForDatabase(error);
        this.onFailure(error);
      }
      this.pending.shift();
    }
  }

  /** The database does not answer: the records wait (in memory and in the journal) and are tried again. */
  private async waitForDatabase(error: unknown) {
    this.onWait(error);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
  }

  private async insert(batch: { line: string; place: JournalPlace | null }[]) {
    const reached = new Map<JournalFile, number>();
    for (const { place } of batch) if (place) reached.set(place.file, Math.max(reached.get(place.file) ?? 0, place.line));
    await storeRecords(this.db, batch.map((entry) => entry.line), reached);
    await this.journal?.stored(reached);
  }

  /** Stores what is waiting (the server is closing). */
  async drain() {
    for (let tries = 0; this.pending.length && tries < 3; tries++) await this.flushed();
    this.journal?.close();
  }
}

/** Hooks the recorder into the server: the object's state before the handler, the record before the answer. */
export async function registerAuditTrail(app: FastifyInstance, db: Db, journalDir: string | null) {
  const journal = journalDir ? await AuditJournal.open(db, journalDir) : null;
  const writer = new AuditWriter(db, journal, (error) => {
    // The write itself is done; a record that could not be stored is the operators' alarm.
    app.log.error({ err: error }, 'audit record refused by the database');
    app.metrics.auditFailures.inc();
  }, (error) => app.log.warn({ err: error }, 'audit records wait: the database did not take them'));
  app.decorate('auditTrail', writer);
  app.addHook('onClose', () => writer.drain());
  app.decorateRequest('auditBefore', undefined);
  // Callback hooks, not async ones: they run on every request, and most are not audited writes.
  app.addHook('preHandler', (request, _reply, done) => {
    const state = request.routeOptions.config?.audit?.state;
    if (!state || !isAudited(request)) return done();
    state(request).then(
      (before) => {
        request.auditBefore = before;
        done();
      },
      // The state before could not be read (the database away): the write goes on, recorded with the fields sent.
      (error: unknown) => {
        request.log.warn({ err: error }, 'audit state before the write not read');
        done();
      },
    );
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    // A write without a valid sign-in names no one and changed nothing: not recorded, so a flood
    // of them cannot fill the trail (sign-in attempts are, and are rate-limited).
    if (!isAudited(request) || (reply.statusCode === 401 && !request.routeOptions.config?.audit?.signIn)) return done(null, payload);
    auditRecord(request, reply, payload)
      .then((row) => writer.record(row))
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'audit record not made');
        request.server.metrics.auditFailures.inc();
      })
      .finally(() => done(null, payload));
  });
}

/** A route's config whose audit records carry the object's fields before and after the write. */
export const withAuditState = (config: { access: Access }, state: NonNullable<AuditConfig['state']>, more: Omit<AuditConfig, 'state'> = {}): { access: Access; audit: AuditConfig } => ({ ...config, audit: { ...more, state } });

type OwnedTable = PgTable & { id: AnyPgColumn; enterpriseId: AnyPgColumn };

/** The state of a row of an enterprise's table named by the route's `:id` (the table is the route's own, never the request's). */
export function rowState(table: OwnedTable) {
  return async (request: FastifyRequest) => {
    const enterpriseId = request.enterprise?.id;
    const id = Number((request.params as { id?: unknown }).id);
    if (enterpriseId === undefined || !Number.isSafeInteger(id)) return null;
    const db = request.server.db as unknown as { select: () => { from: (t: PgTable) => { where: (w: unknown) => Promise<Record<string, unknown>[]> } } };
    const [row] = await db.select().from(table).where(and(eq(table.id, id), eq(table.enterpriseId, enterpriseId)));
    return row ?? null;
  };
}

/** A route's config whose records carry the fields of its `:id` row before and after. */
export const withRowAudit = (config: { access: Access }, table: OwnedTable) => withAuditState(config, rowState(table));
