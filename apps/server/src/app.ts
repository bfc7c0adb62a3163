import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { HEADERS, toLanguage, translate } from '@console/contract';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import './http/context.ts';
import { envelope, serializePayload } from './http/envelope.ts';
import { AppError } from './http/errors.ts';
import { describeIssues } from './http/validation.ts';
import { accessHook, routeAccess } from './http/access.ts';
import { isDiskFull, registerUploads } from './http/uploads.ts';
import { logRequest, withSafeSerializers } from './http/logging.ts';
import { OPENAPI_TYPE, staticHeadersOf } from './http/headers.ts';
import { refuseHostileInput } from './http/validation.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { smsRoutes } from './modules/sms/routes.ts';
import { enterpriseRoutes } from './modules/enterprises/routes.ts';
import { platformRoutes } from './modules/platform/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { registerAuditTrail } from './modules/audit/recorder.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { projectRoutes } from './modules/projects/routes.ts';
import { pipelineRoutes } from './modules/pipelines/routes.ts';
import type { AfterPipeImport } from './modules/pipelines/import.ts';
import { openDataRoutes } from './modules/openData/routes.ts';
import { registerOpenDataCors } from './modules/openData/cors.ts';
import { tileRoutes } from './modules/tiles/routes.ts';
import { preferenceRoutes } from './modules/preferences/routes.ts';
import { acquisitionRoutes } from './modules/acquisitions/routes.ts';
import { leakRoutes } from './modules/leaks/routes.ts';
import { settlementRoutes } from './modules/settlement/routes.ts';
import { constructionRoutes } from './modules/construction/routes.ts';
import type { BBox } from '@console/contract';
import { remeasureSites } from './modules/construction/measure.ts';
import { riskAreaRoutes } from './modules/riskAreas/routes.ts';
import { weatherRoutes } from './modules/weather/routes.ts';
import { pipeRiskRoutes } from './modules/pipeRisk/routes.ts';
import { alertRoutes } from './modules/alerts/routes.ts';
import { metricsRoutes } from './modules/metrics/routes.ts';
import { channelRoutes } from './modules/channels/routes.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { datavRoutes } from './modules/datav/routes.ts';
import { sensorRoutes } from './modules/sensors/routes.ts';
import { remeasureAreas } from './modules/riskAreas/service.ts';
import { SettlementAnalyses } from './modules/settlement/analysis.ts';
import { VERSION } from './version.ts';
import { startServices } from './services.ts';
import { EventStreams } from './http/eventStreams.ts';
import { failedForDatabase, unavailable } from './http/availability.ts';
import type { SmsProvider } from './modules/sms/provider.ts';

/**
 * The console's content security policy: its own scripts only; inline styles (antd writes its
 * styles at run time); map tiles, service descriptions and capabilities from whatever servers
 * the enterprise's map settings name, over http too (utilities' map servers are often intranet
 * http); no framing by other sites.
 */
const CONSOLE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'http:', 'https:'],
  connectSrc: ["'self'", 'http:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
};

/** Routes whose writes change what composite pipe risk is made of. */
// Not the import routes: an upload or a start changes nothing yet, and each job's end asks for
// the assessment itself (a pipe import assesses as its last step); asking at the start as well made
// a second assessment of the whole network during or after every import.
const RISK_INPUTS = /^\/api\/(pipelines|leaks|settlement|construction|risk-areas|weather)\/(?!imports(\/|$|\?))/;
/** Writes in an enterprise that change who may do what there (other such writes have no enterprise: accounts, tokens, the platform's decisions). */
const ACCESS_CHANGES = /^\/api\/enterprise\/(members|joinRequests)\b/;

/**
 * API answers (JSON, tiles, photos) are data, never pages: nothing may load from them or frame
 * them, and they are not sniffed or read by other sites. The headers that only steer documents
 * (opener policy, referrer, DNS prefetch, XSS filter, origin clusters, Flash and IE downloads)
 * are left off, as OWASP's REST security cheat sheet has it: each answer carries 6 headers
 * (~300 bytes) instead of 12.
 */
const API_HELMET = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const;

