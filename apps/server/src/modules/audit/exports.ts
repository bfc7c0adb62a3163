import type { FastifyRequest } from 'fastify';
import { auditValue } from './recorder.ts';

/**
 * Exports are audited reads: who took what, with which filters, and how many rows. The rows are
 * counted as the file streams; the record is made once the stream ends (the whole file sent, or
 * the client gone part way: `complete` says which).
 */
export function recordExport(request: FastifyRequest, object: string, rows: number, complete: boolean) {
  const trail = request.server.auditTrail;
  if (!trail) return;
  const user = request.user;
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries((request.query as Record<string, unknown> | undefined) ?? {})) {
    // A personal token in the query is a secret (auditValue masks `key` and tokens by name).
    filters[name] = auditValue(name, value);
  }
  trail.record({
    kind: 'export',
    enterpriseId: request.enterprise?.id ?? null,
    userId: user?.id ?? null,
    username: user?.username ?? null,
    role: request.enterprise?.role ?? (user?.isPlatformAdmin ? 'platformAdmin' : null),
    method: request.method,
    route: request.url.split('?')[0].slice(0, 300),
    object,
    objectId: null,
    changes: { rows: { after: rows }, complete: { after: complete }, filters: { after: filters } },
    outcome: 'ok',
    status: 200,
    address: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
  });
}

/** An export's pages, passed on as they are and counted; recorded when the reading ends. */
export async function* auditedPages<Row>(request: FastifyRequest, object: string, pages: AsyncIterable<Row[]>): AsyncGenerator<Row[]> {
  let rows = 0;
  let complete = false;
  try {
    for await (const page of pages) {
      rows += page.length;
      yield page;
    }
    complete = true;
  } finally {
    recordExport(request, object, rows, complete);
  }
}
