import type { EnterpriseProfileInput } from '@console/contract';
import { del, get, post, put } from './http.ts';

export interface EnterpriseProfile extends EnterpriseProfileInput {
  id: number;
  status: 'pending' | 'verified' | 'rejected';
  createdAt: string;
}

export interface Member {
  id: number;
  userId: number;
  username: string;
  realname: string;
  phone: string | null;
  email: string | null;
  role: 'admin' | 'member' | 'viewer';
  status: string;
  createdAt: string;
}

export interface Application {
  id: number;
  enterpriseId: number;
  enterpriseName: string;
  status: 'pending' | 'active' | 'rejected';
  createdAt: string;
  decidedAt: string | null;
}

export const enterpriseApi = {
  info: () => get<EnterpriseProfile>('/enterprise/info'),
  updateInfo: (data: EnterpriseProfileInput) => put<EnterpriseProfile>('/enterprise/info', data as unknown as Record<string, unknown>),
  members: () => get<Member[]>('/enterprise/members'),
  joinRequests: () => get<Member[]>('/enterprise/joinRequests'),
  approve: (id: number, role: Member['role']) => post<null>(`/enterprise/joinRequests/${id}/approve`, { role }),
  reject: (id: number) => post<null>(`/enterprise/joinRequests/${id}/reject`),
  changeRole: (userId: number, role: Member['role']) => put<null>(`/enterprise/members/${userId}/role`, { role }),
  removeMember: (userId: number) => del<null>(`/enterprise/members/${userId}`),
  invite: (account: string, role: Member['role']) => post<null>('/enterprise/members', { account, role }),
  register: (data: EnterpriseProfileInput) =>
    post<{ id: number; enterpriseName: string; status: string }>('/enterprise/register', data as unknown as Record<string, unknown>),
  search: (name: string) => get<{ id: number; enterpriseName: string; address: string }[]>('/enterprise/search', { name }),
  apply: (enterpriseId: number, message?: string) => post<null>('/enterprise/apply', { enterpriseId, message }),
  applications: () => get<Application[]>('/enterprise/applications'),
};
