import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { acquisitionBody, acquisitionImportStartBody, acquisitionListQuery, idParams } from '@console/contract';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise } from '../../http/access.ts';
import type { ImportLimits } from '../imports/jobs.ts';
import { registerImportRoutes } from '../imports/routes.ts';
import type { JobRunner } from '../imports/runner.ts';
import { startAcquisitionImport, suggestAcquisitionMapping } from './import.ts';
import * as service from './service.ts';

const tags = ['acquisitions'];

/** Satellite acquisitions of the current enterprise (the SAOCOM platform). */
export const acquisitionRoutes: FastifyPluginAsync<{ limits: ImportLimits; runner: JobRunner }> = async (app, { limits, runner }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  registerImportRoutes(app, {
    kind: 'acquisitions',
    permission: 'saocom',
    tags,
    what: 'a list of scenes with their footprints',
    formats: 'GeoJSON, zipped Shapefile, KML/KMZ, CSV with WKT footprints',
    limits,
    suggestMapping: suggestAcquisitionMapping,
    startBody: acquisitionImportStartBody,
    start: (request, job, body) => startAcquisitionImport(db, limits, runner, job, body, (error) => request.log.error({ err: error, jobId: job.id }, 'scene import failed')),
  });

  api.get(
    '/',
    { config: { access: { auth: 'enterprise', permission: ['saocom', 'query'] } }, schema: { tags, summary: 'Acquisitions by time, with the projects each footprint covers', querystring: acquisitionListQuery } },
    async (request) => ok(request, await service.listAcquisitions(db, requireEnterprise(request).id, request.query)),
  );
  api.get(
    '/coverage',
    { config: { access: { auth: 'enterprise', permission: ['saocom', 'query'] } }, schema: { tags, summary: "Each project's coverage by taken scenes, with its last and next acquisition" } },
    async (request) => ok(request, await service.projectCoverage(db, requireEnterprise(request).id)),
  );
  api.get(
    '/:id',
    { config: { access: { auth: 'enterprise', permission: ['saocom', 'get'] } }, schema: { tags, summary: 'One acquisition', params: idParams } },
    async (request) => ok(request, await service.getAcquisition(db, requireEnterprise(request).id, request.params.id)),
  );
  api.post(
    '/',
    { config: { access: { auth: 'enterprise', permission: ['saocom', 'add'] } }, schema: { tags, summary: 'Add an acquisition', body: acquisitionBody } },
    async (request) => ok(request, await service.saveAcquisition(db, requireEnterprise(request).id, request.body)),
  );
  api.put(
    '/:id',
    { config: { access: { auth: 'enterprise', permission: ['saocom', 'edit'] } }, schema: { tags, summary: 'Edit an acquisition (status as processing goes on)', params: idParams, body: acquisitionBody } },
    async (request) => ok(request, await service.saveAcquisition(db, requireEnterprise(request).id, request.body, request.params.id)),
  );
  api.delete(
    '/:id',
    { config: { access: { auth: 'enterprise', permission: ['saocom', 'delete'] } }, schema: { tags, summary: 'Delete an acquisition', params: idParams } },
    async (request) => {
      await service.deleteAcquisition(db, requireEnterprise(request).id, request.params.id);
      return ok(request, null);
    },
  );
};
