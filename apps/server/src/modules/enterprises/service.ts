import { and, asc, eq, getTableColumns, ilike, ne, or, sql } from 'drizzle-orm';
import type { EnterpriseProfileInput, MapSettings, Role, UserEnterprise } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { enterprises, mapSettings, memberships, users } from '../../db/schema.ts';
import type { EnterpriseContext } from '../../requestContext.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { likePattern } from '../../db/like.ts';
import { rowOfJson } from '../../db/rows.ts';

/** Every enterprise the user belongs to (active memberships), verified or not, oldest first. */
export async function listUserEnterprises(db: Db, userId: number): Promise<UserEnterprise[]> {
  const rows = await db
    .select({
      id: enterprises.id,
      enterpriseName: enterprises.name,
      status: enterprises.status,
      userType: memberships.role,
    })
    .from(memberships)
    .innerJoin(enterprises, eq(enterprises.id, memberships.enterpriseId))
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active')))
    .orderBy(asc(memberships.id));
  return rows.map((row) => ({ ...row, isVerified: row.status === 'verified' ? '1' : '0' }));
}

/** The verified enterprises the user is an active member of, with the role in each. */
export async function verifiedEnterprises(db: Db, userId: number): Promise<EnterpriseContext[]> {
  return (await listUserEnterprises(db, userId)).filter((e) => e.isVerified === '1').map((e) => ({ id: e.id, role: e.userType }));
}

/**
 * The enterprise a request works in: the one named by the Enterprise-Id header, which must be
 * one of the caller's verified enterprises; without the header, the first. Null when the caller
 * has none.
 */
export function pickEnterprise(verified: EnterpriseContext[], header: string | string[] | undefined): EnterpriseContext | null {
  if (header === undefined || header === '') return verified[0] ?? null;
  const id = Number(header);
  if (typeof header !== 'string' || !Number.isInteger(id) || id <= 0) throw badRequest('enterprise.headerInvalid');
  const match = verified.find((e) => e.id === id);
  if (!match) throw new AppError(403, 'enterprise.notMember');
  return match;
}

function rethrowConflict(error: unknown): never {
  const constraint = uniqueViolation(error);
  if (constraint?.includes('credit_code')) throw conflict('conflict.creditCode');
  if (constraint) throw conflict('conflict.enterpriseName');
  throw error;
}

/** A new enterprise starts pending verification; its registrant is its admin. */
export async function registerEnterprise(db: Db, userId: number, input: EnterpriseProfileInput) {
  try {
    return await db.transaction(async (tx) => {
      const [enterprise] = await tx
        .insert(enterprises)
        .values({
          name: input.enterpriseName,
          creditCode: input.creditCode,
          contact: input.contact,
          contactPhone: input.contactPhone,
          address: input.address,
          description: input.description,
          createdBy: userId,
        })
        .returning();
      await tx.insert(memberships).values({ enterpriseId: enterprise.id, userId, role: 'admin', status: 'active' });
      return enterprise;
    });
  } catch (error) {
    rethrowConflict(error);
  }
}

export async function searchVerifiedEnterprises(db: Db, name: string) {
  const pattern = likePattern(name);
  return db
    .select({ id: enterprises.id, enterpriseName: enterprises.name, address: enterprises.address })
    .from(enterprises)
    .where(and(eq(enterprises.status, 'verified'), ilike(enterprises.name, pattern)))
    .orderBy(asc(enterprises.name))
    .limit(20);
}

/** A join request waits for an admin of a verified enterprise; a rejected one may apply again. */
export async function applyToJoin(db: Db, userId: number, enterpriseId: number, message?: string) {
  const [enterprise] = await db
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(and(eq(enterprises.id, enterpriseId), eq(enterprises.status, 'verified')));
  if (!enterprise) throw notFound('notFound.enterprise');
  const [existing] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.userId, userId)));
  if (existing?.status === 'active') throw conflict('enterprise.alreadyMember');
  if (existing?.status === 'pending') throw conflict('enterprise.alreadyApplied');
  if (existing) {
    await db
      .update(memberships)
      .set({ status: 'pending', role: 'member', message, createdAt: new Date(), decidedAt: null, decidedBy: null })
      .where(eq(memberships.id, existing.id));
    return;
  }
  await db.insert(memberships).values({ enterpriseId, userId, role: 'member', status: 'pending', message });
}

