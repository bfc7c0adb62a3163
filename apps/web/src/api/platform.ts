import { get, post } from './http.ts';

export type EnterpriseStatus = 'pending' | 'verified' | 'rejected';

export interface RegisteredEnterprise {
  id: number;
  enterpriseName: string;
  creditCode: string;
  contact: string;
  contactPhone: string;
  address: string;
  status: EnterpriseStatus;
  rejectReason: string | null;
  createdAt: string;
  decidedAt: string | null;
  registrant: string | null;
}

/** The platform administrator's review of registered enterprises. */
export const platformApi = {
  enterprises: (status: EnterpriseStatus | 'all') => get<RegisteredEnterprise[]>('/platform/enterprises', { status }),
  verify: (id: number) => post<null>(`/platform/enterprises/${id}/verify`),
  reject: (id: number, reason?: string) => post<null>(`/platform/enterprises/${id}/reject`, { reason }),
};
