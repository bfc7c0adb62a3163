import { translate, type MessageKey, type MessageParam } from '@console/contract';
import type { ImportProblemRecord } from '../../db/schema.ts';

/** Problems kept for the report; the count covers them all. */
export const MAX_PROBLEMS = 500;

/** A problem in both languages, so the report reads in whichever language the reader uses. */
export function problem(row: number | null, featureId: string | null, field: string | null, key: MessageKey, params: Record<string, MessageParam> = {}): ImportProblemRecord {
  return { row, featureId, field, reason: { 'zh-CN': translate(key, 'zh-CN', params), 'en-US': translate(key, 'en-US', params) } };
}
