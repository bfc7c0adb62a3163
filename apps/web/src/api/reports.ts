import type { Language, ReportBlock, ReportRow } from '@console/contract';
import { get, getBlob, postJson } from './http.ts';

/** The monthly risk reports. */
export const reportApi = {
  list: async () => (await get<ReportRow[]>('/reports')).result,
  make: (month: string) => postJson<{ id: number }>('/reports', { month }),
  page: async (id: number, lang: Language) => (await get<{ report: ReportRow; blocks: ReportBlock[] }>(`/reports/${id}`, { lang })).result,
  pdf: (id: number, lang: Language) => getBlob(`/reports/${id}/pdf`, { lang }),
};
