/**
 * Runs import jobs in the background of this server and lets it stop cleanly: on close every
 * running job is told to stop (it ends as failed, writing nothing) and awaited.
 */
export class JobRunner {
  private readonly running = new Map<number, { controller: AbortController; done: Promise<void> }>();

  run(jobId: number, work: (signal: AbortSignal) => Promise<void>) {
    const controller = new AbortController();
    const done = work(controller.signal).finally(() => this.running.delete(jobId));
    this.running.set(jobId, { controller, done });
  }

  /** Resolves when the job has ended (tests and benchmarks wait on it). */
  async settled(jobId: number) {
    await this.running.get(jobId)?.done;
  }

  async close() {
    for (const { controller } of this.running.values()) controller.abort();
    await Promise.allSettled([...this.running.values()].map((job) => job.done));
  }
}

export class JobInterrupted extends Error {}