/** The caller's own join requests and their outcome. */
export async function listMyApplications(db: Db, userId: number) {
  return db
    .select({
      id: memberships.id,
      enterpriseId: enterprises.id,
      enterpriseName: enterprises.name,
      status: memberships.status,
      createdAt: memberships.createdAt,
      decidedAt: memberships.decidedAt,
    })
    .from(memberships)
    .innerJoin(enterprises, eq(enterprises.id, memberships.enterpriseId))
    .where(and(eq(memberships.userId, userId), ne(memberships.status, 'active')))
    .orderBy(asc(memberships.id));
}

const profileColumns = {
  id: enterprises.id,
  enterpriseName: enterprises.name,
  creditCode: enterprises.creditCode,
  contact: enterprises.contact,
  contactPhone: enterprises.contactPhone,
  address: enterprises.address,
  description: enterprises.description,
  status: enterprises.status,
  rejectReason: enterprises.rejectReason,
  createdAt: enterprises.createdAt,
  decidedAt: enterprises.decidedAt,
};

export async function getProfile(db: Db, enterpriseId: number) {
  const [row] = await db.select(profileColumns).from(enterprises).where(eq(enterprises.id, enterpriseId));
  if (!row) throw notFound('notFound.enterprise');
  return row;
}

export async function updateProfile(db: Db, enterpriseId: number, input: EnterpriseProfileInput) {
  try {
    await db
      .update(enterprises)
      .set({
        name: input.enterpriseName,
        creditCode: input.creditCode,
        contact: input.contact,
        contactPhone: input.contactPhone,
        address: input.address,
        description: input.description ?? null,
      })
      .where(eq(enterprises.id, enterpriseId));
  } catch (error) {
    rethrowConflict(error);
  }
  return getProfile(db, enterpriseId);
}

const memberColumns = {
  id: memberships.id,
  userId: users.id,
  username: users.username,
  realname: users.realname,
  phone: users.phone,
  email: users.email,
  role: memberships.role,
  status: memberships.status,
  message: memberships.message,
  createdAt: memberships.createdAt,
  decidedAt: memberships.decidedAt,
};

export async function listMembers(db: Db, enterpriseId: number, status: 'active' | 'pending') {
  return db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.status, status)))
    .orderBy(asc(memberships.id));
}

export async function decideJoinRequest(
  db: Db,
  enterpriseId: number,
  requestId: number,
  deciderId: number,
  decision: { approve: true; role: Role } | { approve: false },
) {
  const [request] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.id, requestId), eq(memberships.enterpriseId, enterpriseId)));
  if (!request) throw notFound('notFound.joinRequest');
  if (request.status !== 'pending') throw conflict('enterprise.notPending');
  await db
    .update(memberships)
    .set({
      status: decision.approve ? 'active' : 'rejected',
      role: decision.approve ? decision.role : request.role,
      decidedAt: new Date(),
      decidedBy: deciderId,
    })
    .where(eq(memberships.id, requestId));
}

/**
 * Adds a registered user, found by username or phone number, as an active member with a role; a
 * pending or refused request of theirs becomes the membership. Returns the user's name.
 */
export async function inviteMember(db: Db, enterpriseId: number, inviterId: number, account: string, role: Role) {
  const [user] = await db
    .select({ id: users.id, username: users.username, realname: users.realname })
    .from(users)
    .where(or(eq(users.username, account), eq(users.phone, account)));
  if (!user) throw notFound('member.noAccount');
  const name = user.realname || user.username;
  const [existing] = await db.select().from(memberships).where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.userId, user.id)));
  if (existing?.status === 'active') throw new AppError(409, 'member.already', { name });
  const decided = { status: 'active' as const, role, decidedAt: new Date(), decidedBy: inviterId };
  if (existing) await db.update(memberships).set(decided).where(eq(memberships.id, existing.id));
  else await db.insert(memberships).values({ enterpriseId, userId: user.id, ...decided });
  return name;
}

/**
 * Changes or removes an active member in one transaction that locks the enterprise's admin
 * rows, so two admins demoting each other at once cannot leave the enterprise without one.
 */
