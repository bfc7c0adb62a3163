import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { enterprises, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';

type Status = 'pending' | 'verified' | 'rejected';

/** Registered enterprises for the platform administrator, with who registered them. */
export async function listEnterprises(db: Db, status: Status | 'all') {
  return db
    .select({
      id: enterprises.id,
      enterpriseName: enterprises.name,
      creditCode: enterprises.creditCode,
      contact: enterprises.contact,
      contactPhone: enterprises.contactPhone,
      address: enterprises.address,
      status: enterprises.status,
      rejectReason: enterprises.rejectReason,
      createdAt: enterprises.createdAt,
      decidedAt: enterprises.decidedAt,
      registrant: users.username,
    })
    .from(enterprises)
    .leftJoin(users, eq(users.id, enterprises.createdBy))
    .where(status === 'all' ? undefined : eq(enterprises.status, status))
    .orderBy(asc(enterprises.id));
}

/** Verifies or rejects a pending enterprise. */
export async function decideEnterprise(db: Db, id: number, decision: 'verified' | 'rejected', reason?: string) {
  const [existing] = await db.select({ status: enterprises.status }).from(enterprises).where(eq(enterprises.id, id));
  if (!existing) throw notFound('notFound.enterprise');
  const [updated] = await db
    .update(enterprises)
    .set({ status: decision, rejectReason: decision === 'rejected' ? (reason ?? null) : null, decidedAt: new Date() })
    .where(and(eq(enterprises.id, id), eq(enterprises.status, 'pending')))
    .returning({ id: enterprises.id });
  if (!updated) throw conflict('enterprise.notPending');
}
