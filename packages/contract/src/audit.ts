import { z } from 'zod';
import { optionalDateTime, optionalNumber, optionalText } from './fields.ts';

/**
 * The audit trail: every write through the API and every sign-in attempt, kept append-only
 * (the database refuses to change or delete a record younger than the retention floor).
 */
export const AUDIT_KINDS = ['write', 'signIn', 'export'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** ok: done; refused: the caller's mistake or a rule said no (4xx, or an envelope with success false); failed: the server's (5xx). */
export const AUDIT_OUTCOMES = ['ok', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** The MLPS 2.0 level 3 minimum: records are kept at least this long (AUDIT_RETENTION_DAYS may only lengthen it). */
export const AUDIT_MIN_RETENTION_DAYS = 180;

/** One field's value before and after the write; either side is absent when not known (a new object, a body field). */
export interface AuditChange {
  before?: unknown;
  after?: unknown;
}

export interface AuditEvent {
  id: number;
  at: string;
  kind: AuditKind;
  enterpriseId: number | null;
  userId: number | null;
  username: string | null;
  role: string | null;
  method: string;
  route: string;
  object: string;
  objectId: string | null;
  changes: Record<string, AuditChange> | null;
  outcome: AuditOutcome;
  status: number;
  address: string | null;
  userAgent: string | null;
}

/** Filters of the audit page: user (name, from its start), object, its id, kind, outcome and time. */
export const auditFilters = z.object({
  username: optionalText(60),
  object: optionalText(60),
  objectId: optionalText(60),
  kind: z.enum(AUDIT_KINDS).optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  from: optionalDateTime,
  to: optionalDateTime,
  /** Platform admins only: one enterprise's records. */
  enterpriseId: optionalNumber(z.number().int().min(1)),
});
export type AuditFilters = z.infer<typeof auditFilters>;

/** Newest first, a page at a time by key: the records older than `before` (an id). */
export const auditListQuery = auditFilters.extend({
  before: optionalNumber(z.number().int().min(1)),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

export const auditExportQuery = auditFilters.extend({ format: z.enum(['csv', 'xlsx']).default('xlsx') });

/** Records of one object (a drawer's history). */
export const auditHistoryQuery = z.object({
  object: z.string().trim().min(1).max(60),
  objectId: z.string().trim().min(1).max(60),
});

export interface AuditPage {
  list: AuditEvent[];
  /** Counted up to EXACT_LIST_LIMIT; totalExact false past it. */
  total: number;
  totalExact: boolean;
  /** The key of the next (older) page; null at the end. */
  nextBefore: number | null;
}

/** A drawer's history: who changed what when (no address or user agent). */
export type AuditHistoryEntry = Pick<AuditEvent, 'id' | 'at' | 'username' | 'method' | 'route' | 'changes' | 'outcome'>;
