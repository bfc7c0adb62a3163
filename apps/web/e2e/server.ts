import { join } from 'node:path';
import { tmpdir } from 'node:os';

/** Where the browser tests' server listens and logs. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8190);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DIR = join(tmpdir(), `console-e2e-${E2E_PORT}`);
export const E2E_LOG = join(E2E_DIR, 'server.log');
