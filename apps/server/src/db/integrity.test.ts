import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useDemoServer } from '../testing/app.ts';

const demo = useDemoServer();

const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await demo.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const pipeCount = async (enterpriseId: number) => (await rowsOf<{ count: number }>(sql`select count(*)::int as count from pipes where enterprise_id = ${enterpriseId}`))[0].count;

describe('pipes and their enterprise (checked once per statement, not per row)', () => {
  it('a pipe of an enterprise that does not exist is refused, however many come in the statement', async () => {
    const insert = demo.database.db.execute(sql`
      insert into pipes (enterprise_id, pipe_id, network_type, geometry, tile_line, length_m, minx, miny, maxx, maxy)
      select 999999, 'X-' || g, 'water', '{"type":"LineString","coordinates":[[120,30],[120.001,30]]}'::jsonb, ''::bytea, 96, 120, 30, 120.001, 30
      from generate_series(1, 3) g`);
    await expect(insert).rejects.toThrow();
    expect(await pipeCount(999999)).toBe(0);
  });

  it("an enterprise's removal removes its pipes (their partition) and their kept counts; staged rows go with their job", async () => {
    const gas = demo.ids.gas;
    expect(await pipeCount(gas)).toBeGreaterThan(0);
    // Its pipes are a partition of their own, made with the enterprise (migration 0026).
    const partition = async () => (await rowsOf<{ name: string | null }>(sql`select to_regclass(${`pipes_of_${gas}`})::text as name`))[0].name;
    expect(await partition()).toBe(`pipes_of_${gas}`);
    expect((await rowsOf<{ name: string | null }>(sql`select to_regclass(${`pipe_risks_of_${gas}`})::text as name`))[0].name).toBe(`pipe_risks_of_${gas}`);
    const [job] = await rowsOf<{ id: number }>(sql`
      insert into import_jobs (enterprise_id, created_by, kind, status, file_name, file_size, work_dir, format, fields, geometry_types)
      values (${demo.ids.water}, (select min(id) from users), 'pipes', 'validating', 'network.geojson', 1, 'imports/test', 'geojson', '[]', '[]') returning id`);
    expect(job).toBeDefined();
    {
      await demo.database.db.execute(sql`
        insert into pipe_import_rows (job_id, "row", pipe_id, network_type, geometry, tile_line, length_m, minx, miny, maxx, maxy)
        values (${job.id}, 1, 'S-1', 'water', '{"type":"LineString","coordinates":[[120,30],[120.001,30]]}'::jsonb, ''::bytea, 96, 120, 30, 120.001, 30)`);
      await demo.database.db.execute(sql`delete from import_jobs where id = ${job.id}`);
      expect((await rowsOf<{ count: number }>(sql`select count(*)::int as count from pipe_import_rows where job_id = ${job.id}`))[0].count).toBe(0);
    }
    await demo.database.db.execute(sql`delete from enterprises where id = ${gas}`);
    expect(await pipeCount(gas)).toBe(0);
    expect(await partition()).toBeNull();
    // Its assessments were a partition too (migration 0043), gone with it.
    expect((await rowsOf<{ name: string | null }>(sql`select to_regclass(${`pipe_risks_of_${gas}`})::text as name`))[0].name).toBeNull();
    expect((await rowsOf<{ count: number }>(sql`select count(*)::int as count from pipe_counts where enterprise_id = ${gas}`))[0].count).toBe(0);
  });
});

describe("the pipes' box indexes", () => {
  it('are sorted builds (box_zorder_ops, migration 0042) on the parent and on every partition, loaded or swapped in', async () => {
    const indexes = await rowsOf<{ table: string; definition: string }>(sql`
      select tablename as "table", indexdef as "definition" from pg_indexes
      where (tablename = 'pipes' or tablename like 'pipes_of_%') and indexdef like '%USING gist%'`);
    const tables = new Set(indexes.map((i) => i.table));
    expect(tables.has('pipes')).toBe(true);
    expect(tables.has(`pipes_of_${demo.ids.water}`)).toBe(true);
    expect(indexes.length).toBe(3 * tables.size);
    for (const index of indexes) expect(index.definition).toContain('box_zorder_ops');
  });
});
