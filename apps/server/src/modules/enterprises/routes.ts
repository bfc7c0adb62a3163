import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  inviteBody,
  applyJoinBody,
  approveBody,
  enterpriseProfileBody,
  enterpriseSearchQuery,
  envelopeSchema,
  idParams,
  mapSettingsBody,
  roleBody,
  userEnterpriseSchema,
  userIdParams,
} from '@console/contract';
import { ok } from '../../http/envelope.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import * as service from './service.ts';
import { withAuditState } from '../audit/recorder.ts';

const tags = ['enterprises'];

export const enterpriseRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const memberOf = (request: FastifyRequest) => service.memberState(db, requireEnterprise(request).id, (request.params as { userId: number }).userId);

  // --- the signed-in user's own enterprises and applications (no current enterprise needed)

  api.get(
    '/getUserEnterprises',
    { schema: { tags, summary: "The caller's enterprises, verified or not", response: { 200: envelopeSchema(z.array(userEnterpriseSchema)) } } },
    async (request) => ok(request, await service.listUserEnterprises(db, requireUser(request).id)),
  );

  api.post(
    '/register',
    { schema: { tags, summary: 'Register a new enterprise (pending until a platform administrator verifies it)', body: enterpriseProfileBody } },
    async (request) => {
      const enterprise = await service.registerEnterprise(db, requireUser(request).id, request.body);
      return ok(request, { id: enterprise.id, enterpriseName: enterprise.name, status: enterprise.status }, 'enterprise.registered');
    },
  );

  api.get(
    '/search',
    { schema: { tags, summary: 'Find verified enterprises by name, to apply to join', querystring: enterpriseSearchQuery } },
    async (request) => ok(request, await service.searchVerifiedEnterprises(db, request.query.name)),
  );

  api.post(
    '/apply',
    { schema: { tags, summary: 'Apply to join a verified enterprise', body: applyJoinBody } },
    async (request) => {
      await service.applyToJoin(db, requireUser(request).id, request.body.enterpriseId, request.body.message);
      return ok(request, null, 'enterprise.applied');
    },
  );

  api.get(
    '/applications',
    { schema: { tags, summary: "The caller's join requests and registrations awaiting a decision" } },
    async (request) => ok(request, await service.listMyApplications(db, requireUser(request).id)),
  );

  // --- the current enterprise (Enterprise-Id header), by permission

  api.get(
    '/info',
    { config: { access: { auth: 'enterprise', permission: ['enterprise', 'get'] } }, schema: { tags, summary: 'Profile of the current enterprise' } },
    async (request) => ok(request, await service.getProfile(db, requireEnterprise(request).id)),
  );

  api.put(
    '/info',
    {
      config: withAuditState({ access: { auth: 'enterprise', permission: ['enterprise', 'edit'] } }, (request) => service.getProfile(db, requireEnterprise(request).id)),
      schema: { tags, summary: 'Edit the profile of the current enterprise', body: enterpriseProfileBody },
    },
    async (request) => ok(request, await service.updateProfile(db, requireEnterprise(request).id, request.body)),
  );

  api.get(
    '/mapSettings',
    { config: { access: { auth: 'enterprise', permission: ['enterprise', 'query'] } }, schema: { tags, summary: 'Map service settings' } },
    async (request) => ok(request, await service.getMapSettings(db, requireEnterprise(request).id)),
  );

  api.put(
    '/mapSettings',
    {
      // The settings replaced come from the save's own statement (no read before it).
      config: { access: { auth: 'enterprise', permission: ['enterprise', 'edit'] }, audit: { afterIsAnswer: true } },
      schema: { tags, summary: 'Save map service settings', body: mapSettingsBody },
    },
    async (request) => {
      const { saved, before } = await service.saveMapSettings(db, requireEnterprise(request).id, request.body);
      request.auditBefore = before;
      return ok(request, saved, 'mapSettings.saved');
    },
  );

  api.get(
    '/members',
    { config: { access: { auth: 'enterprise', permission: ['users', 'query'] } }, schema: { tags, summary: 'Active members and their roles' } },
    async (request) => ok(request, await service.listMembers(db, requireEnterprise(request).id, 'active')),
  );

  api.post(
    '/members',
    {
      config: { access: { auth: 'enterprise', permission: ['users', 'add'] } },
      schema: { tags, summary: 'Add a registered user by username or phone number, with a role', body: inviteBody },
    },
    async (request) => {
      const name = await service.inviteMember(db, requireEnterprise(request).id, requireUser(request).id, request.body.account, request.body.role);
      return ok(request, null, 'member.added', { name });
    },
  );

  api.put(
    '/members/:userId/role',
    {
      config: withAuditState({ access: { auth: 'enterprise', permission: ['users', 'edit'] } }, memberOf),
      schema: { tags, summary: "Change a member's role (never the last admin's)", params: userIdParams, body: roleBody },
    },
    async (request) => {
      await service.changeMemberRole(db, requireEnterprise(request).id, request.params.userId, request.body.role);
      return ok(request, null);
    },
  );

  api.delete(
    '/members/:userId',
    {
      config: withAuditState({ access: { auth: 'enterprise', permission: ['users', 'delete'] } }, memberOf),
      schema: { tags, summary: 'Remove a member (never the last admin)', params: userIdParams },
    },
    async (request) => {
      await service.removeMember(db, requireEnterprise(request).id, request.params.userId);
      return ok(request, null);
    },
  );

  api.get(
    '/joinRequests',
    { config: { access: { auth: 'enterprise', permission: ['users', 'query'] } }, schema: { tags, summary: 'Pending join requests' } },
    async (request) => ok(request, await service.listMembers(db, requireEnterprise(request).id, 'pending')),
  );

  api.post(
    '/joinRequests/:id/approve',
    {
      config: { access: { auth: 'enterprise', permission: ['users', 'edit'] } },
      schema: { tags, summary: 'Approve a join request with a role (member by default)', params: idParams, body: approveBody },
    },
    async (request) => {
      const role = request.body.role;
      await service.decideJoinRequest(db, requireEnterprise(request).id, request.params.id, requireUser(request).id, { approve: true, role });
      return ok(request, null);
    },
  );

  api.post(
    '/joinRequests/:id/reject',
    {
      config: { access: { auth: 'enterprise', permission: ['users', 'edit'] } },
      schema: { tags, summary: 'Reject a join request', params: idParams },
    },
    async (request) => {
      await service.decideJoinRequest(db, requireEnterprise(request).id, request.params.id, requireUser(request).id, { approve: false });
      return ok(request, null);
    },
  );
};
