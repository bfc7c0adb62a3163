import { join } from 'node:path';
import type { Config } from '../config.ts';
import { isUnavailable } from './availability.ts';
import { migrateDatabase, openDatabase, type Database } from './client.ts';
import { handOverToApplication, roleOf } from './roles.ts';

/** The migrations run as the schema's owner, who then hands the application what it works with (db/roles.ts). */
async function migrateAsOwner(ownerUrl: string, application: string) {
  const owner = await openDatabase({ databaseUrl: ownerUrl, dataDir: null });
  try {
    await migrateDatabase(owner);
    await handOverToApplication(owner.db, application);
  } finally {
    await owner.close();
  }
}

/** How long a start waits between tries while the PostgreSQL server does not answer. */
const START_RETRY_MS = 2_000;

/**
 * Opens the configured database (PGlite under DATA_DIR/pglite, or DATABASE_URL) and migrates it.
 * A PostgreSQL server that does not answer yet (started together with this one, restarting) is
 * waited for, `onWait` told each time; any other failure ends the start.
 */
export async function openConfiguredDatabase(config: Config, onWait?: (error: unknown) => void): Promise<Database> {
  for (;;) {
    let database: Database | null = null;
    try {
      database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') });
      if (config.databaseOwnerUrl) await migrateAsOwner(config.databaseOwnerUrl, await roleOf(database.db));
      else await migrateDatabase(database);
      return database;
    } catch (error) {
      await database?.close().catch(() => {});
      if (!config.databaseUrl || !isUnavailable(error)) throw error;
      onWait?.(error);
      await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS));
    }
  }
}
