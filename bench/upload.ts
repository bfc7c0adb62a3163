/**
 * A pipe import as a user makes it in the console: the file uploaded to the real server, the
 * mapping it suggests taken, replace mode, the job followed until it has succeeded (its measuring
 * of what depends on the network included).
 */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { Running } from './api.ts';

async function json(response: Response) {
  const body = await response.json();
  if (!body.success) throw new Error(`${response.url}: ${body.message}`);
  return body.result;
}

export async function importThroughServer(server: Running, headers: Record<string, string>, file: string): Promise<{ ms: number; rows: number; finishedAt: string }> {
  const started = performance.now();
  const form = new FormData();
  form.append('file', await openAsBlob(file), basename(file));
  const job = await json(await fetch(`${server.url}/api/pipelines/imports`, { method: 'POST', headers, body: form }));
  await json(
    await fetch(`${server.url}/api/pipelines/imports/${job.id}/start`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ mapping: job.suggestedMapping, mode: 'replace' }),
    }),
  );
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await json(await fetch(`${server.url}/api/pipelines/imports/${job.id}`, { headers }));
    if (now.status === 'succeeded') return { ms: performance.now() - started, rows: now.rowsWritten, finishedAt: now.finishedAt };
    if (now.status === 'failed') throw new Error(`import failed: ${JSON.stringify(now.problems.slice(0, 3))}`);
  }
}
