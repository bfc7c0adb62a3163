import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PREFERENCE_KEYS, PREFERENCES } from '@console/contract';
import { ok } from '../../http/envelope.ts';
import { requireUser } from '../../http/access.ts';
import * as service from './service.ts';

const tags = ['preferences'];
const signedIn = { access: { auth: 'user' as const } };

/** The signed-in user's own console choices, kept on the server so they follow the user; one path per key, checked by its shape. */
export const preferenceRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  for (const key of PREFERENCE_KEYS) {
    api.get(`/${key}`, { config: signedIn, schema: { tags, summary: `The user's stored ${key}, or null before they choose` } }, async (request) =>
      ok(request, await service.getPreference(db, requireUser(request).id, key)),
    );
    api.put(`/${key}`, { config: signedIn, schema: { tags, summary: `Store the user's ${key}`, body: PREFERENCES[key] } }, async (request) => {
      await service.savePreference(db, requireUser(request).id, key, request.body);
      return ok(request, request.body);
    });
  }
};
