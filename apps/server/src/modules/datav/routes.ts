import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise } from '../../http/access.ts';
import { openIncidentPlaces } from '../alerts/incidents.ts';
import { datavOverview } from './service.ts';

const tags = ['datav'];
const datav: { access: Access } = { access: { auth: 'enterprise', permission: ['datav', 'query'] } };

/** The big screen: one overview of every monitor and the open alerts' places. */
export const datavRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  // Walls of screens ask together: one read per enterprise and second, dropped when its data changes.
  api.get('/overview', { config: datav, schema: { tags, summary: 'Network, leak, settlement, construction, weather, risk and alert figures, and the newest alerts' } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    return ok(request, await app.reads.read(enterpriseId, 'datav', () => app.replicas.read(request.user?.id, (db) => datavOverview(db, enterpriseId))));
  });
  api.get('/alerts', { config: datav, schema: { tags, summary: 'The open incidents on the map, the gravest first' } }, async (request) => ok(request, await openIncidentPlaces(db, requireEnterprise(request).id)));
};
