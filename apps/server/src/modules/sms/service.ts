import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { smsCodes } from '../../db/schema.ts';
import { randomDigits, sha256 } from '../auth/crypto.ts';
import type { SmsProvider } from './provider.ts';

export const SMS_RULES = { codeTtlMs: 5 * 60_000, resendAfterMs: 60_000, maxFailedTries: 5 };

export type SmsPurpose = 'register' | 'recover';

const codeHash = (phone: string, code: string) => sha256(`${phone}:${code}`);

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
 * Checks and uses up the newest live code of this phone and purpose in one statement: a right
 * code is consumed, a wrong one counts a failed try (the fifth burns the code). Row locks order
 * guesses sent at once, and each re-checks the code's state, so no guess is judged twice or
 * after the code is burnt.
 */
export async function consumeCode(db: Db, phone: string, purpose: SmsPurpose, code: string): Promise<boolean> {
  const right = sql`${smsCodes.codeHash} = ${codeHash(phone, code)}`;
  const live = and(isNull(smsCodes.consumedAt), gt(smsCodes.expiresAt, sql`now()`), lt(smsCodes.failedTries, SMS_RULES.maxFailedTries));
  const newest = db
    .select({ id: smsCodes.id })
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose), live))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  const [used] = await db
    .update(smsCodes)
    .set({
      failedTries: sql`${smsCodes.failedTries} + case when ${right} then 0 else 1 end`,
      consumedAt: sql`case when ${right} then now() else null end`,
    })
    .where(and(eq(smsCodes.id, sql`(${newest})`), live))
    .returning({ consumed: sql<boolean>`${smsCodes.consumedAt} is not null` });
  return Boolean(used?.consumed);
}
