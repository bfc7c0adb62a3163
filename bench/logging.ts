/**
 * What request logging costs an answer: the real server as `npm start` starts it (LOG_LEVEL info,
 * LOG_REQUESTS slow: a line only for a failed or slow request) and the same with LOG_REQUESTS=all
 * (a line for every request), each against the same server with LOG_LEVEL=warn (no line at
 * all), on the route every page load asks for (permissions), at 64 connections, alternating
 * (peer, ours, ours, peer) after a warm-up of each. The servers write their log to a pipe read by
 * this process, as a service manager reads it. CPU-seconds are each server process's own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternating, CONNECTIONS, describeLoad, loadWithCpu, meanWithCpu, signedInHeaders, startConsoleServer, type Running } from './api.ts';

const measure = (server: Running, headers: Record<string, string>) => loadWithCpu(server, '/api/getUserPermission', headers);

export async function benchRequestLogging(say: (line: string) => void) {
  const [load1, load5] = (await import('node:os')).loadavg();
  say(`\nRequest logging at ${CONNECTIONS} connections (GET /api/getUserPermission, the demo on PGlite) against the same server with LOG_LEVEL=warn, machine load ${load1.toFixed(2)} / ${load5.toFixed(2)} (1 / 5 min)`);
  const dir = await mkdtemp(join(tmpdir(), 'console-bench-logging-'));
  // Each side's demo database made once and started again for the second comparison.
  try {
    for (const [name, env] of [
      ['as started (info, LOG_REQUESTS=slow)', {}],
      ['LOG_REQUESTS=all (a line per request)', { LOG_REQUESTS: 'all' }],
    ] as const) {
      const ours = await startConsoleServer({ dataDir: join(dir, 'ours'), env, logTo: 'pipe' });
      const quiet = await startConsoleServer({ dataDir: join(dir, 'quiet'), env: { LOG_LEVEL: 'warn' }, logTo: 'pipe' });
      try {
        const oursHeaders = await signedInHeaders(ours.url, 'admin', 'Demo123456');
        const quietHeaders = await signedInHeaders(quiet.url, 'admin', 'Demo123456');
        const runs = await alternating(() => measure(ours, oursHeaders), () => measure(quiet, quietHeaders));
        const a = meanWithCpu(runs.ours);
        const b = meanWithCpu(runs.peer);
        say(`  ${name.padEnd(40)} ${describeLoad(a)}, ${a.cpuPerThousand.toFixed(2)} CPU-s per 1,000 requests`);
        say(`  ${'LOG_LEVEL=warn (no line)'.padEnd(40)} ${describeLoad(b)}, ${b.cpuPerThousand.toFixed(2)} CPU-s per 1,000 requests`);
        say(`  ${''.padEnd(40)} at ${((100 * a.requestsPerSecond) / b.requestsPerSecond).toFixed(1)} % of the quiet server's rate, ${((100 * a.cpuPerThousand) / b.cpuPerThousand).toFixed(1)} % of its CPU per request (goal for the default: within 10 %)`);
      } finally {
        await ours.stop();
        await quiet.stop();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchRequestLogging(console.log);
