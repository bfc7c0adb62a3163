import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { PERSONAL_TOKEN_PREFIX } from '@console/contract';

/**
 * Query parameters that carry a secret: the console passes a token in the URL when signed in from
 * elsewhere, and desktop GIS sends its personal access token as `key`. Names are matched as the
 * server reads them (decoded: `%6Bey` is `key`), without case.
 */
const SECRET_PARAM = /^(?:token|access[-_]?token|key)$/i;

const decodedName = (name: string) => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
};

const maskPairs = (text: string, separator: string) =>
  text
    .split(separator)
    .map((pair) => {
      const cut = pair.indexOf('=');
      const name = cut < 0 ? pair : pair.slice(0, cut);
      return cut >= 0 && SECRET_PARAM.test(decodedName(name).trim()) ? `${name}=***` : pair;
    })
    .join(separator);

/** A personal access token wherever it stands (a client may put one in the path). */
const PERSONAL_TOKEN = new RegExp(`${PERSONAL_TOKEN_PREFIX}[A-Za-z0-9_%-]+`, 'g');

/**
 * The URL as it may be logged: the values of secret query parameters, and of secret path
 * parameters after a semicolon (`/api/ogc;key=…`, which the router reads as `/api/ogc`), are
 * masked, and so is any personal token in it.
 */
export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  const path = start < 0 ? url : url.slice(0, start);
  const maskedPath = path.includes(';') ? path.split('/').map((segment) => maskPairs(segment, ';')).join('/') : path;
  if (start < 0) return maskedPath.replace(PERSONAL_TOKEN, `${PERSONAL_TOKEN_PREFIX}***`);
  const end = url.indexOf('#', start);
  const query = url.slice(start + 1, end < 0 ? undefined : end);
  return `${maskedPath}?${maskPairs(query, '&')}${end < 0 ? '' : url.slice(end)}`.replace(PERSONAL_TOKEN, `${PERSONAL_TOKEN_PREFIX}***`);
}

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

/**
 * One line per answered request that failed (5xx) or was slow, at the end of the request; every
 * request with LOG_REQUESTS=all. Fastify's own two lines per request (received, completed) are
 * off: at info they cost a third of a cheap answer's time.
 */
export function logRequest(request: FastifyRequest, statusCode: number, elapsedMs: number, options: { all: boolean; slowMs: number }) {
  const failed = statusCode >= 500;
  const slow = elapsedMs >= options.slowMs;
  if (!failed && !slow && !options.all) return;
  const line = { method: request.method, url: loggableUrl(request.url), statusCode, ms: Math.round(elapsedMs), remoteAddress: request.ip };
  if (failed) request.log.error(line, 'request failed');
  else if (slow) request.log.warn(line, 'slow request');
  else request.log.info(line, 'request');
}
