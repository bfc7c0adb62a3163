import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams, reportBody, reportFileQuery, type Action } from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise } from '../../http/access.ts';
import { recordExport } from '../audit/exports.ts';
import type { ChannelOutbox } from '../channels/outbox.ts';
import * as service from './service.ts';

const tags = ['reports'];
const risk = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['risk', action] } });

/** The monthly risk reports: made on demand or on the first of the month, listed, read as a page or a PDF. */
export const reportRoutes: FastifyPluginAsync<{ outbox: ChannelOutbox; fontPath: string }> = async (app, { outbox, fontPath }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  api.get('/', { config: risk('query'), schema: { tags, summary: "The enterprise's reports, latest month first" } }, async (request) => ok(request, await service.listReports(db, requireEnterprise(request).id)));
  api.post('/', { config: risk('add'), schema: { tags, summary: 'Make a report of a month (the current month: what is known to date); it is kept and sent to the channels that take reports', body: reportBody } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    const report = (await service.makeReport(db, enterpriseId, request.body.month, 'demand', request.user!.id))!;
    await outbox.announceReport(enterpriseId, report.id, report.figures);
    return ok(request, { id: report.id }, 'report.made');
  });
  api.get('/:id', { config: risk('get'), schema: { tags, summary: 'One report as the page draws it, in the reader’s language (or lang)', params: idParams, querystring: reportFileQuery } }, async (request) =>
    ok(request, await service.reportPage(db, requireEnterprise(request).id, request.params.id, request.query.lang ?? request.language)),
  );
  api.get('/:id/pdf', { config: risk('export'), schema: { tags, summary: 'One report as an A4 PDF in the reader’s language (or lang), Chinese text in the embedded CJK font', params: idParams, querystring: reportFileQuery } }, async (request, reply) => {
    const { pdf, fileName } = await service.reportFile(db, requireEnterprise(request).id, request.params.id, request.query.lang ?? request.language, fontPath);
    recordExport(request, 'risk-report', 1, true);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="risk-report-${request.params.id}.pdf"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .send(pdf);
  });
};
