import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type Action,
  type CriticalitySettings,
  briefBody,
  closeBody,
  criticalitySettingsBody,
  guardBody,
  idParams,
  judgeBody,
  pipeSetQuery,
  reopenBody,
  siteBody,
  siteImportStartBody,
  siteListQuery,
  sitePhotoParams,
  watchBody,
} from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { withAuditState, withRowAudit } from '../audit/recorder.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import { removeKeptFiles } from '../../http/keptFiles.ts';
import { uploadedFile } from '../../http/uploads.ts';
import { EXPORT_FORMATS } from '../exports/features.ts';
import type { ImportLimits } from '../imports/jobs.ts';
import { registerImportRoutes } from '../imports/routes.ts';
import type { JobRunner } from '../imports/runner.ts';
import { exportSites } from './export.ts';
import * as files from './files.ts';
import { startSiteImport, suggestSiteMapping } from './import.ts';
import { remeasureSites } from './measure.ts';
import * as service from './service.ts';
import { getCriticalitySettings, saveCriticalitySettings } from './settings.ts';
import { constructionSites } from '../../db/schema.ts';
import { readDb } from '../../db/replicas.ts';
import { auditedPages } from '../audit/exports.ts';

const tags = ['construction'];
const risk = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['risk', action] } });
const work = risk('edit');
/** The criticality matrix is the enterprise's setting: its admins set it. */
const settings: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'edit'] } };

