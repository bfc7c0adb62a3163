import { sql } from 'drizzle-orm';
import {
  BASEMAP_PALETTE,
  BASEMAP_SIDE_STREET_MINZOOM,
  BASEMAP_STREET_WIDTH,
  NETWORK_MAP_COLOR,
  NETWORK_TYPES,
  NETWORK_Z_INDEX,
  pipeLineWidth,
  type Language,
} from '@console/contract';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { PIPE_DETAIL_ZOOMS } from '../../geo/pipeScales.ts';
import { collectionsOf, type CollectionSource } from './collections.ts';
import type { Extent } from './extent.ts';

/**
 * The vector tilesets described for clients (TileJSON 3.0.0) and a Mapbox GL style (version 8)
 * for each that draws them as the console does, so QGIS, MapLibre and the like need nothing else.
 */

type Link = (path: string, params?: Record<string, string>) => string;
type BBox = [number, number, number, number];

/** Tiles are made up to here; clients draw closer zooms from these. */
const MAX_ZOOM = 18;

const union = (boxes: (BBox | null)[]): BBox | null =>
  boxes.reduce<BBox | null>((all, b) => (!b ? all : !all ? b : [Math.min(all[0], b[0]), Math.min(all[1], b[1]), Math.max(all[2], b[2]), Math.max(all[3], b[3])]), null);

const tileJson = (name: string, description: string, tiles: string, bounds: BBox | null, minzoom: number, vectorLayers: object[], attribution: string) => ({
  tilejson: '3.0.0',
  name,
  description,
  scheme: 'xyz',
  tiles: [tiles],
  minzoom,
  maxzoom: MAX_ZOOM,
  bounds: bounds ?? [-180, -85.0511, 180, 85.0511],
  center: bounds ? [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, 12] : [0, 0, 2],
  vector_layers: vectorLayers,
  attribution,
});

/** The pipe tiles' TileJSON; `extentOf` gives a pipe layer's (kept) extent. */
export async function pipesTileJson(db: Db, enterpriseId: number, extentOf: (source: CollectionSource) => Promise<Extent>, link: Link, lang: Language) {
  const pipeLayers = (await collectionsOf(db, enterpriseId)).filter((source) => source.kind === 'pipes');
  const bounds = union(await Promise.all(pipeLayers.map(async (source) => (await extentOf(source)).bbox)));
  return tileJson(
    lang === 'zh-CN' ? '管网' : 'Pipes',
    lang === 'zh-CN' ? '本企业各管网的管段；缩小时只有干管（按管网与管径合并）' : "The enterprise's pipe segments; zoomed out, trunk mains only (merged per network and diameter)",
    link('/tiles/pipes/3857/{z}/{x}/{y}.pbf'),
    bounds,
    PIPE_DETAIL_ZOOMS.trunks,
    [
      {
        id: 'pipes',
        description: 'Pipe segments',
        minzoom: PIPE_DETAIL_ZOOMS.trunks,
        maxzoom: MAX_ZOOM,
        fields: { id: 'Number', pipeId: 'String', networkType: 'String', material: 'String', diameterMm: 'Number', installYear: 'Number', riskLevel: 'String' },
      },
    ],
    lang === 'zh-CN' ? '城市地下管网风险监测系统' : 'Urban underground pipeline risk monitoring',
  );
}

export async function basemapTileJson(db: Db, link: Link, lang: Language) {
  const [row] = await queryRows<{ x0: number | null; y0: number; x1: number; y1: number }>(db, sql`select min(minx) as x0, min(miny) as y0, max(maxx) as x1, max(maxy) as y1 from basemap_features`);
  return tileJson(
    lang === 'zh-CN' ? '内置底图' : 'Built-in basemap',
    lang === 'zh-CN' ? '水系、公园与街道' : 'Water, parks and streets',
    link('/tiles/basemap/3857/{z}/{x}/{y}.pbf'),
    row && row.x0 !== null ? [Number(row.x0), Number(row.y0), Number(row.x1), Number(row.y1)] : null,
    0,
    [
      { id: 'water', description: 'Rivers and lakes', minzoom: 0, maxzoom: MAX_ZOOM, fields: { kind: 'String', name: 'String' } },
      { id: 'parks', description: 'Parks', minzoom: 0, maxzoom: MAX_ZOOM, fields: { kind: 'String', name: 'String' } },
      { id: 'streets', description: 'Streets (kind street or mainStreet)', minzoom: 0, maxzoom: MAX_ZOOM, fields: { kind: 'String', name: 'String' } },
    ],
    lang === 'zh-CN' ? '城市地下管网风险监测系统' : 'Urban underground pipeline risk monitoring',
  );
}

/** Diameter classes a pipe line is drawn at: its width, and the diameter filter (legacy filter syntax, which every style reader takes). */
const WIDTH_CLASSES: { suffix: string; filter: unknown[]; width: number }[] = [
  { suffix: 'trunk', filter: ['>=', 'diameterMm', 800], width: pipeLineWidth(800) },
  { suffix: 'main', filter: ['all', ['>=', 'diameterMm', 300], ['<', 'diameterMm', 800]], width: pipeLineWidth(300) },
  { suffix: 'distribution', filter: ['any', ['!has', 'diameterMm'], ['<', 'diameterMm', 300]], width: pipeLineWidth(0) },
];

export function pipesStyle(link: Link, lang: Language) {
  // Sewers underneath, pressure pipes on top: later layers draw over earlier ones.
  const networks = [...NETWORK_TYPES].sort((a, b) => NETWORK_Z_INDEX[a] - NETWORK_Z_INDEX[b]);
  return {
    version: 8,
    name: lang === 'zh-CN' ? '管网' : 'Pipes',
    sources: { pipes: { type: 'vector', url: link('/tiles/pipes.json') } },
    layers: networks.flatMap((network) =>
      WIDTH_CLASSES.map(({ suffix, filter, width }) => ({
        id: `pipes-${network}-${suffix}`,
        type: 'line',
        source: 'pipes',
        'source-layer': 'pipes',
        filter: ['all', ['==', 'networkType', network], filter],
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': NETWORK_MAP_COLOR[network], 'line-width': width },
      })),
    ),
  };
}

export function basemapStyle(link: Link, lang: Language) {
  const palette = BASEMAP_PALETTE.light;
  const layer = (id: string, type: 'fill' | 'line', sourceLayer: string, paint: object, extra: object = {}) => ({ id, type, source: 'basemap', 'source-layer': sourceLayer, paint, ...extra });
  return {
    version: 8,
    name: lang === 'zh-CN' ? '内置底图' : 'Built-in basemap',
    sources: { basemap: { type: 'vector', url: link('/tiles/basemap.json') } },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': palette.background } },
      layer('water', 'fill', 'water', { 'fill-color': palette.water }),
      layer('parks', 'fill', 'parks', { 'fill-color': palette.parks }),
      layer('streets', 'line', 'streets', { 'line-color': palette.street, 'line-width': BASEMAP_STREET_WIDTH.street }, { filter: ['==', 'kind', 'street'], minzoom: BASEMAP_SIDE_STREET_MINZOOM }),
      layer('main-streets', 'line', 'streets', { 'line-color': palette.mainStreet, 'line-width': BASEMAP_STREET_WIDTH.mainStreet }, { filter: ['==', 'kind', 'mainStreet'] }),
    ],
  };
}
