import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvFeature, openCsv, recordFields } from './csv.ts';

async function read(content: string) {
  const dir = await mkdtemp(join(tmpdir(), 'csv-'));
  const path = join(dir, 'points.csv');
  await writeFile(path, content);
  const source = await openCsv(path);
  const rows = [];
  for await (const feature of source.features()) rows.push({ row: feature.row, geometry: feature.geometry, properties: feature.properties, values: feature.values });
  return { source, rows };
}

describe('CSV reader', () => {
  it('splits plain lines fast and gives quoted records (commas, line breaks, doubled quotes) to the CSV parser', async () => {
    const { source, rows } = await read('\uFEFFid,lon,lat,note\r\n1,120.1,30.1,plain\r\n\r\n2,120.2,30.2,"a, b\r\nnext line"\r\n3,120.3,30.3,"say ""hi"""\r\n4,120.4,30.4,5"2 pipe\r\n');
    expect(source.columns).toEqual(['id', 'lon', 'lat', 'note']);
    expect(rows.map((r) => r.properties)).toEqual([
      { id: '1', note: 'plain' },
      { id: '2', note: 'a, b\nnext line' },
      { id: '3', note: 'say "hi"' },
      { id: '4', note: '5"2 pipe' },
    ]);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3, 4]);
    expect(rows[1].geometry).toEqual({ type: 'Point', coordinates: [120.2, 30.2] });
    expect(rows[0].values).toEqual(['1', '120.1', '30.1', 'plain']);
  });

  it('gives the same records as text in batches, numbered as features are (for worker threads)', async () => {
    const { source } = await read('id,lon,lat,note\n1,120.1,30.1,a\n\n2,120.2,30.2,"b\nc"\n3,120.3,30.3,d\n4,120.4,30.4,e');
    const batches = [];
    for await (const batch of source.recordBatches!(3)) batches.push(batch);
    expect(batches).toEqual([
      { firstRow: 1, records: ['1,120.1,30.1,a', '2,120.2,30.2,"b\nc"', '3,120.3,30.3,d'] },
      { firstRow: 4, records: ['4,120.4,30.4,e'] },
    ]);
    expect(recordFields(batches[0].records[1])).toEqual(['2', '120.2', '30.2', 'b\nc']);
    expect(csvFeature(recordFields(batches[1].records[0]), 4, source.layout!)).toMatchObject({ row: 4, geometry: { type: 'Point', coordinates: [120.4, 30.4] }, properties: { id: '4', note: 'e' } });
  });

  it('says a quoted field that never closes is unreadable', async () => {
    await expect(read('id,lon,lat,note\n1,120.1,30.1,"open\n2,120.2,30.2,x\n')).rejects.toThrow('import.unreadable');
  });
});
