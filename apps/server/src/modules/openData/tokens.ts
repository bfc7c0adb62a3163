import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { PERSONAL_TOKEN_LIMIT, PERSONAL_TOKEN_PREFIX, type PersonalTokenCreate, type PersonalTokenItem } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { enterprises, personalTokens, users } from '../../db/schema.ts';
import type { SessionUser } from '../../requestContext.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { randomToken, sha256 } from '../auth/crypto.ts';
import { verifiedEnterprises } from '../enterprises/service.ts';

const DAY_MS = 86_400_000;
/** Shown to its owner beside the token's name: the prefix and 8 characters, never enough to use. */
const SHOWN = PERSONAL_TOKEN_PREFIX.length + 8;

const active = () => and(isNull(personalTokens.revokedAt), or(isNull(personalTokens.expiresAt), gt(personalTokens.expiresAt, sql`now()`)));

/** Tokens as their owner sees them: never the hash. */
const selectItems = (db: Db) =>
  db
    .select({
      id: personalTokens.id,
      name: personalTokens.name,
      enterpriseId: personalTokens.enterpriseId,
      enterpriseName: enterprises.name,
      prefix: personalTokens.prefix,
      createdAt: personalTokens.createdAt,
      expiresAt: personalTokens.expiresAt,
      lastUsedAt: personalTokens.lastUsedAt,
    })
    .from(personalTokens)
    .innerJoin(enterprises, eq(enterprises.id, personalTokens.enterpriseId));
type ItemRow = Awaited<ReturnType<typeof selectItems>>[number];
const toItem = (row: ItemRow): PersonalTokenItem => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** The user's tokens that still work, newest first. */
export async function listPersonalTokens(db: Db, userId: number): Promise<PersonalTokenItem[]> {
  const rows = await selectItems(db)
    .where(and(eq(personalTokens.userId, userId), active()))
    .orderBy(desc(personalTokens.id));
  return rows.map(toItem);
}

/**
 * A new read-only token for one of the user's verified enterprises. The count of active tokens
 * and the insert are one step under a lock on the user's row, so tokens made at once cannot pass
 * the limit together. The token's text is returned this once; only its hash is kept.
 */
export async function createPersonalToken(db: Db, userId: number, input: PersonalTokenCreate): Promise<{ token: string; item: PersonalTokenItem }> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const memberOf = await verifiedEnterprises(tx as unknown as Db, userId);
    if (!memberOf.some((e) => e.id === input.enterpriseId)) throw badRequest('openData.enterprise');
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(personalTokens)
      .where(and(eq(personalTokens.userId, userId), active()));
    if (count >= PERSONAL_TOKEN_LIMIT) throw new AppError(409, 'openData.tokenLimit', { max: PERSONAL_TOKEN_LIMIT });
    const token = PERSONAL_TOKEN_PREFIX + randomToken();
    const [row] = await tx
      .insert(personalTokens)
      .values({
        userId,
        enterpriseId: input.enterpriseId,
        name: input.name,
        tokenHash: sha256(token),
        prefix: token.slice(0, SHOWN),
        expiresAt: input.days ? new Date(Date.now() + input.days * DAY_MS) : null,
      })
      .returning({ id: personalTokens.id });
    const [item] = await selectItems(tx as unknown as Db).where(eq(personalTokens.id, row.id));
    return { token, item: toItem(item) };
  });
}

/** Revokes one of the user's own tokens; another user's token is "not found". */
export async function revokePersonalToken(db: Db, userId: number, id: number) {
  const revoked = await db
    .update(personalTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(personalTokens.id, id), eq(personalTokens.userId, userId), isNull(personalTokens.revokedAt)))
    .returning({ id: personalTokens.id });
  if (!revoked.length) throw notFound('notFound.personalToken');
}

export interface PersonalTokenHolder {
  tokenId: number;
  user: SessionUser;
  enterpriseId: number;
  expiresAt: Date | null;
}

/**
 * The user and enterprise behind a personal token, or null when it is unknown, revoked or
 * expired. Marks it used (at most once a minute: its owner sees when a client last read with it).
 */
export async function resolvePersonalToken(db: Db, tokenHash: string): Promise<PersonalTokenHolder | null> {
  const [row] = await db
    .select({
      tokenId: personalTokens.id,
      enterpriseId: personalTokens.enterpriseId,
      expiresAt: personalTokens.expiresAt,
      lastUsedAt: personalTokens.lastUsedAt,
      id: users.id,
      username: users.username,
      realname: users.realname,
      avatar: users.avatar,
      isPlatformAdmin: users.isPlatformAdmin,
    })
    .from(personalTokens)
    .innerJoin(users, eq(users.id, personalTokens.userId))
    .where(and(eq(personalTokens.tokenHash, tokenHash), active()))
    .limit(1);
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db.update(personalTokens).set({ lastUsedAt: new Date() }).where(eq(personalTokens.id, row.tokenId));
  }
  const { tokenId, enterpriseId, expiresAt, lastUsedAt: _, ...user } = row;
  return { tokenId, enterpriseId, expiresAt, user };
}
