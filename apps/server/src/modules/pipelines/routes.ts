import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bboxOf } from '../../geo/geometry.ts';
import { z } from 'zod';
import { pipeBody, pipeFilters, pipeIdParams, pipeImportStartBody, pipeListQuery, type BBox, type LineGeometry } from '@console/contract';
import { exportPipes } from './export.ts';
import { EXPORT_FORMATS } from '../exports/features.ts';
import { ok } from '../../http/envelope.ts';
import { clientGone } from '../../http/context.ts';
import { requireEnterprise } from '../../http/access.ts';
import type { ImportLimits } from '../imports/jobs.ts';
import { registerImportRoutes } from '../imports/routes.ts';
import type { JobRunner } from '../imports/runner.ts';
import { startPipeImport, suggestPipeMapping, type AfterPipeImport } from './import.ts';
import * as service from './service.ts';
import { withRowAudit } from '../audit/recorder.ts';
import { pipes } from '../../db/schema.ts';
import { readDb } from '../../db/replicas.ts';
import { auditedPages } from '../audit/exports.ts';

const tags = ['pipelines'];

export const pipelineRoutes: FastifyPluginAsync<{ limits: ImportLimits; runner: JobRunner; afterImport?: AfterPipeImport; afterEdit?: (enterpriseId: number, boxes: BBox[]) => Promise<void> }> = async (app, { limits, runner, afterImport, afterEdit }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  registerImportRoutes(app, {
    kind: 'pipes',
    permission: 'pipeline',
    tags,
    what: 'a pipe network file',
    formats: 'GeoJSON, zipped Shapefile, KML/KMZ, CSV with WKT',
    limits,
    suggestMapping: suggestPipeMapping,
    startBody: pipeImportStartBody,
    start: (request, job, body) => startPipeImport(db, limits, runner, job, body, (error) => request.log.error({ err: error, jobId: job.id }, 'pipe import failed'), afterImport),
  });

  api.get(
    '/',
    {
      config: { access: { auth: 'enterprise', permission: ['pipeline', 'query'] } },
      schema: { tags, summary: 'Pipes of the current enterprise: filters and pages', querystring: pipeListQuery },
    },
    // The pages every user opens are read once for all who ask until the network changes; at a
    // million pipes a search takes a while: it stops when every client asking for it has gone.
    async (request, reply) => {
      const enterpriseId = requireEnterprise(request).id;
      const page = await app.reads.readCancellable(enterpriseId, `pipelines?${JSON.stringify(request.query)}`, clientGone(reply), (signal) =>
        app.replicas.cancellable(request.user?.id, signal, (work) => service.listPipes(work, enterpriseId, request.query)),
      );
      return ok(request, page);
    },
  );

  api.get(
    '/export',
    {
      config: { access: { auth: 'enterprise', permission: ['pipeline', 'export'] } },
      schema: { tags, summary: 'The (filtered) network as GeoJSON, CSV (WKT geometry) or XLSX', querystring: pipeFilters.extend({ format: z.enum(EXPORT_FORMATS).default('geojson') }) },
    },
    async (request, reply) => {
      // Streamed a page at a time; a client that leaves stops the reading.
      const file = exportPipes(auditedPages(request, 'pipelines', await service.pipePages(readDb(request), requireEnterprise(request).id, request.query)), request.query.format);
      return reply
        .type(file.type)
        .header('content-disposition', `attachment; filename="pipes.${file.extension}"`)
        .send(file.stream);
    },
  );

  api.get(
    '/facets',
    { config: { access: { auth: 'enterprise', permission: ['pipeline', 'query'] } }, schema: { tags, summary: 'Values for the filters (materials, networks held)' } },
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
    async (request) => {
      const enterpriseId = requireEnterprise(request).id;
      const pipe = await service.createPipe(db, enterpriseId, request.body);
      await afterEdit?.(enterpriseId, [bboxOf(pipe!.geometry as LineGeometry)]);
      return ok(request, pipe);
    },
  );

  api.put(
    '/:id',
    { config: withRowAudit({ access: { auth: 'enterprise', permission: ['pipeline', 'edit'] } }, pipes), schema: { tags, summary: 'Edit a pipe', params: pipeIdParams, body: pipeBody } },
    async (request) => {
      const enterpriseId = requireEnterprise(request).id;
      const before = await service.getPipe(db, enterpriseId, request.params.id);
      const pipe = await service.updatePipe(db, enterpriseId, request.params.id, request.body);
      await afterEdit?.(enterpriseId, [bboxOf(before.geometry as LineGeometry), bboxOf(pipe.geometry as LineGeometry)]);
      return ok(request, pipe);
    },
  );

  api.delete(
    '/:id',
    { config: withRowAudit({ access: { auth: 'enterprise', permission: ['pipeline', 'delete'] } }, pipes), schema: { tags, summary: 'Delete a pipe', params: pipeIdParams } },
    async (request) => {
      const enterpriseId = requireEnterprise(request).id;
      const before = await service.getPipe(db, enterpriseId, request.params.id);
      await service.deletePipe(db, enterpriseId, request.params.id);
      await afterEdit?.(enterpriseId, [bboxOf(before.geometry as LineGeometry)]);
      return ok(request, null);
    },
  );
};
