/**
 * The audit trail. No foreign keys: a record outlives the user, enterprise or object it names.
 * Append-only: migration 0038's trigger refuses UPDATE and TRUNCATE, and a DELETE except the
 * retention job's (modules/audit/service.ts pruneAudit) of records past the floor.
 */
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { AuditChange, AuditKind, AuditOutcome } from '@console/contract';

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').$type<AuditKind>().notNull(),
    enterpriseId: integer('enterprise_id'),
    userId: integer('user_id'),
    username: text('username'),
    role: text('role'),
    method: text('method').notNull(),
    /** The route's template (/api/construction/sites/:id), never the URL with its query. */
    route: text('route').notNull(),
    object: text('object').notNull(),
    objectId: text('object_id'),
    changes: jsonb('changes').$type<Record<string, AuditChange>>(),
    outcome: text('outcome').$type<AuditOutcome>().notNull(),
    status: integer('status').notNull(),
    address: text('address'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('audit_events_enterprise_idx').on(t.enterpriseId, t.id),
    index('audit_events_object_idx').on(t.enterpriseId, t.object, t.objectId, t.id),
    // Time only for the retention job: BRIN (records come in time order) costs a write next to nothing.
    index('audit_events_at_idx').using('brin', t.at),
  ],
);

/**
 * How far each journal file of the audit trail (modules/audit/journal.ts) is stored: written in
 * the transaction of the insert, so a server replaying a stopped server's file stores each record once.
 */
export const auditJournalMarks = pgTable('audit_journal_marks', {
  file: text('file').primaryKey(),
  line: integer('line').notNull(),
});
