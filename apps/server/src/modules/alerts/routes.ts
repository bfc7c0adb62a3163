import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALERT_BATCH_MAX,
  ALERT_BATCH_STEPS,
  alertBatchBodies,
  IDEMPOTENCY_HEADER,
  idempotencyKey,
  alertListQuery,
  alertPhotoParams,
  alertSettingsBody,
  alertStepBodies,
  idParams,
  manualAlertBody,
  type Action,
  type AlertSettings,
  type AlertStep,
} from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { withAuditState, withRowAudit } from '../audit/recorder.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import { badRequest } from '../../http/errors.ts';
import { uploadedFile } from '../../http/uploads.ts';
import type { AlertEngine } from './engine.ts';
import { addIncidentPhoto, alertPhoto } from './files.ts';
import * as incidents from './incidents.ts';
import * as service from './service.ts';
import { incidents as incidentRows } from '../../db/schema.ts';

const tags = ['alerts'];
const risk = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['risk', action] } });
/** Deadlines and the leak rule are the enterprise's setting: its admins set them. */
const settings: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'edit'] } };

const STEP_SUMMARIES: Record<AlertStep, string> = {
  confirm: 'Confirm a new incident (it is real)',
  falseAlarm: 'Mark an incident a false alarm, with the reason',
  dispatch: 'Dispatch to an organisation and an assignee; the deadline follows the level unless given. Level I and II incidents are texted to the assignee, once',
  accept: 'The assignee accepts a dispatched incident: handling starts',
  handle: 'The assignee reports the incident handled (photos are added to the entry after)',
  close: 'Review a handled incident and close it',
  reject: 'Review a handled incident and send it back, with the reason',
  reopen: 'Reopen a closed incident or a false alarm, with the reason',
  supervise: 'Put an open incident under formal supervision (挂牌督办), or take it off',
  note: 'Add a note to the timeline',
};

const keyHeader = z.object({ [IDEMPOTENCY_HEADER.toLowerCase()]: idempotencyKey.optional() });
/** The request's idempotency key, checked as a field is (400 naming the header when malformed). */
function keyOf(headers: Record<string, unknown>): string | undefined {
  const parsed = keyHeader.safeParse(headers);
  if (!parsed.success) throw badRequest('alerts.idempotencyKey');
  return parsed.data[IDEMPOTENCY_HEADER.toLowerCase()];
}

