import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Action, idParams, pipeSetQuery, reopenBody, riskAreaBody, riskAreaImportStartBody, riskAreaListQuery, riskAreaStepBody, subsidenceZoneBody } from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import { removeKeptFiles } from '../../http/keptFiles.ts';
import { uploadedFile } from '../../http/uploads.ts';
import { EXPORT_FORMATS } from '../exports/features.ts';
import type { ImportLimits } from '../imports/jobs.ts';
import { registerImportRoutes } from '../imports/routes.ts';
import type { JobRunner } from '../imports/runner.ts';
import { exportRiskAreas } from './export.ts';
import * as files from './files.ts';
import { startRiskAreaImport, suggestRiskAreaMapping } from './import.ts';
import * as service from './service.ts';
import { subsidenceZoneFromResult } from './subsidence.ts';
import { withRowAudit } from '../audit/recorder.ts';
import { riskAreas } from '../../db/schema.ts';
import { readDb } from '../../db/replicas.ts';
import { auditedPages } from '../audit/exports.ts';

const tags = ['risk areas'];
const risk = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['risk', action] } });
const work = risk('edit');

/** Risk-prone areas: waterlogging points, voids, collapses, hazard and subsidence zones, the pipes they hold, and their remediation. */
export const riskAreaRoutes: FastifyPluginAsync<{ limits: ImportLimits; runner: JobRunner; photoLimit: number }> = async (app, { limits, runner, photoLimit }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  registerImportRoutes(app, {
    kind: 'riskAreas',
    permission: 'risk',
    tags,
    what: 'risk-prone areas (survey results, a waterlogging register)',
    formats: 'GeoJSON, zipped Shapefile, KML/KMZ, CSV with lon/lat or WKT',
    limits,
    suggestMapping: suggestRiskAreaMapping,
    startBody: riskAreaImportStartBody,
    start: (request, job, body) =>
      startRiskAreaImport(db, limits, runner, job, requireUser(request).id, body, (error) => request.log.error({ err: error, jobId: job.id }, 'risk area import failed')),
  });

  api.get('/summary', { config: risk('query'), schema: { tags, summary: 'Open areas by level and kind, all by status' } }, async (request) => ok(request, await service.areaSummary(db, requireEnterprise(request).id)));
  api.get('/areas', { config: risk('query'), schema: { tags, summary: 'Areas with filters and pages, level I first', querystring: riskAreaListQuery } }, async (request) =>
    ok(request, await service.listAreas(db, requireEnterprise(request).id, request.query)),
  );
  api.get(
    '/areas/export',
    {
      config: risk('export'),
      schema: { tags, summary: 'The (filtered) areas with their pipes as GeoJSON, CSV (WKT geometry) or XLSX', querystring: riskAreaListQuery.omit({ page: true, pageSize: true }).extend({ format: z.enum(EXPORT_FORMATS).default('geojson') }) },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const file = exportRiskAreas(auditedPages(request, 'risk-areas', service.areaPages(readDb(request), requireEnterprise(request).id, filters)), format);
      return reply.type(file.type).header('content-disposition', `attachment; filename="risk-areas.${file.extension}"`).send(file.stream);
    },
  );
  api.get(
    '/areas/:id/pipes',
    { config: risk('get'), schema: { tags, summary: 'A page of the pipes inside the area or within its buffer, nearest first (all of them, page by page)', params: idParams, querystring: pipeSetQuery } },
    async (request) => ok(request, await service.areaPipePage(db, requireEnterprise(request).id, request.params.id, request.query)),
  );
  api.get('/areas/:id', { config: risk('get'), schema: { tags, summary: 'One area with its pipes, history and files', params: idParams } }, async (request) =>
    ok(request, await service.getArea(db, requireEnterprise(request).id, request.params.id)),
  );
  api.post('/areas', { config: risk('add'), schema: { tags, summary: 'Record an area (a point or polygon); the pipes inside or within its buffer are measured', body: riskAreaBody } }, async (request) =>
    ok(request, await service.createArea(db, requireEnterprise(request).id, requireUser(request).id, request.body), 'poi.done'),
  );
  api.post(
    '/areas/from-settlement',
    { config: risk('add'), schema: { tags, summary: "A subsidence zone from a pipe's settlement result: the band of its measured ground, at the level it reached", body: subsidenceZoneBody } },
    async (request) => ok(request, await subsidenceZoneFromResult(db, requireEnterprise(request).id, requireUser(request).id, request.body), 'poi.done'),
  );
  api.put('/areas/:id', { config: withRowAudit(work, riskAreas), schema: { tags, summary: "Save an area's form; it is measured again", params: idParams, body: riskAreaBody } }, async (request) =>
    ok(request, await service.updateArea(db, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body), 'poi.done'),
  );
  api.delete('/areas/:id', { config: withRowAudit(risk('delete'), riskAreas), schema: { tags, summary: 'Delete an area with its history and files (admins)', params: idParams } }, async (request) => {
    await removeKeptFiles(limits.dataDir, await service.deleteArea(db, requireEnterprise(request).id, request.params.id));
    return ok(request, null);
  });
  api.post('/areas/:id/start', { config: withRowAudit(work, riskAreas), schema: { tags, summary: 'Start remediating an identified area', params: idParams, body: riskAreaStepBody } }, async (request) =>
    ok(request, await service.stepArea(db, requireEnterprise(request).id, requireUser(request).id, request.params.id, 'start', request.body), 'poi.done'),
  );
  api.post('/areas/:id/finish', { config: withRowAudit(work, riskAreas), schema: { tags, summary: 'Mark an area remediated', params: idParams, body: riskAreaStepBody } }, async (request) =>
    ok(request, await service.stepArea(db, requireEnterprise(request).id, requireUser(request).id, request.params.id, 'finish', request.body), 'poi.done'),
  );
  api.post('/areas/:id/reopen', { config: withRowAudit(work, riskAreas), schema: { tags, summary: 'Reopen a remediated area, with the reason', params: idParams, body: reopenBody } }, async (request) =>
    ok(request, await service.stepArea(db, requireEnterprise(request).id, requireUser(request).id, request.params.id, 'reopen', request.body), 'poi.done'),
  );

  api.post(
    '/areas/:id/files',
    { config: work, schema: { tags, summary: 'Add a file to an area (multipart "file": PDF or image, up to PHOTO_LIMIT_MB)', consumes: ['multipart/form-data'], params: idParams, body: z.object({ file: uploadedFile }) } },
    async (request) => ok(request, await files.addAreaFile(db, limits.dataDir, photoLimit, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body.file), 'poi.done'),
  );
  api.get('/files/:id', { config: risk('get'), schema: { tags, summary: 'The content of an area file', params: idParams } }, async (request, reply) => {
    const { file, stream } = await files.areaFile(db, limits.dataDir, requireEnterprise(request).id, request.params.id);
    return reply.type(file.mimetype).header('cache-control', 'private, max-age=86400').send(stream);
  });
  api.delete('/files/:id', { config: risk('delete'), schema: { tags, summary: 'Delete an area file (admins)', params: idParams } }, async (request) => {
    await files.deleteAreaFile(db, limits.dataDir, requireEnterprise(request).id, request.params.id);
    return ok(request, null);
  });
};
