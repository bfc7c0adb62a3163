import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Action, assignBody, metricsQuery, findingBody, idParams, poiImportStartBody, poiListQuery, reopenBody, repairBody } from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import { uploadedFile } from '../../http/uploads.ts';
import type { ImportLimits } from '../imports/jobs.ts';
import { registerImportRoutes } from '../imports/routes.ts';
import type { JobRunner } from '../imports/runner.ts';
import { startPoiImport, suggestPoiMapping } from './import.ts';
import { EXPORT_FORMATS } from '../exports/features.ts';
import { exportPois } from './export.ts';
import { leakMetrics } from './metrics.ts';
import * as photos from './photos.ts';
import * as service from './service.ts';
import { readDb } from '../../db/replicas.ts';
import { auditedPages } from '../audit/exports.ts';

const tags = ['leaks'];
const leak = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['leak', action] } });
const read = leak;
const work = leak('edit');

/** Leak detection: POI deliveries, the field workflow on each POI, and its history. */
export const leakRoutes: FastifyPluginAsync<{ limits: ImportLimits; runner: JobRunner; photoLimit: number }> = async (app, { limits, runner, photoLimit }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  registerImportRoutes(app, {
    kind: 'pois',
    permission: 'leak',
    tags,
    what: 'a POI delivery for a project',
    formats: 'GeoJSON, zipped Shapefile, KML/KMZ, CSV with lon/lat or WKT',
    limits,
    suggestMapping: suggestPoiMapping,
    startBody: poiImportStartBody,
    start: (request, job, body) =>
      startPoiImport(db, limits, runner, job, requireUser(request).id, body, (error) => request.log.error({ err: error, jobId: job.id }, 'POI import failed')),
  });

  api.get(
    '/metrics',
    {
      config: read('query'),
      schema: {
        tags,
        summary: 'Survey results for the POIs delivered in a period: confirmation rate, leaks per crew-day and per km, by type/material/diameter, water saved, days to investigation and repair',
        querystring: metricsQuery,
      },
    },
    async (request) => ok(request, await leakMetrics(db, requireEnterprise(request).id, request.query)),
  );

  api.get(
    '/deliveries',
    { config: read('query'), schema: { tags, summary: 'POI deliveries, newest first', querystring: z.object({ projectId: z.coerce.number().int().positive().optional() }) } },
    async (request) => ok(request, await service.listDeliveries(db, requireEnterprise(request).id, request.query.projectId)),
  );
  api.delete(
    '/deliveries/:id',
    { config: leak('delete'), schema: { tags, summary: 'Delete a delivery with its POIs, their history and photos', params: idParams } },
    async (request) => {
      await service.deleteDelivery(db, limits.dataDir, requireEnterprise(request).id, request.params.id);
      return ok(request, null);
    },
  );

  api.get(
    '/pois',
    { config: read('query'), schema: { tags, summary: 'POIs with filters and pages', querystring: poiListQuery } },
    async (request) => ok(request, await service.listPois(db, requireEnterprise(request).id, request.query)),
  );
  api.get(
    '/pois/export',
    {
      config: leak('export'),
      schema: { tags, summary: 'The (filtered) POIs with their findings as GeoJSON, CSV (WKT geometry) or XLSX', querystring: poiListQuery.omit({ page: true, pageSize: true }).extend({ format: z.enum(EXPORT_FORMATS).default('geojson') }) },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const file = exportPois(auditedPages(request, 'leaks/pois', service.poiPages(readDb(request), requireEnterprise(request).id, filters)), format);
      return reply.type(file.type).header('content-disposition', `attachment; filename="pois.${file.extension}"`).send(file.stream);
    },
  );
  api.get(
    '/pois/:id',
    { config: read('get'), schema: { tags, summary: 'One POI with its pipes, finding and history', params: idParams } },
    async (request) => ok(request, await service.getPoi(db, requireEnterprise(request).id, request.params.id)),
  );
  api.post(
    '/pois/assign',
    { config: work, schema: { tags, summary: 'Assign POIs to a member (one or many), with a due date', body: assignBody } },
    async (request) => {
      await service.assignPois(db, requireEnterprise(request).id, requireUser(request).id, request.body);
      return ok(request, null, 'poi.done');
    },
  );
  api.post(
    '/pois/:id/start',
    { config: work, schema: { tags, summary: 'Start investigating an assigned POI', params: idParams } },
    async (request) => ok(request, await service.startPoi(db, requireEnterprise(request).id, requireUser(request).id, request.params.id), 'poi.done'),
  );
  api.post(
    '/pois/:id/finding',
    { config: work, schema: { tags, summary: 'Record what was found: a leak (type, surfacing, pipe, flow) or none', params: idParams, body: findingBody } },
    async (request) => ok(request, await service.recordFinding(db, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body), 'poi.done'),
  );
  api.post(
    '/pois/:id/repair',
    { config: work, schema: { tags, summary: 'Mark a found leak repaired', params: idParams, body: repairBody } },
    async (request) => ok(request, await service.repairPoi(db, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body), 'poi.done'),
  );
  api.post(
    '/pois/:id/reopen',
    { config: work, schema: { tags, summary: 'Reopen a finished POI, with the reason', params: idParams, body: reopenBody } },
    async (request) => ok(request, await service.reopenPoi(db, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body.reason), 'poi.done'),
  );

  api.get(
    '/pois/:id/photos',
    { config: read('get'), schema: { tags, summary: "A POI's photos", params: idParams } },
    async (request) => ok(request, await photos.listPhotos(db, requireEnterprise(request).id, request.params.id)),
  );
  api.post(
    '/pois/:id/photos',
    {
      config: work,
      schema: { tags, summary: 'Add a photo to a POI (multipart field "file": JPEG, PNG, WebP or HEIC, up to PHOTO_LIMIT_MB)', consumes: ['multipart/form-data'], params: idParams, body: z.object({ file: uploadedFile }) },
    },
    async (request) => ok(request, await photos.addPhoto(db, limits.dataDir, photoLimit, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body.file), 'poi.done'),
  );
  api.get(
    '/photos/:id',
    { config: read('get'), schema: { tags, summary: 'The image of a photo', params: idParams } },
    async (request, reply) => {
      const { photo, stream } = await photos.photoFile(db, limits.dataDir, requireEnterprise(request).id, request.params.id);
      return reply.type(photo.mimetype).header('cache-control', 'private, max-age=86400').send(stream);
    },
  );
  api.delete(
    '/photos/:id',
    { config: leak('delete'), schema: { tags, summary: 'Delete a photo (admins: members do not delete)', params: idParams } },
    async (request) => {
      await photos.deletePhoto(db, limits.dataDir, requireEnterprise(request).id, request.params.id);
      return ok(request, null);
    },
  );
};
