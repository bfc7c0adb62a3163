// A worker thread's entry: TypeScript modules load through tsx's loader, registered here so the
// worker runs the same under `tsx`, Vitest or plain node. The module to run comes from the pool.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
