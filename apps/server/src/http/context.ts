import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Action, Language, PermissionId, Role } from '@console/contract';
import type { Database, Db } from '../db/client.ts';
import type { JobRunner } from '../modules/imports/runner.ts';
import type { PipeRiskJobs } from '../modules/pipeRisk/jobs.ts';
import type { AlertEngine } from '../modules/alerts/engine.ts';
import type { ConsoleMetrics } from '../modules/metrics/registry.ts';
import type { ReadReplicas } from '../db/replicas.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { AccessCache } from './access.ts';
import type { ReadCache } from './cache.ts';

/** Who may call a route; checked by the access hook before the handler runs. */
export type Access =
  | { auth: 'public' }
  | { auth: 'user' }
  | { auth: 'platformAdmin' }
  | {
      auth: 'enterprise';
      permission: [PermissionId, Action];
      /** A data service read by other systems: a personal access token is taken too (header or query key). */
      personal?: boolean;
    };

/**
 * What the audit trail records of a write beyond who, where and the outcome (modules/audit).
 * `state` reads the object as it stands: called before the handler and again after a success,
 * the two make the changed fields' before and after. `object` names it when the route's path
 * does not; `signIn` marks a sign-in attempt (the name tried is recorded, never the password).
 */
export interface AuditConfig {
  object?: string;
  /** The object's id when it is not the route's first parameter (a project's thresholds: the body's projectId). */
  objectId?: (request: FastifyRequest) => string | null;
  state?: (request: FastifyRequest) => Promise<object | null | undefined>;
  /**
   * The route answers the object as saved: that is its state after, without reading it again.
   * Without `state`, the handler notes the state before in `request.auditBefore` from its own
   * write (a statement that returns what it replaced: no read before, exact under concurrent writes).
   */
  afterIsAnswer?: boolean;
  signIn?: boolean;
}

export interface SessionUser {
  id: number;
  username: string;
  realname: string;
  avatar: string;
  isPlatformAdmin: boolean;
}

export interface EnterpriseContext {
  id: number;
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    user: SessionUser | null;
    tokenHash: string | null;
    enterprise: EnterpriseContext | null;
    /** The audited object's state before the write (AuditConfig.state). */
    auditBefore: object | null | undefined;
  }
  interface FastifyInstance {
    db: Db;
    /** The database itself, for work that stops when its client goes away. */
    database: Database;
    /** Import jobs running on this server. */
    imports: JobRunner;
    /** Composite pipe risk assessments (one at a time per enterprise). */
    pipeRisk: PipeRiskJobs;
    /** The alert rules, and the feed of alert events to the live streams. */
    alerts: AlertEngine;
    /** Tells this server's and the other servers' caches what changed. */
    changes: ChangeFeed;
    access: AccessCache;
    /** Repeated reads of an enterprise's data, dropped when it changes. */
    reads: ReadCache;
    /** What /metrics exposes. */
    metrics: ConsoleMetrics;
    /** Streaming replicas for heavy reads (db/replicas.ts readDb). */
    replicas: ReadReplicas;
    /** The audit trail's writer (modules/audit/recorder.ts), absent when AUDIT_TRAIL=off: a read of the trail waits for the records made so far. */
    auditTrail?: { flushed(): Promise<void> };
  }
  interface FastifyContextConfig {
    access?: Access;
    audit?: AuditConfig;
  }
}

/**
 * Aborts when the client goes away before its answer is complete (closed tab, timeout), so the
 * database work done for it can stop (Database.cancellable). Made on first use: most routes are
 * quick and never ask.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const holder = reply as FastifyReply & { clientGoneSignal?: AbortSignal };
  if (!holder.clientGoneSignal) {
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('the client went away'));
    });
    holder.clientGoneSignal = controller.signal;
  }
  return holder.clientGoneSignal;
}