/** Construction risk: sites near the pipes, measured against them, and each site's case to its end. */
export const constructionRoutes: FastifyPluginAsync<{ limits: ImportLimits; runner: JobRunner; photoLimit: number }> = async (app, { limits, runner, photoLimit }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  registerImportRoutes(app, {
    kind: 'sites',
    permission: 'risk',
    tags,
    what: 'construction sites (satellite change detection or a patrol list)',
    formats: 'GeoJSON, zipped Shapefile, KML/KMZ, CSV with lon/lat or WKT',
    limits,
    suggestMapping: suggestSiteMapping,
    startBody: siteImportStartBody,
    start: (request, job, body) =>
      startSiteImport(db, limits, runner, job, requireUser(request).id, body, (error) => request.log.error({ err: error, jobId: job.id }, 'site import failed')),
  });

  api.get('/settings', { config: risk('query'), schema: { tags, summary: 'The corridor and the distance x build type criticality matrix' } }, async (request) =>
    ok(request, await getCriticalitySettings(db, requireEnterprise(request).id)),
  );
  api.put('/settings', { config: withAuditState(settings, (request) => getCriticalitySettings(db, requireEnterprise(request).id)), schema: { tags, summary: 'Set the corridor and criticality matrix (admins); every site is measured again', body: criticalitySettingsBody } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    await saveCriticalitySettings(db, enterpriseId, request.body as CriticalitySettings);
    await remeasureSites(db, enterpriseId);
    return ok(request, request.body, 'poi.done');
  });

  api.get(
    '/summary',
    { config: risk('query'), schema: { tags, summary: 'Open threats, sites inside gas protection ranges, by criticality and by status', querystring: z.object({ projectId: z.coerce.number().int().positive().optional() }) } },
    async (request) => ok(request, await service.siteSummary(db, requireEnterprise(request).id, request.query.projectId)),
  );
  api.get('/sites', { config: risk('query'), schema: { tags, summary: 'Sites with filters and pages, most critical first', querystring: siteListQuery } }, async (request) =>
    ok(request, await service.listSites(db, requireEnterprise(request).id, request.query)),
  );
  api.get(
    '/sites/export',
    {
      config: risk('export'),
      schema: { tags, summary: 'The (filtered) sites with their measurement as GeoJSON, CSV (WKT geometry) or XLSX', querystring: siteListQuery.omit({ page: true, pageSize: true }).extend({ format: z.enum(EXPORT_FORMATS).default('geojson') }) },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const file = exportSites(auditedPages(request, 'construction/sites', service.sitePages(readDb(request), requireEnterprise(request).id, filters)), format);
      return reply.type(file.type).header('content-disposition', `attachment; filename="construction-sites.${file.extension}"`).send(file.stream);
    },
  );
  api.get(
    '/sites/:id/pipes',
    { config: risk('get'), schema: { tags, summary: "A page of the pipes inside the site's corridor, nearest first (all of them, page by page)", params: idParams, querystring: pipeSetQuery } },
    async (request) => ok(request, await service.sitePipePage(db, requireEnterprise(request).id, request.params.id, request.query)),
  );
  api.get('/sites/:id', { config: risk('get'), schema: { tags, summary: 'One site with its measurement, history, watch log and files', params: idParams } }, async (request) =>
    ok(request, await service.getSite(db, requireEnterprise(request).id, request.params.id)),
  );
  api.post('/sites', { config: risk('add'), schema: { tags, summary: 'Record a site (an area, or a point with a radius); it is measured against the pipes', body: siteBody } }, async (request) =>
    ok(request, await service.createSite(db, requireEnterprise(request).id, requireUser(request).id, request.body), 'poi.done'),
  );
  api.put('/sites/:id', { config: withRowAudit(work, constructionSites), schema: { tags, summary: "Save a site's form; it is measured again", params: idParams, body: siteBody } }, async (request) =>
    ok(request, await service.updateSite(db, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body), 'poi.done'),
  );
  api.delete('/sites/:id', { config: withRowAudit(risk('delete'), constructionSites), schema: { tags, summary: 'Delete a site with its history, watch log and files (admins)', params: idParams } }, async (request) => {
    const paths = await service.deleteSite(db, requireEnterprise(request).id, request.params.id);
    await removeKeptFiles(limits.dataDir, paths);
    return ok(request, null);
  });

  const caseStep = <B extends z.ZodTypeAny>(path: string, summary: string, body: B, run: (enterpriseId: number, userId: number, id: number, input: z.infer<B>) => Promise<unknown>) =>
    api.post(path, { config: withRowAudit(work, constructionSites), schema: { tags, summary, params: idParams, body } }, async (request) =>
      ok(request, await run(requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body as z.infer<B>), 'poi.done'),
    );
  caseStep('/sites/:id/judge', 'Judge a site: a threat to the pipes or none', judgeBody, (e, u, id, input) => service.judgeSite(db, e, u, id, input));
  caseStep('/sites/:id/brief', 'Record the safety briefing given to the builders (who, when)', briefBody, (e, u, id, input) => service.briefSite(db, e, u, id, input));
  caseStep('/sites/:id/guard', 'Put a briefed site under on-site guard', guardBody, (e, u, id, input) => service.guardSite(db, e, u, id, input));
  caseStep('/sites/:id/watch', 'Add a watch log entry (time, person, remark); photos are added to it after', watchBody, (e, u, id, input) => service.addWatchLog(db, e, u, id, input));
  caseStep('/sites/:id/close', 'Close a site\'s case', closeBody, (e, u, id, input) => service.closeSite(db, e, u, id, input));
  caseStep('/sites/:id/reopen', 'Reopen a closed case, with the reason', reopenBody, (e, u, id, input) => service.reopenSite(db, e, u, id, input.reason));

  api.post(
    '/sites/:id/files',
    {
      config: work,
      schema: {
        tags,
        summary: 'Add a file to a site (multipart: "kind" plan, agreement or photo, and "file": PDF or image, up to PHOTO_LIMIT_MB)',
        consumes: ['multipart/form-data'],
        params: idParams,
        body: z.object({ kind: z.enum(['plan', 'agreement', 'photo']), file: uploadedFile }),
      },
    },
    async (request) =>
      ok(request, await files.addSiteFile(db, limits.dataDir, photoLimit, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.body.kind, request.body.file), 'poi.done'),
  );
  api.post(
    '/sites/:id/watch/:logId/photos',
    { config: work, schema: { tags, summary: 'Add a photo to a watch log entry (at most 3)', consumes: ['multipart/form-data'], params: sitePhotoParams, body: z.object({ file: uploadedFile }) } },
    async (request) =>
      ok(request, await files.addWatchPhoto(db, limits.dataDir, photoLimit, requireEnterprise(request).id, requireUser(request).id, request.params.id, request.params.logId, request.body.file), 'poi.done'),
  );
  api.get('/files/:id', { config: risk('get'), schema: { tags, summary: 'The content of a site file', params: idParams } }, async (request, reply) => {
    const { file, stream } = await files.siteFile(db, limits.dataDir, requireEnterprise(request).id, request.params.id);
    return reply.type(file.mimetype).header('cache-control', 'private, max-age=86400').send(stream);
  });
  api.delete('/files/:id', { config: risk('delete'), schema: { tags, summary: 'Delete a site file (admins)', params: idParams } }, async (request) => {
    await files.deleteSiteFile(db, limits.dataDir, requireEnterprise(request).id, request.params.id);
    return ok(request, null);
  });
};
