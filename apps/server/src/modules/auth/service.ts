import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accessTokens, loginKeys, personalTokens, users } from '../../db/schema.ts';
import { clearAttempts, pruneThrottles, takeAttempts, THROTTLES } from '../../http/throttle.ts';
import type { SessionUser } from '../../requestContext.ts';
import { randomPrintable, randomToken, sha256 } from './crypto.ts';

/** Token lifetime, the spec's 7 days. */
export const TOKEN_TTL_MS = 604_800_000;
/** A one-time login key lives 2 minutes. */
export const LOGIN_KEY_TTL_MS = 120_000;

export async function createLoginKey(db: Db) {
  const row = {
    id: randomToken(),
    key: randomPrintable(16),
    iv: randomPrintable(16),
    expiresAt: new Date(Date.now() + LOGIN_KEY_TTL_MS),
  };
  await db.insert(loginKeys).values(row);
  // Old keys are useless: drop them as we go so the table stays small.
  await db.delete(loginKeys).where(sql`${loginKeys.expiresAt} < now() - interval '1 hour'`);
  return row;
}

/** Takes the key for one use: a second call with the same id finds nothing. */
export async function consumeLoginKey(db: Db, id: string): Promise<{ key: string; iv: string } | null> {
  const [row] = await db
    .update(loginKeys)
    .set({ usedAt: new Date() })
    .where(and(eq(loginKeys.id, id), isNull(loginKeys.usedAt), gt(loginKeys.expiresAt, new Date())))
    .returning({ key: loginKeys.key, iv: loginKeys.iv });
  return row ?? null;
}

/**
 * Counts a sign-in attempt against its username and its address before it is judged, so that
 * attempts sent at once cannot all be judged; seconds to wait while either is locked, else 0.
 */
export async function takeSignInAttempt(db: Db, username: string, address: string): Promise<number> {
  // One limit and window for both (THROTTLES), counted in one step.
  const waits = await takeAttempts(db, THROTTLES.signInByUsername, [
    [THROTTLES.signInByUsername.scope, username.toLowerCase()],
    [THROTTLES.signInByAddress.scope, address],
  ]);
  return Math.max(...waits);
}

/** A successful sign-in forgets the failures of its username and address. */
export async function clearSignInAttempts(db: Db, username: string, address: string) {
  await clearAttempts(db, THROTTLES.signInByUsername, username.toLowerCase());
  await clearAttempts(db, THROTTLES.signInByAddress, address);
  await pruneThrottles(db);
}

export async function findUserByUsername(db: Db, username: string) {
  const [user] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  return user ?? null;
}

/** Issues a new opaque token; only its hash is stored. */
export async function issueToken(db: Db, userId: number): Promise<string> {
  const token = randomToken();
  await db.insert(accessTokens).values({
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS),
  });
  return token;
}

/** The user behind a token (with the token's expiry), or null when it is unknown, expired or revoked. */
export async function resolveToken(db: Db, token: string): Promise<(SessionUser & { expiresAt: Date }) | null> {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      realname: users.realname,
      avatar: users.avatar,
      isPlatformAdmin: users.isPlatformAdmin,
      expiresAt: accessTokens.expiresAt,
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(
      and(
        eq(accessTokens.tokenHash, sha256(token)),
        isNull(accessTokens.revokedAt),
        gt(accessTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function revokeToken(db: Db, tokenHash: string) {
  await db
    .update(accessTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(accessTokens.tokenHash, tokenHash), isNull(accessTokens.revokedAt)));
}

/** Every token of the user stops working, personal access tokens too (whoever had the password may have made some). */
export async function revokeAllTokens(db: Db, userId: number) {
  await db
    .update(personalTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(personalTokens.userId, userId), isNull(personalTokens.revokedAt)));
  await db
    .update(accessTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)));
  await db
    .delete(accessTokens)
    .where(and(eq(accessTokens.userId, userId), or(sql`${accessTokens.expiresAt} < now()`, sql`${accessTokens.revokedAt} < now() - interval '30 days'`)));
}

