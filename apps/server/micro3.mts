import { openDatabase } from './src/db/client.ts';
import { sql } from 'drizzle-orm';
const database = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/sensor_micro', dataDir: null });
const db = database.db;
const N = Number(process.env.SIZE ?? 2000);
const ids = `{${Array.from({ length: N }, (_, i) => i + 1).join(',')}}`;
for (let round = 0; round < 5; round++) {
  const at = Date.now() + round * 1000;
  const ats = `{${Array.from({ length: N }, () => at).join(',')}}`;
  const vals = `{${Array.from({ length: N }, () => 0.3).join(',')}}`;
  const nulls = `{${Array.from({ length: N }, () => 'NULL').join(',')}}`;
  let s = performance.now();
  await db.execute(sql`update sensor_devices d set last_value = r.v, last_at = to_timestamp(r.a / 1000.0) from unnest(${ids}::int[], ${ats}::float8[], ${vals}::float8[]) r(id, a, v) where d.id = r.id`);
  const plain = performance.now() - s;
  s = performance.now();
  await db.execute(sql`select count(sensor_state(d.thresholds, d.state, r.v)) from unnest(${ids}::int[], ${ats}::float8[], ${vals}::float8[]) r(id, a, v) join sensor_devices d on d.id = r.id`);
  const state = performance.now() - s;
  console.log(`plain update ${plain.toFixed(1)} ms, state select ${state.toFixed(1)} ms`);
}
process.exit(0);
