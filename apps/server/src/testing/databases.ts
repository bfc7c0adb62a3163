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

/**
 * The same with the two roles an operator makes (README, "Two roles"): a new owner role that owns
 * the database and runs the migrations, and a new application role the server works as. Both are
 * dropped with the database. (src/db/roles.test.ts runs the server with an owner that is not a
 * superuser.)
 */
export async function createScratchDatabaseWithRoles(serverUrl: string, prefix: 'console_test' | 'console_bench') {
  const suffix = randomBytes(5).toString('hex');
  const [app, owner, name] = [`${prefix}_app_${suffix}`, `${prefix}_owner_${suffix}`, `${prefix}_${suffix}`];
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create role ${app} login`);
  // The owner may make the sorted box index's operator class (a superuser's; tests check its
  // builds); what the two roles test is the application's role, which is not one.
  await admin.query(`create role ${owner} login superuser`);
  await admin.query(`grant ${app} to ${owner}`);
  await admin.query(`create database ${name} owner ${owner}`);
  await admin.end();
  const urlAs = (role: string) => Object.assign(new URL(serverUrl), { username: role, password: '', pathname: `/${name}` }).toString();
  return {
    url: urlAs(app),
    ownerUrl: urlAs(owner),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`drop role if exists ${owner}`);
      await client.query(`drop role if exists ${app}`);
      await client.end();
    },
  };
}
