import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  id,
  settlementAverageBody,
  settlementBandsBody,
  settlementImportStartBody,
  settlementResultFilters,
  settlementResultQuery,
  settlementThresholdsBody,
  settlementWindowQuery,
  type Action,
} from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { withAuditState } from '../audit/recorder.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import type { ImportLimits } from '../imports/jobs.ts';
import { registerImportRoutes } from '../imports/routes.ts';
import type { JobRunner } from '../imports/runner.ts';
import { EXPORT_FORMATS } from '../exports/features.ts';
import { assertProject } from '../projects/service.ts';
import type { SettlementAnalyses } from './analysis.ts';
import { settlementFields, startSettlementImport, suggestSettlementMapping } from './import.ts';
import { exportResults, flaggedSegments, getResult, listResults } from './results.ts';
import { runProfile } from './run.ts';
import * as service from './service.ts';
import { auditedPages } from '../audit/exports.ts';

const tags = ['settlement'];
const settlement = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['settlement', action] } });
/** Bands and thresholds are the enterprise's settings: its admins set them. */
const settings: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'edit'] } };
const datasetParams = z.object({ id });

/** Settlement monitoring: InSAR datasets, the map's points and cells, series, bands, thresholds and pipe results. */
export const settlementRoutes: FastifyPluginAsync<{ limits: ImportLimits; runner: JobRunner; analyses: SettlementAnalyses }> = async (app, { limits, runner, analyses }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const dataset = (request: { params: { id: number } } & Parameters<typeof requireEnterprise>[0]) => service.getDataset(db, requireEnterprise(request).id, request.params.id);

  registerImportRoutes(app, {
    kind: 'settlement',
    permission: 'settlement',
    tags,
    what: 'an InSAR point dataset',
    formats: 'EGMS point CSV (L2a, L2b, L3), CSV with lon/lat or x/y and one column per date, GeoJSON, zipped Shapefile, KML/KMZ',
    limits,
    suggestMapping: suggestSettlementMapping,
    fields: settlementFields,
    startBody: settlementImportStartBody,
    start: (request, job, body) =>
      startSettlementImport(
        db,
        limits,
        runner,
        job,
        requireUser(request).id,
        body,
        (datasetId) => void analyses.start(job.enterpriseId, datasetId).catch((error) => request.log.error({ err: error, datasetId }, 'settlement analysis did not start')),
        (error) => request.log.error({ err: error, jobId: job.id }, 'settlement import failed'),
      ),
  });

  api.get('/datasets', { config: settlement('query'), schema: { tags, summary: 'The enterprise\'s settlement datasets, newest first' } }, async (request) =>
    ok(request, (await service.listDatasets(db, requireEnterprise(request).id)).map(service.datasetView)),
  );
  api.get('/datasets/:id', { config: settlement('get'), schema: { tags, summary: 'One dataset: dates, figures, analysis state', params: datasetParams } }, async (request) =>
    ok(request, service.datasetView(await dataset(request))),
  );
  api.delete('/datasets/:id', { config: settlement('delete'), schema: { tags, summary: 'Delete a dataset with all its points, cells and results', params: datasetParams } }, async (request) => {
    await service.deleteDataset(db, requireEnterprise(request).id, request.params.id);
    return ok(request, null);
  });
  api.get(
    '/datasets/:id/window',
    {
      config: settlement('query'),
      schema: { tags, summary: 'Points (zoomed in) or grid cells (zoomed out) in a map window, as columns: velocity, or displacement between two dates', params: datasetParams, querystring: settlementWindowQuery },
    },
    async (request) => ok(request, await service.pointWindow(db, await dataset(request), request.query)),
  );
  api.get(
    '/datasets/:id/points/:pointId',
    { config: settlement('get'), schema: { tags, summary: 'One point with its measures and displacement series', params: datasetParams.extend({ pointId: id }) } },
    async (request) => ok(request, await service.getPoint(db, await dataset(request), request.params.pointId)),
  );
  api.post(
    '/datasets/:id/average',
    { config: settlement('query'), schema: { tags, summary: 'Mean series and velocity of the points inside a drawn area', params: datasetParams, body: settlementAverageBody } },
    async (request) => ok(request, await service.averageInArea(db, await dataset(request), request.body.area)),
  );
  api.post(
    '/datasets/:id/analyse',
    { config: settlement('edit'), schema: { tags, summary: 'Analyse the pipes against the dataset again (in the background)', params: datasetParams } },
    async (request) => {
      const enterpriseId = requireEnterprise(request).id;
      await dataset(request);
      await analyses.start(enterpriseId, request.params.id);
      return ok(request, service.datasetView(await dataset(request)), 'settlement.analysisStarted');
    },
  );
  api.get(
    '/datasets/:id/results',
    { config: settlement('query'), schema: { tags, summary: 'Pipe segments on moving ground, worst first', params: datasetParams, querystring: settlementResultQuery } },
    async (request) => ok(request, await listResults(db, await dataset(request), request.query)),
  );
  api.get(
    '/datasets/:id/results/export',
    {
      config: settlement('export'),
      schema: { tags, summary: 'The (filtered) results as GeoJSON, CSV (WKT geometry) or XLSX', params: datasetParams, querystring: settlementResultFilters.extend({ format: z.enum(EXPORT_FORMATS).default('geojson') }) },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const file = await exportResults(db, await dataset(request), filters, format, (pages) => auditedPages(request, 'settlement/results', pages));
      return reply.type(file.type).header('content-disposition', `attachment; filename="settlement.${file.extension}"`).send(file.stream);
    },
  );
  api.get(
    '/datasets/:id/results/flagged',
    { config: settlement('query'), schema: { tags, summary: 'Segments at warning or alarm with their lines, for the map', params: datasetParams } },
    async (request) => ok(request, await flaggedSegments(db, await dataset(request))),
  );
  api.get(
    '/datasets/:id/results/:pipeRowId/run',
    {
      config: settlement('get'),
      schema: { tags, summary: 'The profile along the run of connected segments through one (extended while each end meets exactly one more segment of its network)', params: datasetParams.extend({ pipeRowId: id }) },
    },
    async (request) => ok(request, await runProfile(db, await dataset(request), request.params.pipeRowId)),
  );
  api.get(
    '/datasets/:id/results/:pipeRowId',
    { config: settlement('get'), schema: { tags, summary: 'One segment\'s result: thresholds crossed, profile along the pipe, nearby points', params: datasetParams.extend({ pipeRowId: id }) } },
    async (request) => ok(request, await getResult(db, await dataset(request), request.params.pipeRowId)),
  );

  api.get('/bands', { config: settlement('query'), schema: { tags, summary: 'Velocity bands (mm/yr) and their colours' } }, async (request) => ok(request, await service.getBands(db, requireEnterprise(request).id)));
  api.put('/bands', { config: withAuditState(settings, (request) => service.getBands(db, requireEnterprise(request).id)), schema: { tags, summary: 'Set the velocity bands (admins)', body: settlementBandsBody } }, async (request) =>
    ok(request, await service.saveBands(db, requireEnterprise(request).id, request.body)),
  );
  const thresholdQuery = z.object({ projectId: z.coerce.number().int().min(0).default(0) });
  api.get('/thresholds', { config: settlement('query'), schema: { tags, summary: 'Thresholds of a project (0: the enterprise\'s own)', querystring: thresholdQuery } }, async (request) =>
    ok(request, await service.getThresholds(db, requireEnterprise(request).id, request.query.projectId || null)),
  );
  api.put(
    '/thresholds',
    {
      config: withAuditState(settings, (request) => service.getThresholds(db, requireEnterprise(request).id, (request.body as { projectId?: number } | null)?.projectId || null), {
        objectId: (request) => String((request.body as { projectId?: unknown } | null)?.projectId ?? ''),
      }),
      schema: { tags, summary: 'Set a project\'s thresholds (admins); the next analysis judges by them', body: settlementThresholdsBody.extend({ projectId: z.number().int().min(0) }) } },
    async (request) => {
      const { projectId, ...values } = request.body;
      const enterpriseId = requireEnterprise(request).id;
      if (projectId) await assertProject(db, enterpriseId, projectId);
      return ok(request, await service.saveThresholds(db, enterpriseId, projectId, values));
    },
  );
};
