import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditExportQuery, auditHistoryQuery, auditListQuery, type AuditFilters } from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise } from '../../http/access.ts';
import type { Db } from '../../db/client.ts';
import { exportTable } from '../exports/features.ts';
import { auditedPages } from './exports.ts';
import { auditPages, listAudit, objectHistory, type AuditScope } from './service.ts';
import { readDb } from '../../db/replicas.ts';

const tags = ['audit'];
/** The trail is the admins' (an action members lack: reading every member's doings and addresses). */
const admins: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'export'] } };
/** An object's history in its drawer: anyone of the enterprise who sees the object (names and fields, no addresses). */
const members: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'get'] } };
const platform: { access: Access } = { access: { auth: 'platformAdmin' } };

const EXPORT_FIELDS = ['id', 'at', 'kind', 'enterpriseId', 'username', 'role', 'method', 'route', 'object', 'objectId', 'outcome', 'status', 'address', 'userAgent', 'changes'] as const;

function sendExport(db: Db, request: FastifyRequest, reply: FastifyReply, scope: AuditScope, query: AuditFilters & { format: 'csv' | 'xlsx' }) {
  const { format, ...filters } = query;
  const rows = (async function* () {
    for await (const page of auditedPages(request, 'audit/events', auditPages(db, scope, filters))) yield page.map((event) => ({ ...event, changes: event.changes ? JSON.stringify(event.changes) : '' }));
  })();
  const file = exportTable(rows, EXPORT_FIELDS, 'audit', format, { at: 24, route: 40, userAgent: 40, changes: 80 });
  return reply.type(file.type).header('content-disposition', `attachment; filename="audit.${file.extension}"`).send(file.stream);
}

/** The audit trail: an enterprise's records for its admins, every one for platform admins, an object's for its drawer. */
export const auditRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  // Records reach the table a moment after their write: a read of the trail waits for those made so far.
  api.addHook('preHandler', async () => {
    await app.auditTrail?.flushed();
  });

  api.get('/events', { config: admins, schema: { tags, summary: "The enterprise's audit records, newest first, a page at a time (before: the last id seen)", querystring: auditListQuery } }, async (request) =>
    ok(request, await listAudit(db, { enterpriseId: requireEnterprise(request).id }, request.query)),
  );
  api.get('/events/export', { config: admins, schema: { tags, summary: "The enterprise's (filtered) audit records as CSV or XLSX", querystring: auditExportQuery } }, async (request, reply) =>
    sendExport(readDb(request), request, reply, { enterpriseId: requireEnterprise(request).id }, request.query),
  );
  api.get('/history', { config: members, schema: { tags, summary: "One object's changes, newest first (its drawer's history)", querystring: auditHistoryQuery } }, async (request) =>
    ok(request, await objectHistory(db, requireEnterprise(request).id, request.query.object, request.query.objectId)),
  );
  api.get('/platform/events', { config: platform, schema: { tags, summary: 'Every enterprise’s audit records and the sign-ins (platform admins)', querystring: auditListQuery } }, async (request) =>
    ok(request, await listAudit(db, { all: true }, request.query)),
  );
  api.get('/platform/events/export', { config: platform, schema: { tags, summary: 'Every enterprise’s (filtered) audit records as CSV or XLSX (platform admins)', querystring: auditExportQuery } }, async (request, reply) =>
    sendExport(readDb(request), request, reply, { all: true }, request.query),
  );
};
