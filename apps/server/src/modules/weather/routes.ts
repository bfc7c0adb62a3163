import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Action, idParams, optionalNumber, optionalText } from '@console/contract';
import type { Access } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { uploadedFile } from '../../http/uploads.ts';
import * as service from './service.ts';

const tags = ['weather'];
const weather = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['weather', action] } });
const isoDateTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'field.dateTime' });

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
        summary: "Keep a file's hours for a place (Open-Meteo JSON or CSV; multipart: file, kind, and the place's code, name, project or lon/lat when the file does not say), all or nothing; the place's warnings are derived again",
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
      const result = await service.importWeather(db, requireEnterprise(request).id, { ...place, fileName: file.filename, text: await readFile(file.path, 'utf8') });
      if ('problems' in result) {
        const first = result.problems[0];
        throw new AppError(400, 'weather.rejected', { count: result.problems.length, first: [first.row !== null ? `row ${first.row}` : null, first.field, first.reason[request.language]].filter(Boolean).join(' ') }, { problems: result.problems });
      }
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
  api.get('/warnings/:id', { config: weather('get'), schema: { tags, summary: 'One warning', params: idParams } }, async (request) => ok(request, await service.getWarning(db, requireEnterprise(request).id, request.params.id)));
};
