import { gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { requireEnterprise } from '../../http/access.ts';
import { isValidTile, type TileGrid } from '../../geo/tiles.ts';
import { basemapTile, madePipeTile, pipesVersion, pipeTile } from './service.ts';
import { EnterpriseCache } from '../../http/cache.ts';
import { clientGone } from '../../http/context.ts';

const tags = ['tiles'];
const tileParams = z.object({
  grid: z.coerce.number().refine((g) => g === 3857 || g === 4326, { message: 'field.srid' }),
  z: z.coerce.number().int(),
  x: z.coerce.number().int(),
  y: z.coerce.number().int(),
});
const MVT = 'application/vnd.mapbox-vector-tile';
/** The made tile's bytes as a Buffer without copying them (a cached tile is sent many times). */
const asBuffer = (tile: Uint8Array) => Buffer.from(tile.buffer, tile.byteOffset, tile.byteLength);

/**
 * A made tile compressed once for the browsers that take gzip (all do): a third of the bytes on
 * the wire for every later request. Kept as long as the made tile itself is.
 */
const gzipped = new WeakMap<Uint8Array, Buffer>();
/**
 * zlib's level 4: within 1.5 % of the default level's (6) bytes on the network's tiles at half its
 * CPU (measured on 200 z14/z16 tiles of a 1,000,000-segment city: 44.9 % of the raw bytes against
 * 44.3 %, 0.30 against 0.56 ms a tile), and a tile made from the database is gzipped on every miss.
 */
const GZIP_LEVEL = 4;
function sendTile(request: FastifyRequest, reply: FastifyReply, tile: Uint8Array, cacheControl: string) {
  reply.type(MVT).header('cache-control', cacheControl).header('vary', 'accept-encoding');
  if (tile.byteLength < GZIP_FROM_BYTES || !/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.send(asBuffer(tile));
  let body = gzipped.get(tile);
  if (!body) gzipped.set(tile, (body = gzipSync(tile, { level: GZIP_LEVEL })));
  return reply.header('content-encoding', 'gzip').send(body);
}
/** Smaller tiles gain too little to be worth a header. */
const GZIP_FROM_BYTES = 1024;

/** Vector tiles (MVT) on a Web Mercator (3857) or WGS84 (4326) grid. */
export const tileRoutes: FastifyPluginAsync = async (app) => {
  // Each enterprise's pipes version, read once a second at most and dropped by any change to its
  // data (here or, through the change feed, on another server): a made tile then costs no query.
  const versions = new EnterpriseCache<number>(app.changes);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const check = (p: z.infer<typeof tileParams>) => {
    if (!isValidTile(p.grid as TileGrid, p.z, p.x, p.y)) throw badRequest('field.tile');
    return p as typeof p & { grid: TileGrid };
  };

  api.get(
    '/pipes/:grid/:z/:x/:y.pbf',
    {
      // Read by desktop GIS too: a personal token is taken (see openData's TileJSON).
      config: { access: { auth: 'enterprise', permission: ['pipeline', 'query'], personal: true } },
      schema: { tags, summary: "The current enterprise's pipes as a vector tile (layer pipes)", params: tileParams },
    },
    async (request, reply) => {
      const { grid, z: zoom, x, y } = check(request.params);
      const enterpriseId = requireEnterprise(request).id;
      const version = await versions.get(enterpriseId, 'pipesVersion', () => pipesVersion(app.db, enterpriseId));
      // A made tile is served from memory; a map panned on drops the tiles it no longer wants,
      // and their database work stops too.
      // A tile not made yet is made on a replica when one serves this user and has replayed this
      // version (a tile of older pipes must not be kept under the new version); else on the primary.
      const make = (db: Db) => pipeTile(db, enterpriseId, grid, zoom, x, y, version);
      const tile =
        madePipeTile(enterpriseId, version, grid, zoom, x, y) ??
        (await app.replicas.cancellable(request.user?.id, clientGone(reply), async (db, onReplica) => (!onReplica || (await pipesVersion(db, enterpriseId)) === version ? make(db) : null))) ??
        (await app.database.cancellable(clientGone(reply), make));
      return sendTile(request, reply, tile, 'private, no-cache');
    },
  );

  api.get(
    '/basemap/:grid/:z/:x/:y.pbf',
    {
      config: { access: { auth: 'public' } },
      schema: { tags, summary: 'The built-in basemap as a vector tile (layers water, parks, streets)', params: tileParams },
    },
    async (request, reply) => {
      const { grid, z: zoom, x, y } = check(request.params);
      const tile = await basemapTile(app.db, grid, zoom, x, y);
      return sendTile(request, reply, tile, 'public, max-age=86400');
    },
  );

  api.get('/info', { config: { access: { auth: 'public' } }, schema: { tags, summary: 'Tile grids offered' } }, async (request) =>
    ok(request, { grids: [3857, 4326], extent: 4096, layers: { pipes: ['pipes'], basemap: ['water', 'parks', 'streets'] } }),
  );
};
