import { resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { readConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/open.ts';
import { DataDirInUse } from '../db/dataDirLock.ts';
import { users } from '../db/schema.ts';
import { backup, restore, RestoreRefused } from '../modules/backup/archive.ts';

/**
 * Platform administrators: `npm run admin -- grant <username>`, `revoke <username>`, `list`.
 * Backups: `npm run admin -- backup <file>` and `restore <file>` (into an empty instance).
 * With the embedded database, stop the server first: PGlite allows one process at a time, and a
 * command run while the server holds the data folder is refused (db/dataDirLock.ts).
 */
const [command, username] = process.argv.slice(2);
const usage = 'usage: npm run admin -- grant <username> | revoke <username> | list | backup <file> | restore <file>';
const config = readConfig();

if (command === 'restore' && username) {
  try {
    const { manifest, counts } = await restore(resolve(process.env.INIT_CWD ?? process.cwd(), username), { databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    const differing = Object.entries(manifest.tables).filter(([table, n]) => counts[table] !== n);
    console.log(`restored a ${manifest.kind} backup of ${manifest.createdAt}: ${Object.keys(manifest.tables).length} tables, ${manifest.files.length} files`);
    if (differing.length) {
      console.error(`counts differ from the manifest: ${differing.map(([t, n]) => `${t} ${counts[t]} (manifest ${n})`).join(', ')}`);
      process.exitCode = 1;
    }
  } catch (error) {
    console.error(error instanceof RestoreRefused ? `refused: ${error.message}` : error);
    process.exitCode = 1;
  }
  process.exit();
}

const database = await openConfiguredDatabase(config).catch((error) => {
  if (!(error instanceof DataDirInUse)) throw error;
  console.error(`refused: ${error.message}`);
  process.exit(1);
});
try {
  if (command === 'backup' && username) {
    const manifest = await backup(database, { databaseUrl: config.databaseUrl, dataDir: config.dataDir, file: resolve(process.env.INIT_CWD ?? process.cwd(), username) });
    console.log(`backed up ${Object.keys(manifest.tables).length} tables (${Object.values(manifest.tables).reduce((a, b) => a + b, 0)} rows) and ${manifest.files.length} files to ${resolve(process.env.INIT_CWD ?? process.cwd(), username)}`);
  } else if (command === 'list') {
    const rows = await database.db.select({ username: users.username }).from(users).where(eq(users.isPlatformAdmin, true));
    console.log(rows.map((r) => r.username).join('\n') || '(no platform administrator)');
  } else if ((command === 'grant' || command === 'revoke') && username) {
    const updated = await database.db
      .update(users)
      .set({ isPlatformAdmin: command === 'grant' })
      .where(eq(users.username, username))
      .returning({ id: users.id });
    if (updated.length === 0) {
      console.error(`no user named ${username}`);
      process.exitCode = 1;
    } else {
      console.log(`${username} ${command === 'grant' ? 'is now' : 'is no longer'} a platform administrator`);
    }
  } else {
    console.error(usage);
    process.exitCode = 2;
  }
} finally {
  await database.close();
}
