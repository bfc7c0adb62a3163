import { and, eq } from 'drizzle-orm';
import type { PreferenceKey } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { userPreferences } from '../../db/schema.ts';

/** The user's stored value for the key, or null when they have not chosen yet. */
export async function getPreference(db: Db, userId: number, key: PreferenceKey): Promise<unknown> {
  const [row] = await db.select({ value: userPreferences.value }).from(userPreferences).where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, key)));
  return row?.value ?? null;
}

export async function savePreference(db: Db, userId: number, key: PreferenceKey, value: unknown) {
  await db
    .insert(userPreferences)
    .values({ userId, key, value })
    .onConflictDoUpdate({ target: [userPreferences.userId, userPreferences.key], set: { value, updatedAt: new Date() } });
}
