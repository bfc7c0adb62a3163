import { join } from 'node:path';
import type { Config } from '../config.ts';
import { migrateDatabase, openDatabase, type Database } from './client.ts';

/** Opens the configured database (PGlite under DATA_DIR/pglite, or DATABASE_URL) and migrates it. */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: join(config.dataDir, 'pglite'),
  });
  await migrateDatabase(database);
  return database;
}
