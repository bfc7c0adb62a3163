import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { channelBody, channelUpdateBody, idParams } from '@console/contract';
import type { Access } from '../../requestContext.ts';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise } from '../../http/access.ts';
import type { ChannelOutbox } from './outbox.ts';
import * as service from './service.ts';
import { withRowAudit } from '../audit/recorder.ts';
import { notifyChannels } from '../../db/schema.ts';

const tags = ['alerts'];
/** The channels are the enterprise's setting: its admins set them; its people may see where incidents go (never the credentials). */
const admins: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'edit'] } };
const readers: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'get'] } };
const removers: { access: Access } = { access: { auth: 'enterprise', permission: ['enterprise', 'delete'] } };

/** Group robots and e-mail that announce incidents, and the record of every message sent. */
export const channelRoutes: FastifyPluginAsync<{ outbox: ChannelOutbox; limits: service.ChannelLimits }> = async (app, { outbox, limits }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  api.get('/channels', { config: readers, schema: { tags, summary: 'The notification channels (DingTalk, WeCom, e-mail) with the levels each announces and its latest send' } }, async (request) =>
    ok(request, await service.listChannels(db, requireEnterprise(request).id)),
  );
  api.post('/channels', { config: admins, schema: { tags, summary: 'Add a channel (a robot on the hosts this server sends to, or e-mail when SMTP is set up)', body: channelBody } }, async (request) => {
    const id = await service.createChannel(db, requireEnterprise(request).id, request.body, limits);
    return ok(request, { id }, 'channels.saved');
  });
  api.put('/channels/:id', { config: withRowAudit(admins, notifyChannels), schema: { tags, summary: 'Change a channel (an empty webhook or secret keeps the one it has)', params: idParams, body: channelUpdateBody } }, async (request) => {
    await service.updateChannel(db, requireEnterprise(request).id, request.params.id, request.body, limits);
    return ok(request, { id: request.params.id }, 'channels.saved');
  });
  api.delete('/channels/:id', { config: withRowAudit(removers, notifyChannels), schema: { tags, summary: 'Remove a channel and its record of sends', params: idParams } }, async (request) => {
    await service.deleteChannel(db, requireEnterprise(request).id, request.params.id);
    return ok(request, null, 'channels.deleted');
  });
  api.post('/channels/:id/test', { config: admins, schema: { tags, summary: 'Send a test message now; answers the send with its outcome (retried later if it failed)', params: idParams } }, async (request) => {
    const enterpriseId = requireEnterprise(request).id;
    await service.assertChannel(db, enterpriseId, request.params.id);
    const id = await outbox.test(enterpriseId, request.params.id, request.language);
    return ok(request, (await service.listSends(db, enterpriseId, { id }))[0]);
  });
  api.get('/sends', { config: readers, schema: { tags, summary: 'The latest 50 messages sent to the channels, with their outcome and tries' } }, async (request) =>
    ok(request, await service.listSends(db, requireEnterprise(request).id)),
  );
};
