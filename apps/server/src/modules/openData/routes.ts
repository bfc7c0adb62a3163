import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { id, isActionAllowed, PERSONAL_TOKEN_QUERY_KEY, personalTokenCreate, ROLE_PERMISSIONS, type PermissionId } from '@console/contract';
import { ok } from '../../http/envelope.ts';
import { OPENAPI_TYPE } from '../../http/headers.ts';
import { AppError } from '../../http/errors.ts';
import { requireEnterprise, requireUser } from '../../http/access.ts';
import { clientGone } from '../../http/context.ts';
import type { Access } from '../../requestContext.ts';
import { collectionOf, collectionsOf, type CollectionSource } from './collections.ts';
import { CRS84, CRS_URIS } from './crs.ts';
import { crsParameter, DEFAULT_LIMIT, itemsPage, MAX_LIMIT, numberMatched, parseItemsQuery, readFeature } from './features.ts';
import { extentOf, type Extent } from './extent.ts';
import { EnterpriseCache } from '../../http/cache.ts';
import { basemapStyle, basemapTileJson, pipesStyle, pipesTileJson } from './tilesets.ts';
import { createPersonalToken, listPersonalTokens, revokePersonalToken } from './tokens.ts';
import { recordExport } from '../audit/exports.ts';

const tags = ['open data'];
/** Every OGC route reads the enterprise's data; each collection then asks its own domain's permission. */
const reader: { access: Access } = { access: { auth: 'enterprise', permission: ['dashboard', 'query'], personal: true } };
const JSON_TYPE = 'application/json';
const GEOJSON = 'application/geo+json';
const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
];

/** Links back to this server: the key a client sent in the query goes on, since it has no other way to send it. */
export function linkMaker(request: FastifyRequest) {
  const base = `${request.protocol}://${request.host}/api`;
  const key = (request.query as Record<string, unknown>)[PERSONAL_TOKEN_QUERY_KEY];
  return (path: string, params: Record<string, string> = {}) => {
    const query = new URLSearchParams(params);
    if (typeof key === 'string') query.set(PERSONAL_TOKEN_QUERY_KEY, key);
    const text = query.toString();
    return `${base}${path}${text ? `?${text}` : ''}`;
  };
}

/**
 * The items parameters as the OpenAPI document states them (types, bounds, default), so clients
 * size their pages: GDAL and QGIS read limit's maximum. Values are read by parseItemsQuery (a
 * limit past the maximum is served as the maximum).
 */
const itemsQuery = z.looseObject({
  limit: z.string().optional().meta({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `Features per page (at most ${MAX_LIMIT}; more is served as ${MAX_LIMIT})` }),
  bbox: z.string().optional().meta({ type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 6, description: 'minx,miny,maxx,maxy in bbox-crs (CRS84 by default); minx > maxx crosses the antimeridian' }),
  'bbox-crs': z.string().optional().meta({ type: 'string', format: 'uri', enum: CRS_URIS, default: CRS84 }),
  crs: z.string().optional().meta({ type: 'string', format: 'uri', enum: CRS_URIS, default: CRS84 }),
  datetime: z.string().optional().meta({ type: 'string', description: 'An instant, or an interval start/end where either end may be .. (a layer without a temporal extent has no feature in any period)' }),
  cursor: z.string().optional().meta({ type: 'string', pattern: '^\\d{1,18}$', description: 'The key after which the page starts (from a next link)' }),
  [PERSONAL_TOKEN_QUERY_KEY]: z.string().optional().describe('A personal access token, for clients that cannot set a header'),
});
/** Resources other than items take only the key (and f): anything else is refused by name, as on items. */
const onlyKey = z
  .object({ [PERSONAL_TOKEN_QUERY_KEY]: z.string().optional().describe('A personal access token, for clients that cannot set a header'), f: z.enum(['json']).optional() })
  .strict();
