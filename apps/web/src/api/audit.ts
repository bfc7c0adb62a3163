import type { AuditFilters, AuditHistoryEntry, AuditPage } from '@console/contract';
import { get, getBlob } from './http.ts';

/** Where a caller reads the trail: its enterprise's (admins) or every enterprise's (platform admins). */
export type AuditScope = 'enterprise' | 'platform';
const base = (scope: AuditScope) => (scope === 'platform' ? '/audit/platform/events' : '/audit/events');

/** The audit trail: every write and sign-in attempt, newest first. */
export const auditApi = {
  list: (scope: AuditScope, filters: AuditFilters, before?: number) => get<AuditPage>(base(scope), { ...filters, before, pageSize: 50 }),
  exportFile: (scope: AuditScope, filters: AuditFilters, format: 'csv' | 'xlsx') => getBlob(`${base(scope)}/export`, { ...filters, format }),
  history: (object: string, objectId: number | string) => get<AuditHistoryEntry[]>('/audit/history', { object, objectId }),
};
