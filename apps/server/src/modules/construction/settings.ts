import { eq } from 'drizzle-orm';
import { DEFAULT_CRITICALITY, type CriticalitySettings } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { constructionSettings } from '../../db/schema.ts';

/** The enterprise's criticality matrix and corridor, or the defaults. */
export async function getCriticalitySettings(db: Db, enterpriseId: number): Promise<CriticalitySettings> {
  const [row] = await db.select({ settings: constructionSettings.settings }).from(constructionSettings).where(eq(constructionSettings.enterpriseId, enterpriseId));
  return row?.settings ?? DEFAULT_CRITICALITY;
}

export async function saveCriticalitySettings(db: Db, enterpriseId: number, settings: CriticalitySettings) {
  await db
    .insert(constructionSettings)
    .values({ enterpriseId, settings })
    .onConflictDoUpdate({ target: constructionSettings.enterpriseId, set: { settings, updatedAt: new Date() } });
}
