import { z } from 'zod';

/** Every API answer has this shape; HTTP status carries meaning too (see ARCHITECTURE.md). */
export interface Envelope<T = unknown> {
  success: boolean;
  code: number;
  message: string;
  result: T;
  timestamp: number;
}

export const envelopeSchema = <T extends z.ZodTypeAny>(result: T) =>
  z.object({
    success: z.boolean(),
    code: z.number().int(),
    message: z.string(),
    result,
    timestamp: z.number().int(),
  });

/** Languages of the console and of server messages. */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Header names shared by the console and the server. */
export const HEADERS = {
  token: 'Access-Token',
  enterprise: 'Enterprise-Id',
  language: 'Accept-Language',
} as const;

/** Reads a language tag (Accept-Language value or stored choice): zh* is Chinese, anything else English. */
export function toLanguage(tag: string | undefined | null): Language {
  return tag && /^\s*zh/i.test(tag) ? 'zh-CN' : 'en-US';
}
