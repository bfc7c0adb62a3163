import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { sendSmsQuery } from '@console/contract';
import { users } from '../../db/schema.ts';
import { ok } from '../../http/envelope.ts';
import { badRequest, conflict, tooMany } from '../../http/errors.ts';
import type { SmsProvider } from './provider.ts';
import { sendCode } from './service.ts';
import { takeAttempt, THROTTLES } from '../../http/throttle.ts';

export const smsRoutes: FastifyPluginAsync<{ sms: SmsProvider }> = async (app, { sms }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/sendSMS',
    {
      config: { access: { auth: 'public' } },
      schema: { tags: ['auth'], summary: 'Send a 6-digit code (valid 5 minutes, one per phone per minute)', querystring: sendSmsQuery },
    },
    async (request) => {
      const { phone, purpose } = request.query;
      // Each check and its count are one step, so sends at once for one phone pass only once.
      const addressWait = await takeAttempt(app.db, THROTTLES.smsByAddress, request.ip);
      if (addressWait > 0) throw tooMany('rate.tooMany', { seconds: addressWait }, addressWait);
      const [owner] = await app.db.select({ id: users.id }).from(users).where(eq(users.phone, phone));
      if (purpose === 'register' && owner) throw conflict('conflict.phone');
      if (purpose === 'recover' && !owner) throw badRequest('sms.unknownPhone');
      const wait = await takeAttempt(app.db, THROTTLES.smsByPhone, phone);
      if (wait > 0) throw tooMany('sms.tooSoon', { seconds: wait }, wait);
      await sendCode(app.db, sms, phone, purpose);
      return ok(request, null, 'sms.sent');
    },
  );
};
