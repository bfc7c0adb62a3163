import { openDatabase } from './src/db/client.ts';
import { ReadingStore } from './src/modules/sensors/store.ts';
const database = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/sensor_micro', dataDir: null });
const store = new ReadingStore(database.db);
const BATCHES = Number(process.env.N ?? 100), SIZE = Number(process.env.SIZE ?? 2000);
let t0 = Date.now(); let seq = 0; const base = Date.now() - 3600_000;
const times: number[] = [];
for (let b = 0; b < BATCHES; b++) {
  const readings = [];
  for (let i = 0; i < SIZE; i++, seq++) readings.push({ deviceId: 1 + (seq % 10000), at: base + seq, value: 0.3 + (seq % 100) / 1000 });
  const s = performance.now();
  await store.write(readings, [], []);
  times.push(performance.now() - s);
}
const total = (Date.now() - t0) / 1000;
console.log(`${BATCHES * SIZE} readings in ${total.toFixed(1)} s: ${Math.round(BATCHES * SIZE / total)}/s; first10 ${times.slice(0,10).map(Math.round)} last10 ${times.slice(-10).map(Math.round)}`);
process.exit(0);
