import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { pipeRiskRuns } from '../../db/schema.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { Debounce } from '../../http/debounce.ts';
import { conflict } from '../../http/errors.ts';
import { bumpPipesVersion } from '../tiles/service.ts';
import { assessNetwork, getRiskWeights } from './assess.ts';
import type { ConsoleMetrics } from '../metrics/registry.ts';

/** A running assessment older than this died with its server. */
const STALE_MINUTES = 60;

/**
 * Assessments of an enterprise's network, one at a time per enterprise across instances (the run
 * row is the lock: a unique index over running runs). Requests while one runs here are folded
 * into one more run after it, so inputs that change during a run are assessed too.
 */
export class PipeRiskJobs {
  private readonly running = new Map<number, Promise<unknown>>();
  private readonly again = new Map<number, string>();
  private readonly assessed = new Set<(enterpriseId: number) => void>();

  constructor(
    private readonly db: Db,
    private readonly log?: FastifyBaseLogger,
    /** How long after the last change an assessment starts (bursts of edits make one); 0: never by itself. */
    delayMs = 0,
    private readonly metrics?: ConsoleMetrics,
  ) {
    this.waiting = new Debounce(delayMs);
  }
  private readonly waiting: Debounce<number>;

  /** Called after each successful assessment (the alert rules read its levels). */
  whenAssessed(listener: (enterpriseId: number) => void) {
    this.assessed.add(listener);
  }

  /** What the risk is made of changed: assess again once the changes have stopped for a while. */
  soon(enterpriseId: number, reason: string) {
    this.waiting.call(enterpriseId, () => this.request(enterpriseId, reason));
  }

  /** Assesses now; refused (409) while another assessment of the enterprise runs here or anywhere. */
  async runNow(enterpriseId: number, reason: string, now = new Date()) {
    if (this.running.has(enterpriseId)) throw conflict('pipeRisk.running');
    // Registered before anything is awaited, so idle() sees it from the first moment.
    const work = this.assess(enterpriseId, reason, now);
    this.running.set(enterpriseId, work);
    try {
      return await work;
    } finally {
      this.running.delete(enterpriseId);
      const reasonAgain = this.again.get(enterpriseId);
      if (reasonAgain) {
        this.again.delete(enterpriseId);
        this.request(enterpriseId, reasonAgain);
      }
    }
  }

  private async assess(enterpriseId: number, reason: string, now: Date) {
    await this.db
      .update(pipeRiskRuns)
      .set({ status: 'failed', error: 'interrupted', finishedAt: new Date() })
      .where(and(eq(pipeRiskRuns.enterpriseId, enterpriseId), eq(pipeRiskRuns.status, 'running'), lt(pipeRiskRuns.startedAt, sql`now() - make_interval(mins => ${STALE_MINUTES})`)));
    const weights = await getRiskWeights(this.db, enterpriseId);
    let run: typeof pipeRiskRuns.$inferSelect;
    try {
      [run] = await this.db.insert(pipeRiskRuns).values({ enterpriseId, status: 'running', reason, weights }).returning();
    } catch (error) {
      if (uniqueViolation(error)) throw conflict('pipeRisk.running');
      throw error;
    }
    const timer = this.metrics?.riskSeconds.startTimer();
    try {
      const figures = await assessNetwork(this.db, enterpriseId, weights, now);
      timer?.({ outcome: 'succeeded' });
      const [done] = await this.db
        .update(pipeRiskRuns)
        .set({ status: 'succeeded', finishedAt: new Date(), segments: figures.segments, levels: figures.levels, byNetwork: figures.byNetwork, masked: figures.masked, changed: figures.changed })
        .where(eq(pipeRiskRuns.id, run.id))
        .returning();
      // The risk map's tiles carry the level: made again.
      await bumpPipesVersion(this.db, enterpriseId);
      for (const listener of this.assessed) listener(enterpriseId);
      return done;
    } catch (error) {
      timer?.({ outcome: 'failed' });
      this.log?.error({ err: error, enterpriseId }, 'pipe risk assessment failed');
      await this.db.update(pipeRiskRuns).set({ status: 'failed', finishedAt: new Date(), error: 'the assessment failed; see the server log' }).where(eq(pipeRiskRuns.id, run.id));
      throw error;
    }
  }

  /** Asks for an assessment in the background (after an input changed); never throws. */
  request(enterpriseId: number, reason: string) {
    if (this.running.has(enterpriseId)) return void this.again.set(enterpriseId, reason);
    void this.runNow(enterpriseId, reason).catch((error) => {
      // Running on another instance: it will not see this change, so ask again shortly.
      if ((error as { statusCode?: number }).statusCode === 409) setTimeout(() => this.request(enterpriseId, reason), 30_000).unref();
    });
  }

  /** Waits for what runs here (tests, shutdown); assessments not started yet are dropped. */
  async idle() {
    this.waiting.clear();
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }

  latest(enterpriseId: number, limit = 20) {
    return this.db.select().from(pipeRiskRuns).where(eq(pipeRiskRuns.enterpriseId, enterpriseId)).orderBy(desc(pipeRiskRuns.startedAt), desc(pipeRiskRuns.id)).limit(limit);
  }
}
