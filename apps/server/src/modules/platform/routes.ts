import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams, pendingQuery, rejectBody } from '@console/contract';
import { ok } from '../../http/envelope.ts';
import { decideEnterprise, listEnterprises } from './service.ts';

const tags = ['platform'];
const config = { access: { auth: 'platformAdmin' } } as const;

/** The platform administrator's verification of registered enterprises. */
export const platformRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/enterprises',
    { config, schema: { tags, summary: 'Registered enterprises by verification status', querystring: pendingQuery } },
    async (request) => ok(request, await listEnterprises(app.db, request.query.status)),
  );

  api.post(
    '/enterprises/:id/verify',
    { config, schema: { tags, summary: 'Verify a pending enterprise', params: idParams } },
    async (request) => {
      await decideEnterprise(app.db, request.params.id, 'verified');
      return ok(request, null);
    },
  );

  api.post(
    '/enterprises/:id/reject',
    { config, schema: { tags, summary: 'Reject a pending enterprise', params: idParams, body: rejectBody } },
    async (request) => {
      await decideEnterprise(app.db, request.params.id, 'rejected', request.body.reason);
      return ok(request, null);
    },
  );
};
