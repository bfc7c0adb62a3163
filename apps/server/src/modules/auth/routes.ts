import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import {
  changePasswordBody,
  checkLoginBody,
  encryptionKeySchema,
  envelopeSchema,
  forgePasswordBody,
  HEADERS,
  loginResultSchema,
  NO_ENTERPRISE_PERMISSIONS,
  registerBody,
  ROLE_PERMISSIONS,
  userPermissionSchema,
  type UserPermission,
} from '@console/contract';
import { users } from '../../db/schema.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { ok, refuse, SerializedJson } from '../../http/envelope.ts';
import { badRequest, conflict, tooMany } from '../../http/errors.ts';
import { requireUser } from '../../http/access.ts';
import { takeAttempt, THROTTLES } from '../../http/throttle.ts';
import { consumeCode } from '../sms/service.ts';
import { decryptLoginPassword, DUMMY_PASSWORD_HASH, hashPassword, sha256, verifyPassword } from './crypto.ts';
import {
  clearSignInAttempts,
  consumeLoginKey,
  createLoginKey,
  findUserByUsername,
  issueToken,
  LOGIN_KEY_TTL_MS,
  revokeAllTokens,
  revokeToken,
  takeSignInAttempt,
} from './service.ts';

/** The cookie that binds a one-time login key to the browser that asked for it. */
const LOGIN_KEY_COOKIE = 'login_key';
const tags = ['auth'];
/** The start of getUserPermission's answer (the role's permission list, twice), as UTF-8 once per role. */
const permissionsHead = (permissions: unknown) => Buffer.from(`{"role":{"permissions":${JSON.stringify(permissions)}},"permissions":${JSON.stringify(permissions)},`);
const PERMISSIONS_HEAD = Object.fromEntries(Object.entries(ROLE_PERMISSIONS).map(([role, permissions]) => [role, permissionsHead(permissions)])) as Record<keyof typeof ROLE_PERMISSIONS, Buffer>;
const NO_ENTERPRISE_PERMISSIONS_HEAD = permissionsHead(NO_ENTERPRISE_PERMISSIONS);
const publicRoute = { access: { auth: 'public' } } as const;

