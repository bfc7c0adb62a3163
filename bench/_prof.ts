import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCity } from '../apps/server/src/demo/city.ts';
import { writeGeoJson } from './files.ts';
import { startConsoleServer, signedInHeaders } from './api.ts';
import { importThroughServer } from './upload.ts';
import { emptyServerDatabase } from './support.ts';
import { cpuSeconds, postgresProfile } from './cpu.ts';

const dir = await mkdtemp(join(tmpdir(), 'console-prof-'));
const file = join(dir, 'network.geojson');
const city = generateCity({ pipes: Number(process.env.N ?? 200000) });
await writeGeoJson(file, city.pipes);
const db = await emptyServerDatabase();
const server = await startConsoleServer({ dataDir: join(dir, 'data'), databaseUrl: db.url, env: { UPLOAD_LIMIT_MB: '1024' }, nodeArgs: process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${dir}/prof`] : [] });
try {
  const headers = await signedInHeaders(server.url, 'admin', 'Demo123456');
  const before = await cpuSeconds(server.pid);
  const r = await postgresProfile(db.url!, () => importThroughServer(server, headers, file));
  console.log('ms', r.value.ms, 'node', (await cpuSeconds(server.pid)) - before, 'pg', r.total);
  console.log(r.bySteps.slice(0, 14).map(([s, t]) => `${t.toFixed(2)} ${s.slice(0, 90)}`).join('\n'));
} finally {
  await server.stop();
  if (!process.env.KEEP) await db.drop(); else console.log("kept", db.url);
  console.log('dir', dir);
}
