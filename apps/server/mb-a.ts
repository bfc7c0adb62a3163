import { openDatabase, migrateDatabase } from './src/db/client.ts';
import { auditEvents } from './src/db/schema.ts';
import { sql, getTableColumns } from 'drizzle-orm';
const database = await openDatabase({ dataDir: process.argv[2] || null });
await migrateDatabase(database);
const db = database.db;
const row = () => ({ kind: 'write' as const, enterpriseId: 1, userId: 2, username: 'admin', role: 'admin', method: 'PUT', route: '/api/preferences/poiOverlayLayers', object: 'preferences', objectId: 'poiOverlayLayers', changes: { basemap: { after: { visible: true, opacity: 1 } }, pipes: { after: { visible: true, networks: ['water','gas'] } } }, outcome: 'ok' as const, status: 200, address: '127.0.0.1', userAgent: 'autocannon', at: new Date() });
const cols = Object.entries(getTableColumns(auditEvents)).filter(([k]) => k !== 'id');
const colRow = (r: any) => JSON.stringify(Object.fromEntries(cols.map(([k, c]) => [c.name, r[k]])));
const names = sql.raw(cols.map(([, c]) => `"${c.name}"`).join(', '));
async function time(name: string, n: number, f: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await f();
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < n; i++) await f();
  const ms = performance.now() - t0; const c = process.cpuUsage(c0);
  console.log(name.padEnd(40), (ms / n).toFixed(3), 'ms wall', ((c.user + c.system) / 1000 / n).toFixed(3), 'ms cpu');
}
for (const n of [1, 8, 64]) {
  await time(`drizzle ${n}`, 100, () => db.insert(auditEvents).values(Array.from({ length: n }, row)));
  await time(`json_populate ${n}`, 100, () => { const lines = Array.from({ length: n }, () => colRow(row())); return db.execute(sql`insert into audit_events (${names}) select ${names} from json_populate_recordset(null::audit_events, ${`[${lines.join(',')}]`}::json)`); });
}
await database.close();
