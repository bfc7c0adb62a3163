import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Action, idParams, optionalNumber, optionalText } from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { withAuditState } from '../audit/recorder.ts';
import { requireEnterprise } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { uploadedFile } from '../../http/uploads.ts';
import * as service from './service.ts';
import { importCap } from './official.ts';
import { fetchNow, getSource, instanceName, saveSource } from './provider.ts';
import type { ImportProblemRecord } from '../../db/schema.ts';
import type { Language } from '@console/contract';

const tags = ['weather'];
const weather = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['weather', action] } });
const isoDateTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'field.dateTime' });
/** The source is the enterprise's setting: its admins set it. */
const sourceAccess: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'edit'] } };
const sourceBody = z
  .object({
    provider: z.enum(['files', 'openMeteo']),
    url: z.string().trim().max(500).url({ message: 'weather.urlRequired' }).refine((v) => /^https?:\/\//i.test(v), { message: 'weather.urlRequired' }).nullish(),
    everyMinutes: z.number().int().min(15).max(1440).default(60),
  })
  .refine((v) => v.provider === 'files' || Boolean(v.url), { message: 'weather.urlRequired', path: ['url'] });

/** A refused file: its first problem in the caller's language, the first SHOWN_PROBLEMS in the result with the count of all. */
function rejected(problems: ImportProblemRecord[], problemCount: number, language: Language) {
  const first = problems[0];
  // A reason that names its field already ("file: cannot be read ...") is not prefixed again.
  const reason = first.reason[language];
  return new AppError(400, 'weather.rejected', { count: problemCount, first: [first.row !== null ? `row ${first.row}` : null, first.featureId, first.field && !reason.startsWith(first.field) ? `${first.field}:` : null, reason].filter(Boolean).join(' ') }, { problems, problemCount, more: problemCount - problems.length });
}

/** Weather: hours kept per place from files, and the warnings derived from them with what they touch. */
export const weatherRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  api.post(
    '/uploads',
    {
      config: weather('import'),
      schema: {
        tags,
        summary:
          "Keep a file, all or nothing: hours (Open-Meteo JSON or CSV, NOAA ISD CSV, station CSV; multipart: file, kind, and for a one-place file its code, name, project or lon/lat when the file does not say), the places' warnings derived again; or official warnings (CAP 1.2 XML; project or lon/lat for warnings without a polygon or circle)",
        consumes: ['multipart/form-data'],
        body: z.object({
          file: uploadedFile,
          kind: z.enum(['observed', 'forecast']).default('observed'),
          code: optionalText(60),
          name: optionalText(100),
          projectId: optionalNumber(z.number().int().positive()),
          lon: optionalNumber(z.number().min(-180).max(180)),
          lat: optionalNumber(z.number().min(-90).max(90)),
        }),
      },
    },
    async (request) => {
      const { file, ...place } = request.body;
      const enterpriseId = requireEnterprise(request).id;
      const isCap = /\.xml$/i.test(file.filename);
      // A CAP feed is read whole (so are Open-Meteo's answers, see the service); station and NOAA files are streamed.
      if (isCap && file.size > service.WHOLE_FILE_MAX) throw new AppError(413, 'weather.tooLarge', { mb: service.WHOLE_FILE_MAX / 1024 / 1024 });
      const result = isCap
        ? await importCap(db, enterpriseId, { ...place, text: await readFile(file.path, 'utf8') })
        : await service.importWeather(db, enterpriseId, { ...place, fileName: file.filename, path: file.path });
      if ('problems' in result) throw rejected(result.problems, (result as { problemCount?: number }).problemCount ?? result.problems.length, request.language);
      return ok(request, result, 'weather.imported');
    },
  );
  api.get('/places', { config: weather('query'), schema: { tags, summary: 'The places whose weather is kept' } }, async (request) => ok(request, await service.listPlaces(db, requireEnterprise(request).id)));
  api.get(
    '/places/:id/hours',
    { config: weather('query'), schema: { tags, summary: "A place's hours in a period (at most 31 days)", params: idParams, querystring: z.object({ kind: z.enum(['observed', 'forecast']).default('observed'), from: isoDateTime, to: isoDateTime }) } },
    async (request) => ok(request, await service.placeHours(db, requireEnterprise(request).id, request.params.id, request.query)),
  );
  api.get(
    '/warnings',
    { config: weather('query'), schema: { tags, summary: 'Warnings overlapping a period, newest first, with what each touches', querystring: z.object({ from: isoDateTime.optional(), to: isoDateTime.optional() }) } },
    async (request) => ok(request, await service.listWarnings(db, requireEnterprise(request).id, request.query)),
  );
  api.get('/source', { config: weather('query'), schema: { tags, summary: "Where the enterprise's weather comes from: files, or an Open-Meteo-compatible service fetched on a schedule" } }, async (request) =>
    ok(request, await getSource(db, requireEnterprise(request).id)),
  );
  api.put('/source', { config: withAuditState(sourceAccess, (request) => getSource(db, requireEnterprise(request).id)), schema: { tags, summary: "Set the enterprise's weather source (admins)", body: sourceBody } }, async (request) =>
    ok(request, await saveSource(db, requireEnterprise(request).id, request.body), 'weather.sourceSaved'),
  );
  api.post('/source/fetch', { config: sourceAccess, schema: { tags, summary: "Fetch every project area's weather from the service now (one fetch at a time)" } }, async (request) => {
    const outcome = await fetchNow(db, requireEnterprise(request).id, instanceName());
    if (outcome.error) throw new AppError(502, 'weather.fetchFailed', { error: outcome.error });
    return ok(request, outcome, 'weather.fetched');
  });
  api.get('/warnings/:id', { config: weather('get'), schema: { tags, summary: 'One warning', params: idParams } }, async (request) => ok(request, await service.getWarning(db, requireEnterprise(request).id, request.params.id)));
};
