import type { IncomingMessage, ServerResponse } from 'node:http';

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers a header-only middleware (helmet) sets, taken once: it would otherwise parse its
 * options again on every request, for answers that are the same every time.
 */
export function staticHeadersOf(middleware: Middleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => (headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  middleware({ headers: {}, method: 'GET', url: '/' } as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

/** The OpenAPI document's media type (OGC API Features' service-desc link names the same). */
export const OPENAPI_TYPE = 'application/vnd.oai.openapi+json;version=3.0';