export const authRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  api.get(
    '/getEncryptedString',
    { config: publicRoute, schema: { tags, summary: 'One-time AES key and iv for sign-in', response: { 200: envelopeSchema(encryptionKeySchema) } } },
    async (request, reply) => {
      // Each key is a row: an address may not fill the table.
      const wait = await takeAttempt(db, THROTTLES.signInKeyByAddress, request.ip);
      if (wait > 0) throw tooMany('rate.tooMany', { seconds: wait }, wait);
      const { id, key, iv } = await createLoginKey(db);
      reply.setCookie(LOGIN_KEY_COOKIE, id, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/api',
        maxAge: LOGIN_KEY_TTL_MS / 1000,
      });
      return ok(request, { key, iv });
    },
  );

  api.post(
    '/checkLogin',
    {
      config: { ...publicRoute, audit: { signIn: true } },
      schema: { tags, summary: 'Sign in with the AES-encrypted password', body: checkLoginBody, response: { 200: envelopeSchema(loginResultSchema.nullable()) } },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const address = request.ip;
      // The attempt counts as a failure until it succeeds: the check and the count are one step.
      const wait = await takeSignInAttempt(db, username, address);
      if (wait > 0) throw tooMany('login.locked', { minutes: Math.ceil(wait / 60) }, wait);

      const keyId = request.cookies[LOGIN_KEY_COOKIE];
      reply.clearCookie(LOGIN_KEY_COOKIE, { path: '/api' });
      const loginKey = keyId ? await consumeLoginKey(db, keyId) : null;
      const plain = loginKey ? decryptLoginPassword(password, loginKey.key, loginKey.iv) : null;
      const user = await findUserByUsername(db, username);
      // Verify even when something already failed, so every failure takes the same time.
      const matches = await verifyPassword(plain ?? '', user?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!user || plain === null || !matches) return refuse(request, reply, 'login.failed');
      await clearSignInAttempts(db, username, address);
      const token = await issueToken(db, user.id);
      reply.header(HEADERS.token, token);
      return ok(request, {
        token,
        userInfo: { username: user.username, realname: user.realname, avatar: user.avatar },
      });
    },
  );

  api.get(
    '/getUserPermission',
    { schema: { tags, summary: 'Role and permissions in the current enterprise', response: { 200: envelopeSchema(userPermissionSchema) } } },
    async (request) => {
      const user = requireUser(request);
      const enterprise = await app.access.currentEnterprise(user.id, request.headers[HEADERS.enterprise.toLowerCase()]);
      // Every page load asks this: the role's permission list (the bulk of the answer) is
      // serialized and encoded once per role at start, the rest per request.
      const head = enterprise ? PERMISSIONS_HEAD[enterprise.role] : NO_ENTERPRISE_PERMISSIONS_HEAD;
      const rest = JSON.stringify({
        name: user.realname,
        avatar: user.avatar,
        username: user.username,
        isPlatformAdmin: user.isPlatformAdmin,
        enterpriseId: enterprise?.id ?? null,
        userType: enterprise?.role ?? null,
      });
      return ok(request, new SerializedJson([head, Buffer.from(rest.slice(1))]) as unknown as UserPermission);
    },
  );

  api.get('/user/info', { schema: { tags, summary: 'The signed-in user' } }, async (request) => {
    const user = requireUser(request);
    const [row] = await db
      .select({ username: users.username, realname: users.realname, avatar: users.avatar, phone: users.phone, email: users.email })
      .from(users)
      .where(eq(users.id, user.id));
    return ok(request, { ...row, isPlatformAdmin: user.isPlatformAdmin });
  });

  api.post('/logout', { config: publicRoute, schema: { tags, summary: 'Revoke the token' } }, async (request) => {
    const token = request.headers[HEADERS.token.toLowerCase()];
    if (typeof token === 'string' && token !== '') await revokeToken(db, sha256(token));
    return ok(request, null);
  });

  for (const method of ['post', 'put'] as const) {
    api[method](
      '/user/changPassword',
      { schema: { tags, summary: 'Change the password (revokes every token of the user)', body: changePasswordBody } },
      async (request, reply) => {
        const user = requireUser(request);
        const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
        if (!(await verifyPassword(request.body.passwordOld, row.passwordHash))) {
          return refuse(request, reply, 'password.oldWrong');
        }
        await db.update(users).set({ passwordHash: await hashPassword(request.body.passwordNew) }).where(eq(users.id, user.id));
        await revokeAllTokens(db, user.id);
        return ok(request, null, 'password.changed');
      },
    );
  }

  api.post(
    '/auth/register',
    { config: publicRoute, schema: { tags, summary: 'Register an account with an SMS code', body: registerBody } },
    async (request) => {
      const input = request.body;
      if (await findUserByUsername(db, input.username)) throw conflict('conflict.username');
      const [phoneOwner] = await db.select({ id: users.id }).from(users).where(eq(users.phone, input.phone));
      if (phoneOwner) throw conflict('conflict.phone');
      if (!(await consumeCode(db, input.phone, 'register', input.smsCode))) throw badRequest('sms.invalid');
      try {
        const [user] = await db
          .insert(users)
          .values({
            username: input.username,
            passwordHash: await hashPassword(input.password),
            realname: input.realname,
            phone: input.phone,
            email: input.email,
          })
          .returning({ id: users.id, username: users.username, realname: users.realname });
        return ok(request, user, 'register.done');
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint) throw conflict(constraint.includes('phone') ? 'conflict.phone' : 'conflict.username');
        throw error;
      }
    },
  );

  api.post(
    '/auth/forge-password',
    { config: publicRoute, schema: { tags, summary: 'Reset a forgotten password with an SMS code', body: forgePasswordBody } },
    async (request) => {
      const { phone, smsCode, passwordNew } = request.body;
      if (!(await consumeCode(db, phone, 'recover', smsCode))) throw badRequest('sms.invalid');
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone));
      if (!user) throw badRequest('sms.unknownPhone');
      await db.update(users).set({ passwordHash: await hashPassword(passwordNew) }).where(eq(users.id, user.id));
      await revokeAllTokens(db, user.id);
      return ok(request, null, 'password.reset');
    },
  );
};

