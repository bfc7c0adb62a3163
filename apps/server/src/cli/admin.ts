import { eq } from 'drizzle-orm';
import { readConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/open.ts';
import { users } from '../db/schema.ts';

/**
 * Platform administrators: `npm run admin -- grant <username>`, `revoke <username>`, `list`.
 * With the embedded database, stop the server first (PGlite allows one process at a time).
 */
const [command, username] = process.argv.slice(2);
const usage = 'usage: npm run admin -- grant <username> | revoke <username> | list';

const database = await openConfiguredDatabase(readConfig());
try {
  if (command === 'list') {
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
