import type { FastifyPluginAsync } from 'fastify';
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
      const tile = madePipeTile(enterpriseId, version, grid, zoom, x, y) ?? (await app.database.cancellable(clientGone(reply), (db) => pipeTile(db, enterpriseId, grid, zoom, x, y, version)));
      return reply.type(MVT).header('cache-control', 'private, no-cache').send(Buffer.from(tile));
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
      return reply.type(MVT).header('cache-control', 'public, max-age=86400').send(Buffer.from(tile));
    },
  );

  api.get('/info', { config: { access: { auth: 'public' } }, schema: { tags, summary: 'Tile grids offered' } }, async (request) =>
    ok(request, { grids: [3857, 4326], extent: 4096, layers: { pipes: ['pipes'], basemap: ['water', 'parks', 'streets'] } }),
  );
};