/** The answers an OGC route documents besides 200, with the envelope every error has. */
const errorBody = z.object({ success: z.literal(false), code: z.number(), message: z.string(), result: z.null(), timestamp: z.number() });
const OGC_ERRORS = {
  200: z.unknown().describe('The resource (JSON, or GeoJSON for features)'),
  400: errorBody.describe('A parameter is wrong: the message names it'),
  401: errorBody.describe('No token, or a token unknown, revoked or expired'),
  403: errorBody.describe("The token's role may not read this"),
  404: errorBody.describe('No such collection or feature'),
};
const collectionParams = z.object({ collectionId: z.string().max(80) });
const featureParams = z.object({ collectionId: z.string().max(80), featureId: z.string().max(20) });

/**
 * Open data out: OGC API Features over the enterprise's layers, TileJSON and styles of its
 * tilesets, and the personal access tokens desktop clients read them with.
 */
export const openDataRoutes: FastifyPluginAsync = async (app) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  /** Extents per enterprise and collection, dropped when the enterprise's data changes (a minute at most otherwise). */
  const extents = new EnterpriseCache<Extent>(app.changes, 60_000);
  const extentOfCollection = (enterpriseId: number, source: CollectionSource) => extents.get(enterpriseId, source.id, () => extentOf(db, source));

  // --- Personal access tokens (the signed-in user's own) ---
  const signedIn = { access: { auth: 'user' as const } };
  api.get('/open-data/tokens', { config: signedIn, schema: { tags, summary: "The user's personal access tokens that still work" } }, async (request) =>
    ok(request, await listPersonalTokens(db, requireUser(request).id)),
  );
  api.post(
    '/open-data/tokens',
    { config: signedIn, schema: { tags, summary: 'Make a read-only personal access token for one enterprise (its text is shown this once)', body: personalTokenCreate } },
    async (request) => ok(request, await createPersonalToken(db, requireUser(request).id, request.body)),
  );
  api.delete(
    '/open-data/tokens/:id',
    { config: signedIn, schema: { tags, summary: 'Revoke one of your personal access tokens', params: z.object({ id }) } },
    async (request) => {
      await revokePersonalToken(db, requireUser(request).id, request.params.id);
      return ok(request, null);
    },
  );

  // --- OGC API Features ---
  const allowed = (request: FastifyRequest, permission: PermissionId) => isActionAllowed(ROLE_PERMISSIONS[requireEnterprise(request).role], permission, 'query');
  const sendJson = (reply: FastifyReply, body: unknown, type = JSON_TYPE) => reply.type(type).send(JSON.stringify(body));
  /** The collection if the caller's role may read its domain; otherwise it does not exist for them. */
  const collection = async (request: FastifyRequest, collectionId: string): Promise<CollectionSource> => {
    const source = await collectionOf(db, requireEnterprise(request).id, collectionId);
    if (!source || !allowed(request, source.permission)) throw new AppError(404, 'notFound.collection', { id: collectionId });
    return source;
  };
  const describe = async (request: FastifyRequest, source: CollectionSource) => {
    const link = linkMaker(request);
    const extent = await extentOfCollection(requireEnterprise(request).id, source);
    return {
      id: source.id,
      title: source.title[request.language],
      description: source.description[request.language],
      itemType: 'feature',
      // The one geometry type of its features (a single line or area is served in its Multi form).
      geometryType: source.geometryType,
      extent: {
        spatial: { bbox: [extent.bbox ?? [-180, -90, 180, 90]], crs: CRS84 },
        ...(source.time ? { temporal: { interval: [[extent.start, extent.end]], trs: 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian' } } : {}),
      },
      crs: CRS_URIS,
      storageCrs: CRS84,
      links: [
        { href: link(`/ogc/collections/${source.id}`), rel: 'self', type: JSON_TYPE, title: 'this collection' },
        { href: link(`/ogc/collections/${source.id}/items`), rel: 'items', type: GEOJSON, title: 'its features' },
        { href: link(`/ogc/collections/${source.id}/queryables`), rel: 'http://www.opengis.net/def/rel/ogc/1.0/queryables', type: 'application/schema+json', title: 'what it can be filtered by' },
      ],
    };
  };

  const landing = async (request: FastifyRequest, reply: FastifyReply) => {
    const link = linkMaker(request);
    return sendJson(reply, {
      title: request.language === 'zh-CN' ? '城市地下管网风险监测：开放数据' : 'Urban underground pipeline risk monitoring: open data',
      description:
        request.language === 'zh-CN' ? '本企业的管网、项目、漏损疑似点、施工、风险区、沉降与预警图层（OGC API Features）' : "The enterprise's pipes, projects, leak POIs, construction, risk areas, settlement and alerts (OGC API Features)",
      links: [
        { href: link('/ogc'), rel: 'self', type: JSON_TYPE, title: 'this document' },
        { href: `${request.protocol}://${request.host}/api/docs/json`, rel: 'service-desc', type: OPENAPI_TYPE, title: 'the API definition' },
        { href: `${request.protocol}://${request.host}/api/docs`, rel: 'service-doc', type: 'text/html', title: 'the API documentation' },
        { href: link('/ogc/conformance'), rel: 'conformance', type: JSON_TYPE, title: 'conformance classes' },
        { href: link('/ogc/collections'), rel: 'data', type: JSON_TYPE, title: 'the layers' },
      ],
    });
  };
  const landingSchema = { tags, summary: 'OGC API Features: landing page', querystring: onlyKey, response: OGC_ERRORS };
  api.get('/ogc', { config: reader, schema: landingSchema }, landing);
  // With a slash too: OWSLib and others add one.
  api.get('/ogc/', { config: reader, schema: { ...landingSchema, hide: true } }, landing);

  api.get('/ogc/conformance', { config: reader, schema: { tags, summary: 'OGC API Features: conformance classes', querystring: onlyKey, response: OGC_ERRORS } }, async (_request, reply) => sendJson(reply, { conformsTo: CONFORMANCE }));

  api.get('/ogc/collections', { config: reader, schema: { tags, summary: "OGC API Features: the enterprise's layers the caller may read", querystring: onlyKey, response: OGC_ERRORS } }, async (request, reply) => {
    const sources = (await collectionsOf(db, requireEnterprise(request).id)).filter((source) => allowed(request, source.permission));
    const link = linkMaker(request);
    return sendJson(reply, {
      links: [{ href: link('/ogc/collections'), rel: 'self', type: JSON_TYPE, title: 'the layers' }],
      collections: await Promise.all(sources.map((source) => describe(request, source))),
    });
  });

  api.get('/ogc/collections/:collectionId', { config: reader, schema: { tags, summary: 'OGC API Features: one layer', params: collectionParams, querystring: onlyKey, response: OGC_ERRORS } }, async (request, reply) =>
    sendJson(reply, await describe(request, await collection(request, request.params.collectionId))),
  );

  api.get(
    '/ogc/collections/:collectionId/queryables',
    { config: reader, schema: { tags, summary: "OGC API Features: the layer's properties that filter its items", params: collectionParams, querystring: onlyKey, response: OGC_ERRORS } },
    async (request, reply) => {
      const source = await collection(request, request.params.collectionId);
      const jsonType = (type: string) => (type === 'date' || type === 'date-time' ? { type: 'string', format: type } : type === 'object' ? { type: 'object' } : { type });
      return sendJson(
        reply,
        {
          $schema: 'https://json-schema.org/draft/2019-09/schema',
          $id: linkMaker(request)(`/ogc/collections/${source.id}/queryables`),
          type: 'object',
          title: source.title[request.language],
          properties: {
            // The primary geometry and its one type (OGC API Features Part 3's geometry formats).
            geometry: { 'x-ogc-role': 'primary-geometry', format: `geometry-${source.geometryType.toLowerCase()}` },
            ...Object.fromEntries(source.properties.filter((p) => p.queryable).map((p) => [p.name, { title: p.name, ...jsonType(p.type) }])),
          },
        },
        'application/schema+json',
      );
    },
  );

  api.get(
    '/ogc/collections/:collectionId/items',
    { config: reader, schema: { tags, summary: "OGC API Features: a layer's features, a page at a time (bbox, datetime, crs, attribute filters)", params: collectionParams, querystring: itemsQuery, response: OGC_ERRORS } },
    async (request, reply) => {
      const source = await collection(request, request.params.collectionId);
      const raw = request.query as Record<string, unknown>;
      const query = parseItemsQuery(source, raw);
      const signal = clientGone(reply);
      // Pages of features are heavy reads: a replica serves them when one can (db/replicas.ts).
      const run = <T>(work: (database: typeof db) => Promise<T>) => app.replicas.cancellable(request.user?.id, signal, work);
      const matched = query.after === null ? await run((database) => numberMatched(database, source, query)) : null;
      const link = linkMaker(request);
      const params = Object.fromEntries(Object.entries(raw).filter(([name, value]) => typeof value === 'string' && name !== 'cursor' && name !== PERSONAL_TOKEN_QUERY_KEY)) as Record<string, string>;
      const links = (next: number | null) => [
        { href: link(`/ogc/collections/${source.id}/items`, { ...params, ...(query.after === null ? {} : { cursor: String(query.after) }) }), rel: 'self', type: GEOJSON, title: 'this page' },
        ...(next === null ? [] : [{ href: link(`/ogc/collections/${source.id}/items`, { ...params, cursor: String(next) }), rel: 'next', type: GEOJSON, title: 'next page' }]),
        { href: link(`/ogc/collections/${source.id}`), rel: 'collection', type: JSON_TYPE, title: 'the layer' },
      ];
      return reply
        .type(GEOJSON)
        .header('content-crs', `<${query.crs.uri}>`)
        .send(Readable.from(itemsPage(run, source, query, matched, links, (returned, complete) => recordExport(request, `ogc/${source.id}`, returned, complete))));
    },
  );

  api.get(
    '/ogc/collections/:collectionId/items/:featureId',
    { config: reader, schema: { tags, summary: 'OGC API Features: one feature', params: featureParams, querystring: itemsQuery.pick({ crs: true, [PERSONAL_TOKEN_QUERY_KEY]: true }).extend({ f: z.enum(['json']).optional() }).strict(), response: OGC_ERRORS } },
    async (request, reply) => {
      const source = await collection(request, request.params.collectionId);
      const crs = crsParameter(request.query as Record<string, unknown>, 'crs');
      const key = /^\d{1,18}$/.test(request.params.featureId) ? Number(request.params.featureId) : null;
      const feature = key === null ? null : await readFeature(db, source, key, crs);
      if (!feature) throw new AppError(404, 'notFound.feature', { id: request.params.featureId, collection: source.id });
      const link = linkMaker(request);
      const links = [
        { href: link(`/ogc/collections/${source.id}/items/${key}`), rel: 'self', type: GEOJSON, title: 'this feature' },
        { href: link(`/ogc/collections/${source.id}`), rel: 'collection', type: JSON_TYPE, title: 'the layer' },
      ];
      return reply.type(GEOJSON).header('content-crs', `<${crs.uri}>`).send(`${feature.slice(0, -1)},"links":${JSON.stringify(links)}}`);
    },
  );

  // --- Tilesets described for clients (TileJSON 3.0) and their Mapbox GL styles ---
  const pipesReader: { access: Access } = { access: { auth: 'enterprise', permission: ['pipeline', 'query'], personal: true } };
  const publicRoute: { access: Access } = { access: { auth: 'public' } };
  api.get('/tiles/pipes.json', { config: pipesReader, schema: { tags, summary: "TileJSON of the enterprise's pipe tiles" } }, async (request, reply) =>
    sendJson(reply, await pipesTileJson(db, requireEnterprise(request).id, (source) => extentOfCollection(requireEnterprise(request).id, source), linkMaker(request), request.language)),
  );
  api.get('/tiles/pipes/style.json', { config: pipesReader, schema: { tags, summary: 'Mapbox GL style drawing the pipes as the console does' } }, async (request, reply) =>
    sendJson(reply, pipesStyle(linkMaker(request), request.language)),
  );
  api.get('/tiles/basemap.json', { config: publicRoute, schema: { tags, summary: 'TileJSON of the built-in basemap' } }, async (request, reply) =>
    sendJson(reply, await basemapTileJson(db, linkMaker(request), request.language)),
  );
  api.get('/tiles/basemap/style.json', { config: publicRoute, schema: { tags, summary: 'Mapbox GL style drawing the basemap as the console does' } }, async (request, reply) =>
    sendJson(reply, basemapStyle(linkMaker(request), request.language)),
  );
};
