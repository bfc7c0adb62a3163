import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importJobParams, pipeBody, pipeIdParams, pipeImportStartBody, pipeListQuery } from '@console/contract';
import { exportPipes } from './export.ts';
import { EXPORT_FORMATS } from '../exports/features.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import { uploadedFile } from '../../http/uploads.ts';
import { analyseUpload, getImportJob, importJobView, listImportJobs, type ImportJob, type ImportLimits } from '../imports/jobs.ts';
import type { JobRunner } from '../imports/runner.ts';
import { startPipeImport, suggestPipeMapping } from './import.ts';
import * as service from './service.ts';

const tags = ['pipelines'];

export const pipelineRoutes: FastifyPluginAsync<{ limits: ImportLimits; runner: JobRunner }> = async (app, { limits, runner }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const view = (request: FastifyRequest, job: ImportJob) =>
    importJobView(job, request.language, suggestPipeMapping(job.fields.map((f) => f.name)));

  api.post(
    '/imports',
    {
      config: { access: { auth: 'enterprise', permission: ['pipeline', 'import'] } },
      schema: {
        tags,
        summary: 'Upload a pipe network file (GeoJSON, zipped Shapefile, KML/KMZ, CSV with WKT) as multipart field "file": the file is analysed for the mapping step',
        consumes: ['multipart/form-data'],
        body: z.object({ file: uploadedFile }),
      },
    },
    async (request) => {
      const job = await analyseUpload(db, limits, { enterpriseId: requireEnterprise(request).id, userId: requireUser(request).id, kind: 'pipes', upload: request.body.file });
      return ok(request, view(request, job));
    },
  );

  api.get(
    '/imports',
    { config: { access: { auth: 'enterprise', permission: ['pipeline', 'query'] } }, schema: { tags, summary: 'Recent pipe imports of the current enterprise' } },
    async (request) => ok(request, (await listImportJobs(db, requireEnterprise(request).id, 'pipes')).map((job) => view(request, job))),
  );

  api.get(
    '/imports/:id',
    { config: { access: { auth: 'enterprise', permission: ['pipeline', 'query'] } }, schema: { tags, summary: 'One pipe import: fields, progress, report', params: importJobParams } },
    async (request) => ok(request, view(request, await getImportJob(db, requireEnterprise(request).id, request.params.id, 'pipes'))),
  );

  api.post(
    '/imports/:id/start',
    {
      config: { access: { auth: 'enterprise', permission: ['pipeline', 'import'] } },
      schema: { tags, summary: 'Start an analysed import with the field mapping: all rows are written, or none', params: importJobParams, body: pipeImportStartBody },
    },
    async (request) => {
      const enterpriseId = requireEnterprise(request).id;
      const job = await getImportJob(db, enterpriseId, request.params.id, 'pipes');
      await startPipeImport(db, limits, runner, job, request.body, (error) => request.log.error({ err: error, jobId: job.id }, 'pipe import failed'));
      return ok(request, view(request, await getImportJob(db, enterpriseId, job.id, 'pipes')), 'import.started');
    },
  );

  api.get(
    '/',
    {
      config: { access: { auth: 'enterprise', permission: ['pipeline', 'query'] } },
      schema: { tags, summary: 'Pipes of the current enterprise: filters and pages', querystring: pipeListQuery },
    },
    async (request) => ok(request, await service.listPipes(db, requireEnterprise(request).id, request.query)),
  );

  api.get(
    '/export',
    {
      config: { access: { auth: 'enterprise', permission: ['pipeline', 'export'] } },
      schema: { tags, summary: 'The (filtered) network as GeoJSON, CSV (WKT geometry) or XLSX', querystring: pipeListQuery.extend({ format: z.enum(EXPORT_FORMATS).default('geojson') }) },
    },
    async (request, reply) => {
      const rows = await service.allPipes(db, requireEnterprise(request).id, request.query);
      const file = await exportPipes(rows, request.query.format);
      return reply
        .type(file.type)
        .header('content-disposition', `attachment; filename="pipes.${file.extension}"`)
        .send(file.body);
    },
  );

  api.get(
    '/facets',
    { config: { access: { auth: 'enterprise', permission: ['pipeline', 'query'] } }, schema: { tags, summary: 'Values for the filters (materials)' } },
    async (request) => ok(request, await service.pipeFacets(db, requireEnterprise(request).id)),
  );

  api.get(
    '/:id',
    { config: { access: { auth: 'enterprise', permission: ['pipeline', 'get'] } }, schema: { tags, summary: 'One pipe', params: pipeIdParams } },
    async (request) => ok(request, await service.getPipe(db, requireEnterprise(request).id, request.params.id)),
  );

  api.post(
    '/',
    { config: { access: { auth: 'enterprise', permission: ['pipeline', 'add'] } }, schema: { tags, summary: 'Add a pipe', body: pipeBody } },
    async (request) => ok(request, await service.createPipe(db, requireEnterprise(request).id, request.body)),
  );

  api.put(
    '/:id',
    { config: { access: { auth: 'enterprise', permission: ['pipeline', 'edit'] } }, schema: { tags, summary: 'Edit a pipe', params: pipeIdParams, body: pipeBody } },
    async (request) => ok(request, await service.updatePipe(db, requireEnterprise(request).id, request.params.id, request.body)),
  );

  api.delete(
    '/:id',
    { config: { access: { auth: 'enterprise', permission: ['pipeline', 'delete'] } }, schema: { tags, summary: 'Delete a pipe', params: pipeIdParams } },
    async (request) => {
      await service.deletePipe(db, requireEnterprise(request).id, request.params.id);
      return ok(request, null);
    },
  );
};
