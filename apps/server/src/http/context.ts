import type { FastifyReply } from 'fastify';
import type { Language } from '@console/contract';
import type { Database, Db } from '../db/client.ts';
import type { JobRunner } from '../modules/imports/runner.ts';
import type { PipeRiskJobs } from '../modules/pipeRisk/jobs.ts';
import type { AlertEngine } from '../modules/alerts/engine.ts';
import type { MonthlyReports } from '../modules/reports/schedule.ts';
import type { SensorStreams } from '../modules/sensors/streams.ts';
import type { EventStreams } from './eventStreams.ts';
import type { ConsoleMetrics } from '../modules/metrics/registry.ts';
import type { ReadReplicas } from '../db/replicas.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { AccessCache } from './access.ts';
import type { AuditRow } from '../modules/audit/journal.ts';
import type { ReadCache } from './cache.ts';
import type { Access, AuditConfig, EnterpriseContext, SessionUser } from '../requestContext.ts';

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
    /** Each enterprise's report of the month just ended. */
    monthlyReports: MonthlyReports;
    sensors: SensorStreams;
    eventStreams: EventStreams;
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
    auditTrail?: { flushed(): Promise<void>; record(row: AuditRow): void };
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
