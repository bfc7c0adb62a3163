import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toLanguage, translate } from '@console/contract';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { DatabaseWatch, isUnavailable } from '../db/availability.ts';
import { envelope } from './envelope.ts';

/** What a caller is told to wait before asking again while the database is away (seconds). */
export const RETRY_AFTER_S = 5;
/** Routes that answer without the database (liveness, readiness, the console's settings, the API docs). */
const WITHOUT_DATABASE = /^\/api\/(health|ready|settings|docs)(\/|$|\?)/;

/** The answer while the database is away: 503, Retry-After, a message in the caller's language. */
export function unavailable(request: FastifyRequest, reply: FastifyReply) {
  // Read from the header here: the watch's hook may run before the one that sets request.language.
  const language = toLanguage(request.headers['accept-language']);
  return reply
    .code(503)
    .header('retry-after', String(RETRY_AFTER_S))
    .send(envelope(false, 503, translate('error.databaseUnavailable', language), { retryAfter: RETRY_AFTER_S }));
}

/**
 * Watches a PostgreSQL server (the embedded database cannot go away): while it does not answer,
 * API requests are answered 503 at once instead of waiting on a pool that cannot connect; when it
 * goes, every pooled connection is closed (a hung server holds them, and the requests on them
 * fail now rather than never); when it is back, `onBack` makes good what was missed.
 */
export function watchDatabase(app: FastifyInstance, database: Database, config: Pick<Config, 'dbCheckMs' | 'dbTimeoutMs'>, onBack: () => void): DatabaseWatch | null {
  if (!database.probe) return null;
  const watch = new DatabaseWatch(database.probe, {
    checkMs: config.dbCheckMs,
    timeoutMs: config.dbTimeoutMs,
    retryMs: 1_000,
    onChange(up) {
      if (up) {
        app.log.warn('the database answers again: resuming');
        onBack();
      } else {
        app.log.error('the database does not answer: requests are answered 503 until it does');
        database.dropConnections?.();
      }
    },
  });
  watch.start();
  app.addHook('onRequest', (request, reply, done) => {
    if (watch.up || !request.url.startsWith('/api/') || WITHOUT_DATABASE.test(request.url)) return done();
    unavailable(request, reply);
  });
  app.addHook('onClose', () => watch.close());
  return watch;
}

/** Whether a failed request failed because the database went away (then the watch is asked at once). */
export function failedForDatabase(error: unknown, watch: DatabaseWatch | null): boolean {
  if (!isUnavailable(error)) return false;
  watch?.suspect();
  return true;
}
