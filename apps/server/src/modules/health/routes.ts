import type { FastifyPluginAsync } from 'fastify';
import { envelopeSchema, healthSchema } from '@console/contract';
import { isReachable, type Database } from '../../db/client.ts';
import { ok } from '../../http/envelope.ts';
import { VERSION } from '../../version.ts';

export const healthRoutes: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/health',
    { config: { access: { auth: 'public' } }, schema: { tags: ['health'], summary: 'Version and database reachability', response: { 200: envelopeSchema(healthSchema), 503: envelopeSchema(healthSchema) } } },
    async (request, reply) => {
      const reachable = await isReachable(database.db);
      reply.code(reachable ? 200 : 503);
      return ok(request, {
        status: reachable ? ('ok' as const) : ('degraded' as const),
        version: VERSION,
        database: { kind: database.kind, reachable },
      });
    },
  );
};
