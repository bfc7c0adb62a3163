import type { EncryptionKey, LoginResult, UserEnterprise, UserPermission } from '@console/contract';
import { get, post, put } from './http.ts';

/** The spec's calls (section 7), with their exact paths. */
export const authApi = {
  getEncryptedString: () => get<EncryptionKey>('/getEncryptedString'),
  checkLogin: (username: string, password: string) => post<LoginResult>('/checkLogin', { username, password }),
  getUserPermission: () => get<UserPermission>('/getUserPermission'),
  getUserEnterprises: () => get<UserEnterprise[]>('/enterprise/getUserEnterprises'),
  logout: () => post<null>('/logout'),
  sendSMS: (params: { phone: string; purpose: 'register' | 'recover' }) => get<null>('/sendSMS', params),
  changPassword: (data: { passwordOld: string; passwordNew: string }) => put<null>('/user/changPassword', data),
  register: (data: Record<string, unknown>) => post<{ id: number; username: string; realname: string }>('/auth/register', data),
  forgePassword: (data: { phone: string; smsCode: string; passwordNew: string }) => post<null>('/auth/forge-password', data),
  settings: () => get<{ icpNumber: string; version: string; uploadLimitMb: number }>('/settings'),
};