async function changeMember(db: Db, enterpriseId: number, userId: number, change: { role: Role } | { remove: true }) {
  await db.transaction(async (tx) => {
    const admins = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.status, 'active'), eq(memberships.role, 'admin')))
      .for('update');
    const [member] = await tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.userId, userId), eq(memberships.status, 'active')));
    if (!member) throw notFound('notFound.member');
    const losesAdmin = member.role === 'admin' && ('remove' in change || change.role !== 'admin');
    if (losesAdmin && admins.length <= 1) throw conflict('enterprise.lastAdmin');
    if ('remove' in change) await tx.delete(memberships).where(eq(memberships.id, member.id));
    else await tx.update(memberships).set({ role: change.role }).where(eq(memberships.id, member.id));
  });
}

export const changeMemberRole = (db: Db, enterpriseId: number, userId: number, role: Role) =>
  changeMember(db, enterpriseId, userId, { role });

/** A member as the audit trail records a change of it: name, role and standing (null: not a member). */
export async function memberState(db: Db, enterpriseId: number, userId: number) {
  const [row] = await db
    .select({ username: users.username, realname: users.realname, role: memberships.role, status: memberships.status })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.enterpriseId, enterpriseId), eq(memberships.userId, userId)));
  return row ?? null;
}

export const removeMember = (db: Db, enterpriseId: number, userId: number) =>
  changeMember(db, enterpriseId, userId, { remove: true });

/** Settings used when an enterprise has saved none: the spec's defaults. */
export const DEFAULT_MAP_SETTINGS: MapSettings = {
  serviceType: 'ArcGIS',
  srid: 4326,
  tileSize: 256,
  zoomLevel: 10,
};

function mapSettingsOf(row: typeof mapSettings.$inferSelect | undefined): MapSettings {
  if (!row) return DEFAULT_MAP_SETTINGS;
  return {
    serviceType: row.serviceType as MapSettings['serviceType'],
    serviceUrl: row.serviceUrl ?? undefined,
    srid: row.srid,
    resolutions: row.resolutions ?? undefined,
    extent: row.extent ?? undefined,
    origin: row.origin ?? undefined,
    tileSize: row.tileSize,
    zoomLevel: row.zoomLevel,
    layerName: row.layerName ?? undefined,
  };
}

export async function getMapSettings(db: Db, enterpriseId: number): Promise<MapSettings> {
  const [row] = await db.select().from(mapSettings).where(eq(mapSettings.enterpriseId, enterpriseId));
  return mapSettingsOf(row);
}

/**
 * Saves the settings and answers them with the ones they replaced, read in the same statement
 * (locked, so a concurrent save cannot come between): the audit trail's before and after.
 */
export async function saveMapSettings(db: Db, enterpriseId: number, settings: MapSettings): Promise<{ saved: MapSettings; before: MapSettings }> {
  const values = {
    serviceType: settings.serviceType,
    serviceUrl: settings.serviceUrl ?? null,
    srid: settings.srid,
    resolutions: settings.resolutions ?? null,
    extent: settings.extent ?? null,
    origin: settings.origin ?? null,
    tileSize: settings.tileSize,
    zoomLevel: settings.zoomLevel,
    layerName: settings.layerName ?? null,
    updatedAt: sql`now()`,
  };
  for (;;) {
    // The saved row locked and read in the update's own statement: what this save replaced.
    const old = db.select().from(mapSettings).where(eq(mapSettings.enterpriseId, enterpriseId)).for('update').as('old');
    const [updated] = await db
      .update(mapSettings)
      .set(values)
      .from(old)
      .where(eq(mapSettings.enterpriseId, old.enterpriseId))
      .returning({ ...getTableColumns(mapSettings), before: sql<Record<string, unknown>>`row_to_json(old)` });
    if (updated) {
      const { before, ...saved } = updated;
      return { saved: mapSettingsOf(saved), before: mapSettingsOf(rowOfJson(mapSettings, before)) };
    }
    // The first save: the defaults are replaced (unless another save made the row meanwhile: then updated).
    const [inserted] = await db.insert(mapSettings).values({ enterpriseId, ...values }).onConflictDoNothing().returning();
    if (inserted) return { saved: mapSettingsOf(inserted), before: DEFAULT_MAP_SETTINGS };
  }
}
