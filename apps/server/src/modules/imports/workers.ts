import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { build } from 'esbuild';
import { UnreadableFile } from './sources/types.ts';

type Answer<Result> = { result: Result } | { unreadable: { key: UnreadableFile['messageKey']; params: UnreadableFile['params'] } };
type Waiting<Result> = { resolve: (result: Result) => void; reject: (error: unknown) => void };

const bundles = new Map<string, Promise<string>>();

/**
 * A worker module and everything it imports as one CommonJS script, made by esbuild once per
 * process and module. A worker runs it as it is, whatever loader the server runs under (tsx,
 * Vitest): booted through a TypeScript loader instead, each worker resolved and compiled some 40
 * modules through a loader thread of its own, about 2 CPU-seconds a worker and import.
 */
function scriptOf(module: URL): Promise<string> {
  let script = bundles.get(module.href);
  if (!script) {
    script = build({ entryPoints: [fileURLToPath(module)], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent' }).then(
      (built) => built.outputFiles[0].text,
    );
    // A failed build is not kept: the next import tries again.
    script.catch(() => bundles.delete(module.href));
    bundles.set(module.href, script);
  }
  return script;
}

/**
 * Threads that each turn a batch into a result (the same module and start data in each), for the
 * CPU-bound reading of a big import: the main thread only reads the file and writes by COPY.
 * Each thread answers in the order it was asked, so a caller that awaits results in the order it
 * sent batches keeps the file's order.
 */
export class WorkerPool<Batch, Result> {
  private readonly started: Promise<Worker[]>;
  private readonly waiting: Waiting<Result>[][];
  private failure: unknown = null;
  private next = 0;

  constructor(module: URL, init: unknown, size = Math.max(2, availableParallelism())) {
    this.waiting = Array.from({ length: size }, () => []);
    this.started = scriptOf(module).then((script) =>
      this.waiting.map((queue) => {
        // A roomy young generation: the rows are short-lived garbage, and scavenges dominated with the default.
        const worker = new Worker(script, { eval: true, workerData: { init }, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
        worker.on('message', (answer: Answer<Result>) => {
          const waiting = queue.shift()!;
          if ('result' in answer) waiting.resolve(answer.result);
          else waiting.reject(new UnreadableFile(answer.unreadable.key, answer.unreadable.params));
        });
        const fail = (error: unknown) => {
          this.failure ??= error;
          for (const waiting of queue.splice(0)) waiting.reject(error);
        };
        worker.on('error', fail);
        worker.on('exit', (code) => code !== 0 && fail(new Error(`import worker stopped (${code})`)));
        return worker;
      }),
    );
  }

  async run(batch: Batch): Promise<Result> {
    const workers = await this.started;
    if (this.failure) throw this.failure;
    const index = this.next++ % workers.length;
    return new Promise((resolve, reject) => {
      this.waiting[index].push({ resolve, reject });
      workers[index].postMessage(batch);
    });
  }

  async close() {
    const workers = await this.started.catch(() => []);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** In a worker's module: answers each batch with `handle`, made once from the pool's start data. */
export function serveBatches<Init, Batch, Result>(makeHandler: (init: Init) => (batch: Batch) => Result) {
  const handle = makeHandler(workerData.init as Init);
  parentPort!.on('message', (batch: Batch) => {
    let answer: Answer<Result>;
    try {
      answer = { result: handle(batch) };
    } catch (error) {
      if (!(error instanceof UnreadableFile)) throw error;
      answer = { unreadable: { key: error.messageKey, params: error.params } };
    }
    parentPort!.postMessage(answer, 'result' in answer ? ownBuffers(answer.result) : []);
  });
}

/** The buffers a result's top-level byte arrays own whole: moved to the pool's thread, not copied (a batch's COPY rows). */
function ownBuffers(result: unknown): ArrayBuffer[] {
  if (!result || typeof result !== 'object') return [];
  return Object.values(result).flatMap((value) =>
    value instanceof Uint8Array && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && value.buffer instanceof ArrayBuffer ? [value.buffer] : [],
  );
}
