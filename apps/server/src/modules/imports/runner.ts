import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { ChangeFeed } from '../../db/changes.ts';
import { importJobs } from '../../db/schema.ts';

/** How often a running job says it is alive (the final write of a big import is one long statement). */
export const HEARTBEAT_MS = 5_000;

/**
 * Runs import jobs in the background of this server and lets it stop cleanly: on close every
 * running job is told to stop (it ends as failed, writing nothing) and awaited. While a job runs
 * its heartbeat is written every few seconds, so any server can tell a job whose server died
 * (see imports/jobs.ts failStaleJobs).
 */
export class JobRunner {
  private readonly running = new Map<number | string, { controller: AbortController; done: Promise<void> }>();
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly finished = new Set<(job: { id: number | string; enterpriseId: number; kind?: string }) => void>();

  constructor(
    private readonly db: Db,
    private readonly changes?: ChangeFeed,
  ) {}

  /** Runs `work` in the background; a numeric id is an import job (its heartbeat is written), any other key names other work (an analysis). */
  run(job: { id: number | string; enterpriseId: number; kind?: string }, work: (signal: AbortSignal) => Promise<void>) {
    const jobId = job.id;
    const controller = new AbortController();
    const done = work(controller.signal).finally(() => {
      this.running.delete(jobId);
      // What the job wrote is seen by every cached read.
      this.changes?.publish({ enterpriseId: job.enterpriseId });
      for (const listener of this.finished) listener(job);
      if (this.running.size === 0) this.stopHeartbeat();
    });
    this.running.set(jobId, { controller, done });
    this.heartbeat ??= setInterval(() => void this.beat(), HEARTBEAT_MS).unref();
  }

  /** Called when any job or analysis of this process ends (what it wrote may change derived figures). */
  whenFinished(listener: (job: { id: number | string; enterpriseId: number; kind?: string }) => void) {
    this.finished.add(listener);
  }

  private stopHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private async beat() {
    const ids = [...this.running.keys()].filter((id): id is number => typeof id === 'number');
    if (ids.length) await this.db.update(importJobs).set({ heartbeatAt: new Date() }).where(inArray(importJobs.id, ids)).catch(() => {});
  }

  /** Resolves when the job has ended (tests and benchmarks wait on it). */
  /** Is this work running on this server? */
  isRunning(id: number | string) {
    return this.running.has(id);
  }

  async settled(jobId: number | string) {
    await this.running.get(jobId)?.done;
  }

  async close() {
    this.stopHeartbeat();
    for (const { controller } of this.running.values()) controller.abort();
    await Promise.allSettled([...this.running.values()].map((job) => job.done));
  }
}

export class JobInterrupted extends Error {}
