import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { useDemoServer } from '../testing/app.ts';

const demo = useDemoServer();

describe('work for a client that went away', () => {
  it.runIf(process.env.TEST_DATABASE_URL)('is cancelled on the PostgreSQL server while it runs', async () => {
    const controller = new AbortController();
    const running = demo.database.cancellable(controller.signal, (db) => db.execute(sql`select pg_sleep(60) as slept`));
    const sleeping = async () => {
      const { rows } = (await demo.database.db.execute(sql`select count(*)::int as count from pg_stat_activity where query like 'select pg_sleep(60)%' and state = 'active'`)) as unknown as { rows: { count: number }[] };
      return rows[0].count;
    };
    await expect.poll(sleeping, { timeout: 5000, interval: 50 }).toBe(1);
    controller.abort();
    const failure = await running.then(() => null, (error: unknown) => error as { cause?: { code?: string } });
    // 57014: canceling statement due to user request.
    expect(failure?.cause?.code).toBe('57014');
    expect(await sleeping()).toBe(0);
  });

  it('is not started when the client is already gone, nor its next statement', async () => {
    const gone = new AbortController();
    gone.abort();
    let ran = false;
    await expect(demo.database.cancellable(gone.signal, async () => (ran = true))).rejects.toThrow();
    expect(ran).toBe(false);

    const leaving = new AbortController();
    const statements: string[] = [];
    const work = demo.database.cancellable(leaving.signal, async (db) => {
      await db.execute(sql`select 1`);
      statements.push('first');
      leaving.abort();
      await db.execute(sql`select 2`);
      statements.push('second');
    });
    await expect(work).rejects.toThrow();
    expect(statements).toEqual(['first']);
  });
});
