import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, pipeRiskListQuery, riskWeightsBody, sensitiveImportStartBody, type Action, type RiskWeights } from '@console/contract';
import type { Access } from '../../requestContext.ts';
import type { ImportLimits } from '../imports/jobs.ts';
import { registerImportRoutes } from '../imports/routes.ts';
import type { JobRunner } from '../imports/runner.ts';
import { listSensitiveSites, startSensitiveImport, suggestSensitiveMapping } from './sensitive.ts';
import { ok } from '../../http/envelope.ts';
import { withAuditState } from '../audit/recorder.ts';
import { requireEnterprise } from '../../http/access.ts';
import { EXPORT_FORMATS } from '../exports/features.ts';
import { getRiskWeights } from './assess.ts';
import { exportPipeRisks } from './export.ts';
import type { PipeRiskJobs } from './jobs.ts';
import * as service from './service.ts';
import { readDb } from '../../db/replicas.ts';
import { auditedPages } from '../audit/exports.ts';

const tags = ['pipe risk'];
const risk = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['risk', action] } });
/** The weights are the enterprise's setting: its admins set them. */
const settings: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'edit'] } };

/** Composite risk per pipe segment: the list worst first, one segment explained, the runs, the weights. */
export const pipeRiskRoutes: FastifyPluginAsync<{ jobs: PipeRiskJobs; limits: ImportLimits; runner: JobRunner }> = async (app, { jobs, limits, runner }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  // Sensitive sites: a layer the enterprise imports whole (each import replaces it); the network is assessed again.
  await app.register(
    async (sites) => {
      registerImportRoutes(sites, {
        kind: 'sensitiveSites',
        permission: 'risk',
        tags,
        what: 'the sensitive sites layer (schools, hospitals, stations...); an import replaces the layer',
        formats: 'GeoJSON, zipped Shapefile, KML/KMZ, CSV with lon/lat: points',
        limits,
        suggestMapping: suggestSensitiveMapping,
        startBody: sensitiveImportStartBody,
        start: (request, job, body) => startSensitiveImport(db, limits, runner, job, body, (error) => request.log.error({ err: error, jobId: job.id }, 'sensitive sites import failed')),
      });
      sites.get('/', { config: risk('query'), schema: { tags, summary: 'The sensitive sites layer (at most 5,000)' } }, async (request) => ok(request, await listSensitiveSites(db, requireEnterprise(request).id)));
    },
    { prefix: '/sensitive-sites' },
  );

  api.get('/pipes', { config: risk('query'), schema: { tags, summary: 'Assessed segments, worst first, with filters and pages', querystring: pipeRiskListQuery } }, async (request) =>
    ok(request, await service.listPipeRisks(db, requireEnterprise(request).id, request.query)),
  );
  api.get(
    '/pipes/export',
    { config: risk('export'), schema: { tags, summary: 'The (filtered) risk list as GeoJSON, CSV (WKT geometry) or XLSX', querystring: pipeRiskListQuery.omit({ page: true, pageSize: true }).extend({ format: z.enum(EXPORT_FORMATS).default('csv') }) } },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const file = exportPipeRisks(auditedPages(request, 'pipe-risk', await service.pipeRiskPages(readDb(request), requireEnterprise(request).id, filters)), format);
      return reply.type(file.type).header('content-disposition', `attachment; filename="pipe-risk.${file.extension}"`).send(file.stream);
    },
  );
  api.get('/pipes/:id', { config: risk('get'), schema: { tags, summary: "One segment's assessment with what set each factor and its changes of level", params: idParams } }, async (request) =>
    ok(request, await service.explainPipeRisk(db, requireEnterprise(request).id, request.params.id)),
  );
  api.get('/summary', { config: risk('query'), schema: { tags, summary: 'The latest assessment: segments by level and network, masked, changed' } }, async (request) =>
    ok(request, await service.latestRun(db, requireEnterprise(request).id)),
  );
  api.get('/runs', { config: risk('query'), schema: { tags, summary: 'The latest assessments, newest first' } }, async (request) => ok(request, await jobs.latest(requireEnterprise(request).id)));
  api.post('/runs', { config: settings, schema: { tags, summary: 'Assess the whole network now (admins); one assessment at a time' } }, async (request) =>
    ok(request, await jobs.runNow(requireEnterprise(request).id, 'manual'), 'pipeRisk.started'),
  );
  api.get('/weights', { config: risk('query'), schema: { tags, summary: 'The factor weights (defaults until an admin sets them)' } }, async (request) => ok(request, await getRiskWeights(db, requireEnterprise(request).id)));
  api.put('/weights', { config: withAuditState(settings, (request) => getRiskWeights(db, requireEnterprise(request).id), { afterIsAnswer: true }), schema: { tags, summary: 'Set the factor weights (admins); the network is assessed again', body: riskWeightsBody } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    await service.saveRiskWeights(db, enterpriseId, request.body as RiskWeights);
    jobs.request(enterpriseId, 'weights');
    return ok(request, request.body, 'pipeRisk.weightsSaved');
  });
};
