/**
 * What the audit trail costs a write: the real server (as `npm start` runs it) against the same
 * server with AUDIT_TRAIL=off, each on a demo database of its own, the same writes at 64
 * connections, in 2-second slices alternating (on, off, off, on, …) after a warm-up of each. Two writes: a user's
 * stored preference (recorded with the fields sent) and the enterprise's map settings (recorded
 * with the fields before and after, from the save's own statement). A record is appended to the
 * server's journal before the answer and the records of each 250 ms go into the table in one
 * statement, at 64 connections and at 1 alike. CPU-seconds are the server process's own (the
 * PostgreSQL server's work is not in them); they are steadier than rates on a shared machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyServerDatabase } from './support.ts';
import { CONNECTIONS, describeLoad, loadWithCpu, interleaved, meanWithCpu, signedInHeaders, startConsoleServer, type Running } from './api.ts';

const WRITES = [
  {
    name: 'preference (fields sent)',
    path: '/api/preferences/poiOverlayLayers',
    body: {
      basemap: { visible: true, opacity: 1 },
      areas: { visible: true, opacity: 0.8 },
      pipes: { visible: true, opacity: 1, networks: ['water', 'gas'] },
      pois: { visible: true, opacity: 1, statuses: ['new', 'assigned'], priorities: ['high'] },
      footprints: { visible: false, opacity: 0.5, statuses: ['planned'] },
    },
  },
  { name: 'map settings (before/after)', path: '/api/enterprise/mapSettings', body: { serviceType: 'none', srid: 4326, tileSize: 256, zoomLevel: 11 } },
];

/** Seconds of a slice, and slices a side: 40 s each in 2-second slices, alternating (two servers with the same settings differ by ±6 % over 24 s here). */
const SLICE_SECONDS = 2;
const SLICES = 20;

const measure = (server: Running, headers: Record<string, string>, write: (typeof WRITES)[number], connections: number) =>
  loadWithCpu(server, write.path, { ...headers, 'content-type': 'application/json' }, { method: 'PUT', body: JSON.stringify(write.body), connections, seconds: SLICE_SECONDS });

async function compare(kind: string, start: (audit: boolean) => Promise<Running>, say: (line: string) => void) {
  const audited = await start(true);
  const unaudited = await start(false);
  try {
    const headersOn = await signedInHeaders(audited.url, 'admin', 'Demo123456');
    const headersOff = await signedInHeaders(unaudited.url, 'admin', 'Demo123456');
    for (const [write, connections] of WRITES.flatMap((w) => [[w, CONNECTIONS], [w, 1]] as const)) {
      const on = () => measure(audited, headersOn, write, connections);
      const off = () => measure(unaudited, headersOff, write, connections);
      // Long runs a side scattered by 10 % and more here; 2-second slices alternating cancel the drift.
      const runs = await interleaved(on, off, SLICES);
      const ours = meanWithCpu(runs.ours);
      const peer = meanWithCpu(runs.peer);
      const ratio = ours.requestsPerSecond / peer.requestsPerSecond;
      say(`  ${kind}, ${`${write.name}, ${connections} conn.`.padEnd(38)} audited   ${describeLoad(ours)}, ${ours.cpuPerThousand.toFixed(2)} CPU-s per 1,000 writes`);
      say(`  ${' '.repeat(kind.length)}  ${''.padEnd(38)} unaudited ${describeLoad(peer)}, ${peer.cpuPerThousand.toFixed(2)} CPU-s per 1,000 writes`);
      say(`  ${' '.repeat(kind.length)}  ${''.padEnd(38)} audited at ${(ratio * 100).toFixed(1)} % of the unaudited rate, ${((ours.cpuPerThousand / peer.cpuPerThousand) * 100).toFixed(1)} % of its CPU per write (goal: within 10 %)`);
    }
  } finally {
    await audited.stop();
    await unaudited.stop();
  }
}

export async function benchAuditedWrites(say: (line: string) => void) {
  const [load1, load5] = (await import('node:os')).loadavg();
  say(`\nAudited writes at ${CONNECTIONS} connections (and at 1) against the same server with AUDIT_TRAIL=off, machine load ${load1.toFixed(2)} / ${load5.toFixed(2)} (1 / 5 min)`);
  const dir = await mkdtemp(join(tmpdir(), 'console-bench-audit-'));
  const databases: { drop: () => Promise<void> }[] = [];
  try {
    await compare('PGlite    ', (audit) => startConsoleServer({ dataDir: join(dir, audit ? 'on' : 'off'), env: audit ? {} : { AUDIT_TRAIL: 'off' } }), say);
    await compare('PostgreSQL', async (audit) => {
      const database = await emptyServerDatabase();
      databases.push(database);
      return startConsoleServer({ dataDir: join(dir, audit ? 'pg-on' : 'pg-off'), databaseUrl: database.url, env: audit ? {} : { AUDIT_TRAIL: 'off' } });
    }, say);
  } finally {
    for (const database of databases) await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchAuditedWrites(console.log);
