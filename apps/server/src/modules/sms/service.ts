import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { smsCodes } from '../../db/schema.ts';
import { randomDigits, sha256 } from '../auth/crypto.ts';
import type { SmsProvider } from './provider.ts';

export const SMS_RULES = { codeTtlMs: 5 * 60_000, resendAfterMs: 60_000, maxFailedTries: 5 };

export type SmsPurpose = 'register' | 'recover';

const codeHash = (phone: string, code: string) => sha256(`${phone}:${code}`);

/** Seconds before another code may be sent to this phone; 0 when one may be sent now. */
export async function resendWaitSeconds(db: Db, phone: string): Promise<number> {
  const [last] = await db
    .select({ createdAt: smsCodes.createdAt })
    .from(smsCodes)
    .where(eq(smsCodes.phone, phone))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  if (!last) return 0;
  const wait = last.createdAt.getTime() + SMS_RULES.resendAfterMs - Date.now();
  return wait > 0 ? Math.ceil(wait / 1000) : 0;
}

export async function sendCode(db: Db, provider: SmsProvider, phone: string, purpose: SmsPurpose) {
  const code = randomDigits(6);
  await db.insert(smsCodes).values({
    phone,
    purpose,
    codeHash: codeHash(phone, code),
    expiresAt: new Date(Date.now() + SMS_RULES.codeTtlMs),
  });
  await db.delete(smsCodes).where(lt(smsCodes.expiresAt, sql`now() - interval '1 day'`));
  await provider.send(
    phone,
    `【管网风险监测】验证码 ${code}，5 分钟内有效。Your verification code is ${code}, valid for 5 minutes.`,
  );
}

/**
 * Checks and uses up the newest live code of this phone and purpose. A wrong code counts a
 * failed try; the fifth burns the code.
 */
export async function consumeCode(db: Db, phone: string, purpose: SmsPurpose, code: string): Promise<boolean> {
  const [live] = await db
    .select()
    .from(smsCodes)
    .where(
      and(
        eq(smsCodes.phone, phone),
        eq(smsCodes.purpose, purpose),
        isNull(smsCodes.consumedAt),
        gt(smsCodes.expiresAt, new Date()),
        lt(smsCodes.failedTries, SMS_RULES.maxFailedTries),
      ),
    )
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  if (!live) return false;
  if (live.codeHash !== codeHash(phone, code)) {
    await db
      .update(smsCodes)
      .set({ failedTries: sql`${smsCodes.failedTries} + 1` })
      .where(eq(smsCodes.id, live.id));
    return false;
  }
  const [used] = await db
    .update(smsCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(smsCodes.id, live.id), isNull(smsCodes.consumedAt)))
    .returning({ id: smsCodes.id });
  return Boolean(used);
}
