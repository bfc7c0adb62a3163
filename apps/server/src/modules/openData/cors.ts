import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HEADERS, PERSONAL_TOKEN_PREFIX, PERSONAL_TOKEN_QUERY_KEY } from '@console/contract';
import { dataServiceToken } from '../../http/access.ts';

/** The open data routes: OGC API Features, tiles, TileJSON and styles. Every other route stays same-origin. */
const OPEN_DATA_PATH = /^\/api\/(ogc(\/|$|\?)|tiles\/)/;
const ALLOWED_HEADERS = [HEADERS.token, 'Authorization', 'Accept-Language', HEADERS.enterprise].join(', ');

/**
 * Lets pages on other sites (a MapLibre map, a web GIS) read the open data with a personal token:
 * CORS answers and preflights on the open data routes only, for the origins configured ('*' by
 * default: no cookies are ever taken). A console sign-in token gets no CORS answer, so a page
 * elsewhere cannot use one; those answers may be embedded cross-origin (Cross-Origin-Resource-Policy).
 */
export function registerOpenDataCors(app: FastifyInstance, origins: '*' | string[]) {
  const allowedOrigin = (origin: string | undefined) => {
    if (!origin) return null;
    if (origins === '*') return '*';
    return origins.includes(origin) ? origin : null;
  };
  const answerCors = (request: FastifyRequest, reply: FastifyReply) => {
    const origin = allowedOrigin(request.headers.origin);
    if (origins !== '*') reply.header('vary', 'Origin');
    if (!origin) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', 'Content-Crs, Content-Length, ETag');
  };

  app.addHook('onRequest', (request, reply, done) => {
    if (!OPEN_DATA_PATH.test(request.url)) return done();
    reply.header('cross-origin-resource-policy', 'cross-origin');
    // The token as the access check takes it (a console token in `key` is none: refused there,
    // and its refusal is no other site's to read).
    const token = dataServiceToken(request);
    const key = (request.query as Record<string, unknown> | undefined)?.[PERSONAL_TOKEN_QUERY_KEY];
    const consoleTokenInUrl = typeof key === 'string' && !key.startsWith(PERSONAL_TOKEN_PREFIX);
    if (!consoleTokenInUrl && (request.method === 'OPTIONS' || token === undefined || token.startsWith(PERSONAL_TOKEN_PREFIX))) answerCors(request, reply);
    done();
  });

  // Preflights: a page sending its token in a header asks first.
  const preflight = { config: { access: { auth: 'public' as const } }, schema: { hide: true } };
  const answerPreflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', '600')
      .send();
  for (const url of ['/api/ogc', '/api/ogc/*', '/api/tiles/*']) app.options(url, preflight, answerPreflight);
}
