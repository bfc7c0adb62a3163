import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { projectBody, projectIdParams, projectListQuery } from '@console/contract';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import * as service from './service.ts';
import { withRowAudit } from '../audit/recorder.ts';
import { projects } from '../../db/schema.ts';

const tags = ['projects'];

export const projectRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  api.get(
    '/',
    {
      config: { access: { auth: 'enterprise', permission: ['project', 'query'] } },
      schema: { tags, summary: 'Projects of the current enterprise with pipe length in their area by network type', querystring: projectListQuery },
    },
    async (request) => {
      const enterpriseId = requireEnterprise(request).id;
      // Every user of the enterprise opens this list: read once, kept until its data changes.
      const list = await app.reads.read(enterpriseId, `projects?${JSON.stringify(request.query)}`, () => service.listProjects(db, enterpriseId, request.query));
      return ok(request, list);
    },
  );

  api.get(
    '/:id',
    { config: { access: { auth: 'enterprise', permission: ['project', 'get'] } }, schema: { tags, summary: 'One project', params: projectIdParams } },
    async (request) => ok(request, await service.getProject(db, requireEnterprise(request).id, request.params.id)),
  );

  api.post(
    '/',
    { config: { access: { auth: 'enterprise', permission: ['project', 'add'] } }, schema: { tags, summary: 'Create a project', body: projectBody } },
    async (request) => ok(request, await service.createProject(db, requireEnterprise(request).id, requireUser(request).id, request.body)),
  );

  api.put(
    '/:id',
    {
      config: withRowAudit({ access: { auth: 'enterprise', permission: ['project', 'edit'] } }, projects),
      schema: { tags, summary: 'Edit a project', params: projectIdParams, body: projectBody },
    },
    async (request) => ok(request, await service.updateProject(db, requireEnterprise(request).id, request.params.id, request.body)),
  );

  api.delete(
    '/:id',
    { config: withRowAudit({ access: { auth: 'enterprise', permission: ['project', 'delete'] } }, projects), schema: { tags, summary: 'Delete a project', params: projectIdParams } },
    async (request) => {
      await service.deleteProject(db, requireEnterprise(request).id, request.params.id);
      return ok(request, null);
    },
  );
};