/** The alert loop: alerts raised by the rules or by hand, worked to closure, and their live stream. */
export const alertRoutes: FastifyPluginAsync<{ engine: AlertEngine; dataDir: string; photoLimit: number }> = async (app, { engine, dataDir, photoLimit }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  api.get('/summary', { config: risk('query'), schema: { tags, summary: 'Incidents by state and level, overdue, supervised, on-time rate, median first response; open alerts' } }, async (request) =>
    ok(request, await incidents.incidentSummary(db, requireEnterprise(request).id)),
  );
  api.get('/incidents', { config: risk('query'), schema: { tags, summary: 'Incidents (alerts of one cause) with filters and pages, the gravest first', querystring: alertListQuery } }, async (request) =>
    ok(request, await incidents.listIncidents(db, requireEnterprise(request).id, requireUser(request).id, request.query)),
  );
  api.get('/places', { config: risk('query'), schema: { tags, summary: 'The open incidents on the map, the gravest first' } }, async (request) =>
    ok(request, await incidents.openIncidentPlaces(db, requireEnterprise(request).id)),
  );
  api.get('/incidents/:id', { config: risk('get'), schema: { tags, summary: 'One incident with its place, pipes, members and their source figures, and its timeline', params: idParams } }, async (request) =>
    ok(request, await incidents.getIncident(db, requireEnterprise(request).id, request.params.id, requireUser(request).id)),
  );
  api.get('/mine', { config: risk('query'), schema: { tags, summary: 'The incidents dispatched to the caller and not closed, soonest due first, each with its members, timeline and the pipes around it (the crew\'s phone)' } }, async (request) =>
    ok(request, await incidents.crewIncidents(db, requireEnterprise(request).id, requireUser(request).id)),
  );
  api.get('/alerts', { config: risk('query'), schema: { tags, summary: 'Every alert with filters and pages, the gravest first', querystring: alertListQuery } }, async (request) =>
    ok(request, await service.listAlerts(db, requireEnterprise(request).id, requireUser(request).id, request.query)),
  );
  api.get('/alerts/:id', { config: risk('get'), schema: { tags, summary: 'One alert with its place, affected pipes, source figures, timeline and incident', params: idParams } }, async (request) =>
    ok(request, await service.getAlert(db, requireEnterprise(request).id, request.params.id, requireUser(request).id)),
  );
  api.post('/alerts', { config: risk('add'), schema: { tags, summary: 'Raise an alert by hand at a point or over an area: answers its incident', body: manualAlertBody } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    const id = await service.raiseManualAlert(db, enterpriseId, requireUser(request).id, request.body);
    await engine.group(enterpriseId);
    const { incidentId } = await service.getAlert(db, enterpriseId, id, requireUser(request).id);
    return ok(request, await incidents.getIncident(db, enterpriseId, incidentId!, requireUser(request).id), 'alerts.raised');
  });

  for (const step of Object.keys(alertStepBodies) as AlertStep[]) {
    api.post(
      `/incidents/:id/${step}`,
      { config: withRowAudit(risk('edit'), incidentRows), schema: { tags, summary: `${STEP_SUMMARIES[step]}; recorded on every member`, params: idParams, body: alertStepBodies[step] } },
      async (request) => {
        const enterprise = requireEnterprise(request);
        const key = keyOf(request.headers);
        const result = await incidents.stepIncident(db, enterprise.id, { userId: requireUser(request).id, role: enterprise.role }, request.params.id, step, request.body as never, new Date(), key);
        // A replay did nothing: nobody is told twice.
        if (!result.replayed) await engine.afterStep(result, enterprise.id);
        return ok(request, { ...result.incident, eventId: result.eventId }, 'alerts.saved');
      },
    );
  }

  for (const step of ALERT_BATCH_STEPS) {
    api.post(
      `/steps/${step}`,
      { config: risk('edit'), schema: { tags, summary: `${STEP_SUMMARIES[step]}: many incidents of the list at once (at most ${ALERT_BATCH_MAX}), all or none`, body: alertBatchBodies[step] } },
      async (request) => {
        const enterprise = requireEnterprise(request);
        const { ids, ...input } = request.body as { ids: number[]; note: string };
        const stepped = await incidents.stepIncidents(db, enterprise.id, { userId: requireUser(request).id, role: enterprise.role }, ids, step, input);
        await engine.announce('changed', stepped);
        return ok(request, { count: stepped.length }, 'alerts.saved');
      },
    );
  }

  api.post(
    '/incidents/:id/events/:eventId/photos',
    { config: risk('edit'), schema: { tags, summary: 'Add a photo to a timeline entry of your own (at most 3)', consumes: ['multipart/form-data'], params: alertPhotoParams, body: z.object({ file: uploadedFile }) } },
    async (request) => {
      const enterprise = requireEnterprise(request);
      const key = keyOf(request.headers);
      return ok(request, await addIncidentPhoto(db, dataDir, photoLimit, enterprise.id, { userId: requireUser(request).id, role: enterprise.role }, request.params.id, request.params.eventId, request.body.file, key), 'alerts.saved');
    },
  );
  api.get('/photos/:id', { config: risk('get'), schema: { tags, summary: 'The content of a timeline photo', params: idParams } }, async (request, reply) => {
    const { photo, stream } = await alertPhoto(db, dataDir, requireEnterprise(request).id, request.params.id);
    return reply.type(photo.mimetype).header('cache-control', 'private, max-age=86400').send(stream);
  });

  api.get('/settings', { config: risk('query'), schema: { tags, summary: 'Deadlines by level and the days a found leak may stay unrepaired' } }, async (request) =>
    ok(request, await service.getAlertSettings(db, requireEnterprise(request).id)),
  );
  api.put('/settings', { config: withAuditState(settings, (request) => service.getAlertSettings(db, requireEnterprise(request).id), { afterIsAnswer: true }), schema: { tags, summary: 'Set the deadlines and the leak rule (admins)', body: alertSettingsBody } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    await service.saveAlertSettings(db, enterpriseId, request.body as AlertSettings);
    engine.soon(enterpriseId);
    return ok(request, request.body, 'alerts.saved');
  });
  api.post('/check', { config: settings, schema: { tags, summary: 'Run every alert rule now (admins); answers how many alerts were raised and how many open ones rose to a graver level, and the incidents made, changed and risen' } }, async (request) => {
    const { raised, escalated, incidents: made } = await engine.check(requireEnterprise(request).id);
    return ok(request, { raised: raised.length, escalated: escalated.length, incidents: { raised: made.raised.length, changed: made.changed.length, escalated: made.escalated.length } });
  });

  // The live stream (server-sent events, http/eventStreams.ts): only alerts of the stream's enterprise are sent.
  api.get('/live', { config: risk('query'), schema: { tags, summary: 'Server-sent events: "alert" when an incident of the current enterprise is raised, rises or changes' } }, async (request, reply) => {
    app.eventStreams.open(request, reply, ['risk', 'query'], (send, enterpriseId) => engine.feed.on((message) => message.enterpriseId === enterpriseId && send('alert', message.event)));
  });
};
