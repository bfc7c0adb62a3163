import type { MessageKey, MessageParam } from '@console/contract';

/**
 * An error meant for the caller: HTTP status, a message key translated into the request's
 * language, and optionally a result payload (e.g. {isLogin: false} for 401).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly messageKey: MessageKey,
    readonly params: Record<string, MessageParam> = {},
    readonly result: unknown = null,
  ) {
    super(messageKey);
  }
}

export const badRequest = (key: MessageKey, params?: Record<string, MessageParam>) => new AppError(400, key, params);
export const unauthorized = () => new AppError(401, 'auth.unauthorized', {}, { isLogin: false });
export const forbidden = (key: MessageKey = 'auth.forbidden') => new AppError(403, key);
export const notFound = (key: MessageKey) => new AppError(404, key);
export const conflict = (key: MessageKey) => new AppError(409, key);
export const tooMany = (key: MessageKey, params: Record<string, MessageParam>, retryAfterSeconds: number) =>
  new AppError(429, key, params, { retryAfterSeconds });
