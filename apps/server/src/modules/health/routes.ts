import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';
import { envelopeSchema, healthSchema, readinessSchema } from '@console/contract';
import { isReachable, MIGRATIONS_FOLDER, queryRows, type Database } from '../../db/client.ts';
import { ok } from '../../http/envelope.ts';
import type { DatabaseWatch } from '../../db/availability.ts';
import { VERSION } from '../../version.ts';

/** The migrations this build brings (drizzle's journal). */
const EXPECTED_MIGRATIONS = (JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

/**
 * Liveness and readiness, for a load balancer or an orchestrator: `/health` answers while the
 * process does (restarting it would not bring a database back) and says how the database is;
 * `/ready` answers 200 only when the database answers and has every migration of this build.
 */
// With a PostgreSQL server, whether it answers is what the database watch found last (every
// DB_CHECK_S, at once after a lost connection): no probe waits on a hung server here.
export const healthRoutes: FastifyPluginAsync<{ database: Database; watch: DatabaseWatch | null }> = async (app, { database, watch }) => {
  app.get(
    '/health',
    { config: { access: { auth: 'public' } }, schema: { tags: ['health'], summary: 'Live: the process answers (with the version and whether the database answers)', response: { 200: envelopeSchema(healthSchema) } } },
    async (request) => {
      const reachable = watch ? watch.up : await isReachable(database.db);
      return ok(request, {
        status: reachable ? ('ok' as const) : ('degraded' as const),
        version: VERSION,
        database: { kind: database.kind, reachable },
      });
    },
  );
  app.get(
    '/ready',
    { config: { access: { auth: 'public' } }, schema: { tags: ['health'], summary: 'Ready: the database answers and has every migration of this build (503 otherwise)', response: { 200: envelopeSchema(readinessSchema), 503: envelopeSchema(readinessSchema) } } },
    async (request, reply) => {
      const applied = watch && !watch.up ? null : await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`).then(
        (rows) => Number(rows[0].n),
        () => null,
      );
      const ready = applied !== null && applied >= EXPECTED_MIGRATIONS;
      reply.code(ready ? 200 : 503);
      return ok(request, { ready, version: VERSION, database: { kind: database.kind, reachable: applied !== null }, migrations: { applied: applied ?? 0, expected: EXPECTED_MIGRATIONS } });
    },
  );
};