export interface AppOptions {
  config: Config;
  database: Database;
  /** Defaults to the local provider (log + sms_outbox table). */
  sms?: SmsProvider;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the API server without listening: main.ts listens, tests use inject(). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: withSafeSerializers(options.logger ?? false),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // One line per failed or slow request instead (http/logging.ts logRequest).
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.decorate('db', database.db);
  // Live streams (server-sent events) of every route, capped per sign-in and address together.
  app.decorate('eventStreams', new EventStreams(app));
  app.decorate('database', database);
  // The background services (replicas, change feed, imports, risk, alerts, channels, schedules) and the database watch.
  const { replicas, metrics, changes, importRunner, pipeRisk, sms, outbox, alertEngine, watch } = await startServices(app, config, database, options.sms);
  // Every answer counted by its route's template (not its URL: the label sets stay bounded).
  const logging = { all: config.logRequests === 'all', slowMs: config.logSlowMs };
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    logRequest(request, reply.statusCode, reply.elapsedTime, logging);
    done();
  });
  app.decorateRequest('language', 'en-US');
  app.decorateRequest('user', null);
  app.decorateRequest('tokenHash', null);
  app.decorateRequest('enterprise', null);

  // Inputs are checked by the contract's zod schemas; issues keep their input so the error
  // handler can word them in the caller's language.
  app.setValidatorCompiler(({ schema }) => (data) => {
    const parsed = (schema as z.ZodType).safeParse(data, { reportInput: true });
    if (parsed.success) return { value: parsed.data };
    return { error: Object.assign(new Error('invalid input'), { issues: parsed.error.issues }) };
  });
  // Response schemas document the API; answers are plain JSON (cached reads spliced in as they
  // are). Fastify types a serializer's output as a string but writes a Buffer as it is.
  const writeJson = serializePayload as (payload: unknown) => string;
  app.setSerializerCompiler(() => writeJson);
  app.setReplySerializer(writeJson);

  // Security headers made once by helmet (not per request): the console's pages get the policy
  // they work under; API answers get the few that protect data (API_HELMET).
  const consoleHeaders = staticHeadersOf(helmet({ contentSecurityPolicy: { directives: CONSOLE_CSP }, frameguard: { action: 'deny' } }));
  const apiHeaders = staticHeadersOf(helmet(API_HELMET));

  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    onFile: registerUploads(app, config.dataDir, config.uploadLimit),
    limits: { fileSize: config.uploadLimit, fields: 200 },
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Pipeline risk monitoring console API',
        version: VERSION,
        description:
          'Every answer is {success, code, message, result, timestamp}. Send the token in the Access-Token header, ' +
          'the current enterprise in Enterprise-Id and the language (zh-CN or en-US) in Accept-Language.',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: HEADERS.token },
          enterprise: { type: 'apiKey', in: 'header', name: HEADERS.enterprise },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  // The docs are public; every other route says who may call it (see http/access.ts).
  // The OpenAPI document says who may call each route (x-access), as the access hook checks it.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, access: { auth: 'public' } };
    if (route.url.startsWith('/api/')) route.schema = { ...route.schema, 'x-access': routeAccess(route.url, route.config?.access) } as typeof route.schema;
  });
  // The API document goes out as the media type the OGC landing page's service-desc link names.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.split('?')[0] === '/api/docs/json' && reply.statusCode === 200) reply.header('content-type', OPENAPI_TYPE);
    done(null, payload);
  });
  // The docs page sets a policy of its own (its scripts and styles).
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // Plain (not async) hooks where nothing is awaited: they run on every request.
  app.addHook('onRequest', (request, reply, done) => {
    request.language = toLanguage(request.headers['accept-language']);
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : consoleHeaders);
    done();
  });
  // Open data answers other sites' pages (CORS) for personal tokens; set before access, so a refusal is readable too.
  registerOpenDataCors(app, config.openDataOrigins);
  app.addHook('onRequest', accessHook);
  // Every write and sign-in attempt recorded (modules/audit).
  if (config.auditTrail) await registerAuditTrail(app, database.db, join(config.dataDir, 'audit-journal'));
  else app.log.warn('AUDIT_TRAIL=off: writes are not recorded (the benchmark peer only)');
  // PostgreSQL text cannot hold U+0000: refuse it as bad input on every route, schema or not.
  app.addHook('preValidation', refuseHostileInput);
  // A write that succeeded makes cached reads stale: dropped before the answer leaves, so the
  // caller's next read sees it (and through the change feed, every other server's too).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400 && request.url.startsWith('/api/')) {
      changes.publish({ enterpriseId: request.enterprise?.id ?? null, ...(ACCESS_CHANGES.test(request.url) ? { access: true } : {}) });
      // A change to what a pipe's risk is made of: the network is assessed again shortly.
      if (request.enterprise && RISK_INPUTS.test(request.url)) {
        pipeRisk.soon(request.enterprise.id, 'change');
        alertEngine.soon(request.enterprise.id);
      }
      // The writer's next reads wait for a replica that has this write (read-your-writes).
      if (replicas.configured && request.user) {
        replicas.noteWrite(request.user.id).then(
          () => done(null, payload),
          (error) => {
            request.log.error({ err: error }, 'reading the primary WAL position failed');
            done(null, payload);
          },
        );
        return;
      }
    }
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError & { issues?: z.core.$ZodIssue[] }, request, reply) => {
    const lang = request.language;
    if (error instanceof AppError) {
      return reply
        .code(error.status)
        .send(envelope(false, error.status, translate(error.messageKey, lang, error.params), error.result));
    }
    if (error.issues) {
      return reply.code(400).send(envelope(false, 400, describeIssues(error.issues, lang), null));
    }
    // The database went away under the request: the server's state, not a crash (see http/availability.ts).
    if (failedForDatabase(error, watch)) {
      request.log.warn({ err: error }, 'database unavailable');
      return unavailable(request, reply);
    }
    // Disk full (the file system, or the database's: 53100) is the server's state, not a crash: reads go on.
    if (isDiskFull(error) || error.code === '53100' || isDiskFull(error.cause)) {
      request.log.error({ err: error }, 'disk full');
      return reply.code(507).send(envelope(false, 507, translate('error.diskFull', lang), null));
    }
    if (error.statusCode === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.code(413).send(envelope(false, 413, translate('error.tooLarge', lang), null));
    }
    // A multipart body cut short or without its boundary is the sender's fault, as a bad JSON body is.
    const badMultipart = !error.statusCode && request.isMultipart() && /multipart|boundary/i.test(error.message);
    if (badMultipart || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
      // Malformed JSON, unsupported media type and the like: the body could not be read.
      const status = error.statusCode ?? 400;
      return reply.code(status).send(envelope(false, status, translate('error.badBody', lang), null));
    }
    if (reply.raw.destroyed) {
      // The client went away and its database work was stopped: nobody to answer, nothing wrong.
      request.log.info('client went away before its answer');
      return reply.code(499).send(envelope(false, 499, translate('error.internal', lang), null));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(envelope(false, 500, translate('error.internal', lang), null));
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database, watch });
      await api.register(authRoutes);
      await api.register(smsRoutes, { sms });
      await api.register(enterpriseRoutes, { prefix: '/enterprise' });
      await api.register(platformRoutes, { prefix: '/platform' });
      await api.register(auditRoutes, { prefix: '/audit' });
      await api.register(projectRoutes, { prefix: '/projects' });
      const limits = { dataDir: config.dataDir, uploadLimit: config.uploadLimit, quota: config.importQuota, parallelFromBytes: config.parallelImportBytes };
      const analyses = new SettlementAnalyses(database.db, importRunner, app.log);
      // What is measured against a new network follows it, as the import job's second phase (the
      // job succeeds after it, its share shown): sites, risk-prone areas, the settlement datasets,
      // then composite risk (unless only admins start it), which reads all three, so one
      // assessment follows an import and nothing asks for another.
      const measureAfterImport: AfterPipeImport['measure'] = async (enterpriseId, progress, signal) => {
        const part = (from: number, to: number) => (share: number) => progress(from + (to - from) * share);
        await remeasureSites(database.db, enterpriseId, undefined, part(0, 0.4)).catch((error) => app.log.error({ err: error, enterpriseId }, 'site remeasure failed'));
        await remeasureAreas(database.db, enterpriseId, undefined, part(0.4, 0.6)).catch((error) => app.log.error({ err: error, enterpriseId }, 'risk area remeasure failed'));
        await analyses.analyseAllNow(enterpriseId, signal, part(0.6, 0.75));
        if (config.riskDelayMs > 0) {
          await progress(0.75);
          await pipeRisk.runNow(enterpriseId, 'change').catch((error) => {
            // Running elsewhere: asked again once it ends.
            if ((error as { statusCode?: number }).statusCode === 409) pipeRisk.request(enterpriseId, 'change');
            else app.log.error({ err: error, enterpriseId }, 'pipe risk assessment after import failed');
          });
        }
      };
      const afterImport: AfterPipeImport = { measure: measureAfterImport };
      // A pipe edited by hand: the sites and areas near its old and new place are measured again.
      const afterEdit = async (enterpriseId: number, boxes: BBox[]) => {
        await remeasureSites(database.db, enterpriseId, boxes);
        await remeasureAreas(database.db, enterpriseId, boxes);
      };
      await api.register(pipelineRoutes, { prefix: '/pipelines', limits, runner: importRunner, afterImport, afterEdit });
      await api.register(acquisitionRoutes, { prefix: '/acquisitions', limits, runner: importRunner });
      await api.register(leakRoutes, { prefix: '/leaks', limits, runner: importRunner, photoLimit: config.photoLimit });
      await api.register(settlementRoutes, { prefix: '/settlement', limits, runner: importRunner, analyses });
      await api.register(constructionRoutes, { prefix: '/construction', limits, runner: importRunner, photoLimit: config.photoLimit });
      await api.register(riskAreaRoutes, { prefix: '/risk-areas', limits, runner: importRunner, photoLimit: config.photoLimit });
      await api.register(weatherRoutes, { prefix: '/weather' });
      await api.register(pipeRiskRoutes, { prefix: '/pipe-risk', jobs: pipeRisk, limits, runner: importRunner });
      await api.register(datavRoutes, { prefix: '/datav' });
      await api.register(sensorRoutes, { prefix: '/sensors', limits, runner: importRunner });
      await api.register(alertRoutes, { prefix: '/alerts', engine: alertEngine, dataDir: config.dataDir, photoLimit: config.photoLimit });
      await api.register(channelRoutes, { prefix: '/alerts', outbox, limits: { robotHosts: config.robotHosts, smtp: Boolean(config.smtpUrl) } });
      await api.register(reportRoutes, { prefix: '/reports', outbox, fontPath: config.reportFont });
      await api.register(tileRoutes, { prefix: '/tiles' });
      await api.register(openDataRoutes);
      await api.register(preferenceRoutes, { prefix: '/preferences' });
      api.get('/settings', { config: { access: { auth: 'public' } } }, async (request) => ({
        ...envelope(true, 200, translate('ok', request.language), { icpNumber: config.icpNumber, version: VERSION, uploadLimitMb: Math.round(config.uploadLimit / 1024 / 1024) }),
      }));
    },
    { prefix: '/api' },
  );

  await app.register(metricsRoutes, { metrics, token: config.metricsToken });

  const hasConsole = existsSync(join(config.webDist, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      // The build writes .br and .gz beside each file; the browser gets the one it accepts.
      preCompressed: true,
      setHeaders(reply, path) {
        // Hashed build assets never change; index.html must always be fresh.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    if (path === '/api' || path.startsWith('/api/') || !hasConsole || request.method !== 'GET') {
      return reply.code(404).send(envelope(false, 404, translate('notFound.route', request.language), null));
    }
    // The crew's phone view is a page of its own under /m/ (its service worker's scope).
    if (path === '/m') return reply.redirect('/m/');
    if (path.startsWith('/m/')) return reply.header('cache-control', 'no-cache').sendFile('m.html');
    // History-mode routing: every other path is a console route.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
