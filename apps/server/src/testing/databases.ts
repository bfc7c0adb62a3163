import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A new empty database on a PostgreSQL server (a test file's or a benchmark's own), and how to
 * drop it. The name is made here, never taken from input.
 */
export async function createScratchDatabase(serverUrl: string, prefix: 'console_test' | 'console_bench') {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      // Closed connections may still be saying goodbye: wait for them rather than kill them (a
      // killed one raises an error in the process that closed it).
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query(`drop database if exists ${name}${attempt > 50 ? ' with (force)' : ''}`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await client.end();
    },
  };
}
