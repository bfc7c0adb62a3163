import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, isoDateTime, sensorBody, sensorCode, sensorImportStartBody, sensorListQuery, sensorSeriesQuery, type Action, type SensorCredentials } from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise } from '../../http/access.ts';
import { badRequest } from '../../http/errors.ts';
import * as service from './service.ts';
import { sensorReadingsCsv, CSV_MAX_DAYS } from './export.ts';
import type { ImportLimits } from '../imports/jobs.ts';
import { registerImportRoutes } from '../imports/routes.ts';
import type { JobRunner } from '../imports/runner.ts';
import { startSensorImport, suggestSensorMapping } from './import.ts';

const tags = ['sensors'];
const sensor = (action: Action): { access: Access } => ({ access: { auth: 'enterprise', permission: ['sensor', action] } });
/** A live chart asks the database for new readings this often (readings come in on any server of the console). */
const LIVE_POLL_MS = 2_000;

/** Sensors: devices, their readings and states, credentials to publish with, and what was refused. */
export const sensorRoutes: FastifyPluginAsync<{ limits: ImportLimits; runner: JobRunner }> = async (app, { limits, runner }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  registerImportRoutes(app, {
    kind: 'sensors',
    permission: 'sensor',
    tags,
    what: 'a device register',
    formats: 'CSV or XLSX with lon/lat or WKT, GeoJSON, zipped Shapefile, KML/KMZ',
    limits,
    suggestMapping: suggestSensorMapping,
    startBody: sensorImportStartBody,
    start: (request, job, body) => {
      const enterpriseId = requireEnterprise(request).id;
      // The ingest looks the imported codes up afresh (new thresholds and kinds count from the next reading).
      const written = async (codes: string[]) => {
        for (const code of codes) await app.sensors.deviceChanged(enterpriseId, code);
      };
      return startSensorImport(db, limits, runner, job, body, written, (error) => request.log.error({ err: error, jobId: job.id }, 'sensor import failed'));
    },
  });

  api.get('/', { config: sensor('query'), schema: { tags, summary: 'A page of the devices, worst state first, each with its last value and state', querystring: sensorListQuery } }, async (request) =>
    ok(request, await service.listSensors(db, requireEnterprise(request).id, request.query)),
  );
  api.get('/places', { config: sensor('query'), schema: { tags, summary: 'Every device with its place and state (the map)' } }, async (request) => ok(request, await service.sensorPlaces(db, requireEnterprise(request).id)));
  api.get('/summary', { config: sensor('query'), schema: { tags, summary: 'How many devices, by state' } }, async (request) => ok(request, await service.sensorSummary(db, requireEnterprise(request).id)));
  api.get('/broker', { config: sensor('query'), schema: { tags, summary: 'Where devices publish, and whether this server is subscribed' } }, async (request) =>
    ok(request, { address: app.sensors.brokerAddress, embedded: Boolean(app.sensors.broker), connected: Boolean(app.sensors.ingest?.connected) }),
  );
  api.get('/refusals', { config: sensor('query'), schema: { tags, summary: 'What was kept out of the series, per device code (known or not) and reason, with the last sample', querystring: z.object({ code: sensorCode.optional() }) } }, async (request) =>
    ok(request, await service.listRefusals(db, requireEnterprise(request).id, request.query.code)),
  );
  api.post('/', { config: sensor('add'), schema: { tags, summary: 'Add a device; its pipe is the nearest of its kind\'s networks unless named', body: sensorBody } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    const device = await service.createSensor(db, enterpriseId, request.body);
    await app.sensors.deviceChanged(enterpriseId, device.code);
    return ok(request, device, 'sensor.saved');
  });
  api.get('/:id', { config: sensor('get'), schema: { tags, summary: 'One device', params: idParams } }, async (request) => ok(request, await service.getSensor(db, requireEnterprise(request).id, request.params.id)));
  api.put('/:id', { config: sensor('edit'), schema: { tags, summary: 'Change a device (a new code is a new topic)', params: idParams, body: sensorBody } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    const { device, codeBefore } = await service.updateSensor(db, enterpriseId, request.params.id, request.body);
    await app.sensors.deviceChanged(enterpriseId, codeBefore, codeBefore !== device.code);
    await app.sensors.deviceChanged(enterpriseId, device.code);
    return ok(request, device, 'sensor.saved');
  });
  api.delete('/:id', { config: sensor('delete'), schema: { tags, summary: 'Remove a device with its readings', params: idParams } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    const device = await service.deleteSensor(db, enterpriseId, request.params.id);
    await app.sensors.deviceChanged(enterpriseId, device.code, true);
    return ok(request, null, 'sensor.deleted');
  });
  api.post('/:id/credentials', { config: sensor('edit'), schema: { tags, summary: 'Make the device new credentials (the old ones stop at once); the password is shown only in this answer', params: idParams } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    const made = await service.makeCredentials(db, enterpriseId, request.params.id);
    await app.sensors.deviceChanged(enterpriseId, made.device.code, true);
    const credentials: SensorCredentials = { host: app.sensors.brokerAddress ?? '', topic: made.topic, username: made.username, password: made.password };
    return ok(request, credentials, 'sensor.credentialsMade');
  });
  api.post('/:id/credentials/revoke', { config: sensor('edit'), schema: { tags, summary: 'Revoke the device\'s credentials: it is disconnected and what it still sends is refused', params: idParams } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    const device = await service.revokeCredentials(db, enterpriseId, request.params.id);
    await app.sensors.deviceChanged(enterpriseId, device.code, true);
    return ok(request, null, 'sensor.credentialsRevoked');
  });
  api.get('/:id/series', { config: sensor('query'), schema: { tags, summary: 'A period of readings as buckets of min / max / mean made by the database (1h, 24h, 7d, 30d)', params: idParams, querystring: sensorSeriesQuery } }, async (request) =>
    ok(request, await service.sensorSeries(db, requireEnterprise(request).id, request.params.id, request.query.period, request.query.buckets)),
  );
  api.get(
    '/:id/readings.csv',
    { config: sensor('export'), schema: { tags, summary: `A device's readings over a period (at most ${CSV_MAX_DAYS} days) as CSV, streamed`, params: idParams, querystring: z.object({ from: isoDateTime, to: isoDateTime }) } },
    async (request, reply) => {
      const enterpriseId = requireEnterprise(request).id;
      const from = new Date(request.query.from);
      const to = new Date(request.query.to);
      if (to <= from) throw badRequest('sensor.periodOrder');
      if (to.getTime() - from.getTime() > CSV_MAX_DAYS * 86_400_000) throw badRequest('sensor.periodTooLong', { days: CSV_MAX_DAYS });
      const device = await service.getSensor(db, enterpriseId, request.params.id);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${device.code}-readings.csv"`);
      return reply.send(sensorReadingsCsv(db, device, from, to));
    },
  );
  // The live chart: readings of the device as they are stored (asked of the database, so those stored by another server come too).
  api.get('/:id/live', { config: sensor('query'), schema: { tags, summary: 'Server-sent events: "reading" for each reading of the device as it is stored', params: idParams } }, async (request, reply) => {
    const device = await service.getSensor(db, requireEnterprise(request).id, request.params.id);
    app.eventStreams.open(request, reply, ['sensor', 'query'], (send) => {
      let after = device.lastAt ? new Date(device.lastAt) : new Date();
      let busy = false;
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        service
          .readingsAfter(db, device.id, after)
          .then((readings) => {
            for (const r of readings) send('reading', r);
            if (readings.length) after = new Date(readings[readings.length - 1].at);
          })
          .catch(() => {})
          .finally(() => (busy = false));
      }, LIVE_POLL_MS);
      return () => clearInterval(timer);
    });
  });
};
