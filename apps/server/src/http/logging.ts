import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Query parameters that carry a secret: the console passes a token in the URL when signed in from
 * elsewhere, and desktop GIS sends its personal access token as `key`.
 */
const SECRET_PARAMS = /([?&](?:token|access[-_]?token|key)=)[^&#]*/gi;

/** The URL as it may be logged: secrets in the query string are masked. */
export const loggableUrl = (url: string) => url.replace(SECRET_PARAMS, '$1***');

/**
 * An error as it may be logged: a failed statement keeps its SQL and the database's own error,
 * never the parameters (they hold what users typed: passwords in change forms, personal data).
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const failed = error as Error & { query?: string; params?: unknown[]; code?: string; cause?: unknown };
  const isQueryError = typeof failed.query === 'string' && Array.isArray(failed.params);
  const message = isQueryError ? `Failed query: ${failed.query}` : failed.message;
  const stackFrames = (failed.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return {
    type: failed.name,
    message,
    ...(failed.code ? { code: failed.code } : {}),
    ...(failed.cause ? { cause: loggableError(failed.cause) } : {}),
    stack: [`${failed.name}: ${message}`, ...stackFrames].join('\n'),
  };
}

const requestSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: loggableUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
});

/** The server's logger with the serializers above; `false` stays off. */
export function withSafeSerializers(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = typeof logger === 'object' ? logger : {};
  return { ...base, serializers: { req: requestSerializer as never, err: loggableError as never, ...(base.serializers ?? {}) } };
}
