import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importJobParams, type PermissionId } from '@console/contract';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import { uploadedFile } from '../../http/uploads.ts';
import { badRequest } from '../../http/errors.ts';
import { analyseUpload, getImportJob, jobCrs, importJobView, listImportJobs, type FieldRules, type ImportJob, type ImportKind, type ImportLimits } from './jobs.ts';

export interface ImportRoutes<Body extends z.ZodTypeAny> {
  kind: ImportKind;
  /** Upload and start need [permission, 'import']; reading needs [permission, 'query']. */
  permission: PermissionId;
  tags: string[];
  /** What is imported, for the API documentation ("a pipe network file"). */
  what: string;
  formats: string;
  limits: ImportLimits;
  suggestMapping: (fieldNames: string[]) => Partial<Record<string, string>>;
  /** What analysis asks of the file's fields for this kind (settlement: its date columns). */
  fields?: FieldRules;
  startBody: Body;
  /** Checks the mapping step's answer and starts the job in the background. */
  start: (request: FastifyRequest, job: ImportJob, body: z.infer<Body>) => Promise<void>;
}

/**
 * The four routes every import kind has, under /imports: upload (analysed for the mapping step),
 * recent jobs, one job (progress and report), and start.
 */
export function registerImportRoutes<Body extends z.ZodTypeAny>(app: FastifyInstance, options: ImportRoutes<Body>) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { kind, tags, what } = options;
  const work = { access: { auth: 'enterprise' as const, permission: [options.permission, 'import'] as [PermissionId, 'import'] } };
  const read = { access: { auth: 'enterprise' as const, permission: [options.permission, 'query'] as [PermissionId, 'query'] } };
  const view = (request: FastifyRequest, job: ImportJob) => importJobView(job, request.language, options.suggestMapping(job.fields.map((f) => f.name)));

  api.post(
    '/imports',
    {
      config: work,
      schema: { tags, summary: `Upload ${what} (${options.formats}) as multipart field "file": it is analysed for the mapping step`, consumes: ['multipart/form-data'], body: z.object({ file: uploadedFile }) },
    },
    async (request) => {
      const job = await analyseUpload(app.db, options.limits, { enterpriseId: requireEnterprise(request).id, userId: requireUser(request).id, kind, upload: request.body.file }, options.fields);
      return ok(request, view(request, job));
    },
  );
  api.get('/imports', { config: read, schema: { tags, summary: `Recent imports of ${what}` } }, async (request) =>
    ok(request, (await listImportJobs(app.db, requireEnterprise(request).id, kind)).map((job) => view(request, job))),
  );
  api.get('/imports/:id', { config: read, schema: { tags, summary: `One import of ${what}: fields, progress, report`, params: importJobParams } }, async (request) =>
    ok(request, view(request, await getImportJob(app.db, requireEnterprise(request).id, request.params.id, kind))),
  );
  api.post(
    '/imports/:id/start',
    { config: work, schema: { tags, summary: `Start an analysed import of ${what} with the field mapping: everything is written, or nothing`, params: importJobParams, body: options.startBody } },
    async (request) => {
      const enterpriseId = requireEnterprise(request).id;
      const job = await getImportJob(app.db, enterpriseId, request.params.id, kind);
      // Asked before the job starts, so the user picks one and starts the same upload again.
      if (!jobCrs(job, (request.body as { srid?: number }).srid)) throw badRequest('import.crsRequired');
      await options.start(request, job, request.body as z.infer<Body>);
      return ok(request, view(request, await getImportJob(app.db, enterpriseId, job.id, kind)), 'import.started');
    },
  );
}
