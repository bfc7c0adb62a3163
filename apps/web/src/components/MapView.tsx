import { useEffect, useRef, useState } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import OlMap from 'ol/Map';
import View from 'ol/View';
import TileLayer from 'ol/layer/Tile';
import VectorTileLayer from 'ol/layer/VectorTile';
import VectorLayer from 'ol/layer/Vector';
import XYZ from 'ol/source/XYZ';
import WMTS, { optionsFromCapabilities } from 'ol/source/WMTS';
import VectorTileSource from 'ol/source/VectorTile';
import VectorSource from 'ol/source/Vector';
import MVT from 'ol/format/MVT';
import GeoJSON from 'ol/format/GeoJSON';
import WMTSCapabilities from 'ol/format/WMTSCapabilities';
import TileGrid from 'ol/tilegrid/TileGrid';
import { createXYZ } from 'ol/tilegrid';
import { Circle as CircleStyle, Fill, Stroke, Style, Text } from 'ol/style';
import { transformExtent } from 'ol/proj';
import { getCenter } from 'ol/extent';
import Draw from 'ol/interaction/Draw';
import Modify from 'ol/interaction/Modify';
import type { FeatureLike } from 'ol/Feature';
import type { Geometry } from 'ol/geom';
import { getArea, getLength } from 'ol/sphere';
import type VectorTile from 'ol/VectorTile';
import type BaseLayer from 'ol/layer/Base';
import 'ol/ol.css';
import { BASEMAP_PALETTE, BASEMAP_STREET_WIDTH, HEADERS, NETWORK_MAP_COLOR, NETWORK_Z_INDEX, pipeLineWidth, RISK_LEVEL_COLORS, type AreaGeometry, type BBox, type LineGeometry, type MapSettings, type NetworkType, type RiskLevel } from '@console/contract';
import { getToken, sessionStore, SESSION_KEYS } from '../utils/storage.ts';
import { materialLabel } from '../utils/format.ts';


export interface MapLayerVisibility {
  basemap: boolean;
  areas: boolean;
  /** Network types drawn; the others are hidden. */
  networks: NetworkType[];
  /** 0..1 per layer; 1 when not given. */
  opacity?: Partial<Record<'basemap' | 'areas' | 'pipes', number>>;
  /** Pipes coloured by network (default) or by composite risk level (the four-colour risk map). */
  colourBy?: 'network' | 'risk';
}

/** Not assessed yet, on the risk map. */
const UNASSESSED_COLOR = '#bfbfbf';
const RISK_Z_INDEX: Record<string, number> = { I: 4, II: 3, III: 2, IV: 1 };

export interface MapArea {
  id: number;
  name: string;
  area: AreaGeometry;
}

export interface MapOverlayFeature {
  id: number;
  /** An area (filled), a point (a dot), or a line: dashed with its text (a measured distance), or wide without (a pipe singled out). */
  geometry: AreaGeometry | LineGeometry | { type: 'Point'; coordinates: number[] };
  color: string;
  /** Shown on hover. */
  label?: string;
  /** Written on the map beside it, always (a distance, say); texts of one group stack by `textRow`. */
  text?: string;
  textRow?: number;
  selected?: boolean;
  /** Outline only (for stacked footprints); filled by default. */
  outline?: boolean;
}

/** A group of areas drawn over the pipes (POIs, footprints), in its own layer. */
export interface MapOverlay {
  key: string;
  features: MapOverlayFeature[];
  visible?: boolean;
  opacity?: number;
  /** Clicking one of its areas reports the area's id. */
  onClick?: (id: number) => void;
}

export type MeasureMode = 'distance' | 'area';

interface MapViewProps {
  settings: MapSettings;
  areas?: MapArea[];
  visibility?: MapLayerVisibility;
  /** Fit the view to these areas instead of the settings' extent. */
  fitAreas?: boolean;
  onPipeClick?: (properties: Record<string, unknown>) => void;
  height?: number | string;
  /** A pipe to outline and centre on (the selected row of a table). */
  highlight?: LineGeometry | null;
  /** [minLon, minLat, maxLon, maxLat] to show, e.g. what an import just added. */
  focus?: BBox | null;
  /** Pixels at the window's right edge a panel covers (an open drawer): `focus` is fitted beside it. */
  coveredRight?: number;
  /** Change it to reload the pipe tiles (after an import or edit). */
  pipesRevision?: number;
  /** Groups of areas drawn over the pipes (POIs, footprints), each area in its colour; later groups on top. */
  overlays?: MapOverlay[];
  /** Measures a line or polygon the user draws (double-click ends it); the result shows on the map. */
  measure?: MeasureMode | null;
  /** Lets the user draw one polygon (click the corners, double-click to finish) and drag its corners. */
  drawArea?: { value: AreaGeometry | null; onChange: (area: AreaGeometry | null) => void };
  /**
   * Adds a screen's own layers and interactions to the map (settlement points, say); returns how
   * to remove them. Called again when it changes (keep it stable) or the map is rebuilt.
   */
  extend?: (map: OlMap) => (() => void) | void;
  /** The built-in basemap's palette: light (default) or dark (the big screen). */
  theme?: 'light' | 'dark';
}

const ALL_NETWORKS = Object.keys(NETWORK_MAP_COLOR) as NetworkType[];
const DEFAULT_VISIBILITY: MapLayerVisibility = { basemap: true, areas: true, networks: ALL_NETWORKS };

/** The WGS84 tile grid of our vector tiles and of Tianditu 'c': two 180-degree tiles at zoom 0. */
function wgs84Grid(tileSize: number) {
  return new TileGrid({
    extent: [-180, -90, 180, 90],
    origin: [-180, 90],
    tileSize,
    resolutions: Array.from({ length: 23 }, (_, z) => 180 / tileSize / 2 ** z),
  });
}

const gridFor = (srid: number, tileSize = 256) => (srid === 4326 ? wgs84Grid(tileSize) : createXYZ({ tileSize, maxZoom: 22 }));

/** Vector tiles of our API carry the token and the current enterprise. */
function authorisedTileLoad(tile: VectorTile<FeatureLike>, url: string) {
  tile.setLoader((extent, _resolution, projection) => {
    const headers: Record<string, string> = {};
    const token = getToken();
    const enterprise = sessionStore.get(SESSION_KEYS.enterpriseId);
    if (token) headers[HEADERS.token] = token;
    if (enterprise) headers[HEADERS.enterprise] = enterprise;
    void fetch(url, { headers })
      .then((response) => (response.ok ? response.arrayBuffer() : Promise.reject(new Error(String(response.status)))))
      .then((data) => {
        const format = tile.getFormat();
        tile.setFeatures(format.readFeatures(data, { extent, featureProjection: projection }) as never);
      })
      .catch(() => tile.setFeatures([]));
  });
}

/** Map units per pixel at about zoom 13, where distribution pipes appear. */
const DETAIL_RESOLUTION: Record<number, number> = { 3857: 19, 4326: 1.7e-4 };

const basemapStyle = (palette: (typeof BASEMAP_PALETTE)['light' | 'dark']): Record<string, Style> => ({
  water: new Style({ fill: new Fill({ color: palette.water }) }),
  parks: new Style({ fill: new Fill({ color: palette.parks }) }),
  street: new Style({ stroke: new Stroke({ color: palette.street, width: BASEMAP_STREET_WIDTH.street }) }),
  mainStreet: new Style({ stroke: new Stroke({ color: palette.mainStreet, width: BASEMAP_STREET_WIDTH.mainStreet }) }),
});
// The light map, and the big screen's night palette: the network in its colours stands out on it.
const BASEMAP_STYLE = { light: basemapStyle(BASEMAP_PALETTE.light), dark: basemapStyle(BASEMAP_PALETTE.dark) };
const BASEMAP_BACKGROUND = { light: BASEMAP_PALETTE.light.background, dark: BASEMAP_PALETTE.dark.background };

/** The basemap layer the enterprise's map settings describe, or an error to show. */
async function basemapLayer(settings: MapSettings, t: (key: string) => string, theme: 'light' | 'dark'): Promise<BaseLayer | null> {
  const url = settings.serviceUrl ?? '';
  switch (settings.serviceType) {
    case 'none':
      return null;
    case 'XYZ': {
      const template = url.replace('{grid}', String(settings.srid));
      if (/\.pbf($|\?)/.test(template)) {
        return new VectorTileLayer({
          source: new VectorTileSource({ format: new MVT(), url: template, tileGrid: gridFor(settings.srid, 512), projection: `EPSG:${settings.srid}` }),
          background: BASEMAP_BACKGROUND[theme],
          style: (feature, resolution) => {
            const kind = String(feature.get('kind'));
            // Side streets only from about zoom 12: further out they are noise under the mains.
            if (kind === 'street' && resolution > 2 * DETAIL_RESOLUTION[settings.srid]) return undefined;
            return BASEMAP_STYLE[theme][kind === 'river' ? 'water' : kind === 'park' ? 'parks' : kind];
          },
        });
      }
      return new TileLayer({ source: new XYZ({ url: template, tileGrid: gridFor(settings.srid, settings.tileSize), projection: `EPSG:${settings.srid}` }) });
    }
    case 'ArcGIS': {
      let { origin, resolutions } = settings;
      if (!origin || !resolutions) {
        // A cached ArcGIS service describes its tile grid at ?f=json.
        const info = await fetch(`${url}?f=json`).then((r) => r.json()).catch(() => null);
        const tileInfo = info?.tileInfo;
        if (!tileInfo) throw new Error(t('map.arcgisNoGrid'));
        origin = [tileInfo.origin.x, tileInfo.origin.y];
        resolutions = tileInfo.lods.map((lod: { resolution: number }) => lod.resolution);
      }
      return new TileLayer({
        source: new XYZ({
          url: `${url.replace(/\/$/, '')}/tile/{z}/{y}/{x}`,
          projection: `EPSG:${settings.srid}`,
          tileGrid: new TileGrid({ origin, resolutions: resolutions!, tileSize: settings.tileSize, extent: settings.extent }),
        }),
      });
    }
    case 'WMTS': {
      const text = await fetch(url).then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status))))).catch(() => null);
      if (!text) throw new Error(t('map.wmtsUnreachable'));
      const capabilities = new WMTSCapabilities().read(text);
      const options = optionsFromCapabilities(capabilities, { layer: settings.layerName ?? '', projection: `EPSG:${settings.srid}` });
      if (!options) throw new Error(t('map.wmtsNoLayer'));
      return new TileLayer({ source: new WMTS(options) });
    }
  }
}

/**
 * Areas over the map: filled in their colour (outlined only when asked), the selected one darker
 * and edged; lines dashed. A feature's text is written beside it.
 */
function overlayStyle(feature: FeatureLike) {
  const color = String(feature.get('color'));
  const selected = Boolean(feature.get('selected'));
  const text = feature.get('text') ? new Text({ text: String(feature.get('text')), font: 'bold 12px sans-serif', fill: new Fill({ color: '#141414' }), stroke: new Stroke({ color: '#ffffff', width: 3 }), offsetY: -10 - 16 * Number(feature.get('textRow') ?? 0), overflow: true }) : undefined;
  // A line with text is a measurement (dashed); one without, a pipe singled out (wide).
  if (feature.getGeometry()?.getType().endsWith('LineString')) {
    return text ? new Style({ stroke: new Stroke({ color, width: 2.5, lineDash: [6, 4] }), text, zIndex: 2 }) : new Style({ stroke: new Stroke({ color, width: 5 }), zIndex: 1 });
  }
  if (feature.getGeometry()?.getType() === 'Point') {
    return new Style({ image: new CircleStyle({ radius: selected ? 9 : 7, fill: new Fill({ color }), stroke: new Stroke({ color: selected ? '#141414' : '#ffffff', width: 2 }) }), text, zIndex: 3 });
  }
  const fill = selected || !feature.get('outline') ? new Fill({ color: `${color}${selected ? '66' : '33'}` }) : undefined;
  return new Style({ stroke: new Stroke({ color: selected ? '#141414' : color, width: selected ? 3 : 2 }), fill, text });
}

const formatLength = (metres: number) => (metres < 1000 ? `${metres.toFixed(1)} m` : `${(metres / 1000).toFixed(3)} km`);
const formatArea = (squareMetres: number) =>
  squareMetres < 1e6 ? `${Math.round(squareMetres).toLocaleString()} m² (${(squareMetres / 1e4).toFixed(2)} ha)` : `${(squareMetres / 1e6).toFixed(3)} km²`;


function pipeStyle(visible: Set<string>, srid: number, colourBy: 'network' | 'risk') {
  const cache = new Map<string, Style>();
  return (feature: FeatureLike, resolution: number) => {
    const type = String(feature.get('networkType'));
    if (!visible.has(type)) return undefined;
    const diameter = Number(feature.get('diameterMm') ?? 100);
    // Wider for bigger pipes, thinner when zoomed out (resolution in map units per pixel).
    const zoomedOut = resolution > DETAIL_RESOLUTION[srid];
    const width = pipeLineWidth(diameter) * (zoomedOut ? 0.6 : 1) * (colourBy === 'risk' ? 1.5 : 1);
    const level = colourBy === 'risk' ? String(feature.get('riskLevel') ?? '') : '';
    const key = `${type}:${width}:${level}`;
    if (!cache.has(key)) {
      const color = colourBy === 'risk' ? (RISK_LEVEL_COLORS[level as RiskLevel] ?? UNASSESSED_COLOR) : (NETWORK_MAP_COLOR[type as NetworkType] ?? '#595959');
      // On the risk map the worst lie on top.
      cache.set(key, new Style({ stroke: new Stroke({ color, width }), zIndex: colourBy === 'risk' ? (RISK_Z_INDEX[level] ?? 0) : (NETWORK_Z_INDEX[type as NetworkType] ?? 1) }));
    }
    return cache.get(key);
  };
}

/**
 * The console's map: the enterprise's basemap service (ArcGIS cached tiles, WMTS, XYZ or none,
 * in EPSG:4326 or 3857), the enterprise's pipes as vector tiles styled by network type, and
 * project areas. Wrong settings show a readable error over the map.
 */
/** Padding of a fit: `base` on every side, and the part of the map under a panel at the window's right edge (`coveredRight` px) does not count as room. */
function paddingBeside(map: OlMap, base: number, coveredRight: number): [number, number, number, number] {
  const box = map.getTargetElement()?.getBoundingClientRect();
  const hidden = box && coveredRight ? Math.max(0, Math.min(box.width - 3 * base, box.right - (window.innerWidth - coveredRight))) : 0;
  return [base, base + hidden, base, base];
}

export function MapView({ settings, areas = [], visibility = DEFAULT_VISIBILITY, fitAreas, onPipeClick, height = 480, highlight, focus, coveredRight = 0, pipesRevision, drawArea, overlays, measure, extend, theme = 'light' }: MapViewProps) {
  const { t } = useTranslation();
  const target = useRef<HTMLDivElement>(null);
  const tooltip = useRef<HTMLDivElement>(null);
  const map = useRef<OlMap | null>(null);
  const layers = useRef<{ basemap: BaseLayer | null; pipes: VectorTileLayer; areas: VectorLayer; highlight: VectorLayer; overlays: Map<string, VectorLayer> } | null>(null);
  const overlaysRef = useRef(overlays);
  overlaysRef.current = overlays;
  const measureRef = useRef(measure);
  measureRef.current = measure;
  const measured = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const clickRef = useRef(onPipeClick);
  clickRef.current = onPipeClick;
  const visibilityRef = useRef(visibility);
  visibilityRef.current = visibility;

  // (Re)build the map when the settings change.
  useEffect(() => {
    if (!target.current) return;
    const projection = `EPSG:${settings.srid}`;
    const pipes = new VectorTileLayer({
      source: new VectorTileSource({
        format: new MVT(),
        url: `/api/tiles/pipes/${settings.srid}/{z}/{x}/{y}.pbf`,
        tileGrid: gridFor(settings.srid, 512),
        projection,
        tileLoadFunction: authorisedTileLoad as never,
      }),
      declutter: false,
      // The server draws no pipes in tiles below its zoom 8 (view zoom 9 with 512-pixel tiles): do not ask.
      minZoom: 8,
    });
    const areaLayer = new VectorLayer({
      source: new VectorSource(),
      style: new Style({ stroke: new Stroke({ color: '#f5222d', width: 2, lineDash: [8, 6] }), fill: new Fill({ color: 'rgba(245,34,45,0.05)' }) }),
    });
    const highlightLayer = new VectorLayer({
      source: new VectorSource(),
      style: [new Style({ stroke: new Stroke({ color: 'rgba(250,219,20,0.85)', width: 10 }) }), new Style({ stroke: new Stroke({ color: '#141414', width: 2 }) })],
    });
    const extent = settings.extent ? transformExtent(settings.extent, 'EPSG:4326', projection) : undefined;
    const instance = new OlMap({
      target: target.current,
      layers: [pipes, areaLayer, highlightLayer],
      view: new View({ projection, center: extent ? getCenter(extent) : transformExtent([120.2, 30.2, 120.2, 30.2], 'EPSG:4326', projection).slice(0, 2), zoom: settings.zoomLevel }),
    });
    map.current = instance;
    // Marked once the first frame with every layer loaded is drawn: what "the map shows its data" means to a test or the bench.
    instance.once('rendercomplete', () => target.current?.parentElement?.setAttribute('data-drawn', 'true'));
    const overlayLayers = new Map<string, VectorLayer>();
    layers.current = { basemap: null, pipes, areas: areaLayer, highlight: highlightLayer, overlays: overlayLayers };
    const isOverlay = (layer: unknown) => [...overlayLayers.values()].includes(layer as VectorLayer);
    setError(null);
    let cancelled = false;
    basemapLayer(settings, t, theme)
      .then((layer) => {
        if (cancelled || !layer) return;
        instance.getLayers().insertAt(0, layer);
        layers.current!.basemap = layer;
        layer.setVisible(visibilityRef.current.basemap);
        layer.setOpacity(visibilityRef.current.opacity?.basemap ?? 1);
      })
      .catch((failure: Error) => !cancelled && setError(failure.message));

    instance.on('pointermove', (event) => {
      const element = tooltip.current!;
      if (measureRef.current) return void (element.style.display = 'none');
      const area = instance.forEachFeatureAtPixel(event.pixel, (f) => f, { layerFilter: isOverlay });
      if (area?.get('label')) {
        element.style.display = 'block';
        element.style.left = `${event.pixel[0] + 12}px`;
        element.style.top = `${event.pixel[1] + 12}px`;
        element.textContent = String(area.get('label'));
        return;
      }
      const feature = instance.forEachFeatureAtPixel(event.pixel, (f) => f, { layerFilter: (l) => l === pipes, hitTolerance: 4 });
      if (!feature) {
        element.style.display = 'none';
        return;
      }
      element.style.display = 'block';
      element.style.left = `${event.pixel[0] + 12}px`;
      element.style.top = `${event.pixel[1] + 12}px`;
      const network = `${t(`network.${feature.get('networkType')}`)} · DN${feature.get('diameterMm') ?? '-'}`;
      // Overview tiles (trunk mains when zoomed out) carry no single pipe, only its network and size.
      element.textContent = feature.get('pipeId') ? `${feature.get('pipeId')} · ${network} · ${materialLabel(t, feature.get('material'))}` : `${network} · ${t('map.zoomInForPipe')}`;
    });
    instance.on('singleclick', (event) => {
      if (measureRef.current) return;
      // The topmost area under the pointer answers, through its group's onClick.
      const hit = instance.forEachFeatureAtPixel(event.pixel, (f, layer) => ({ f, layer }), { layerFilter: isOverlay });
      if (hit) {
        const key = [...overlayLayers.entries()].find(([, l]) => l === hit.layer)?.[0];
        const onClick = overlaysRef.current?.find((o) => o.key === key)?.onClick;
        if (onClick) return onClick(Number(hit.f.get('overlayId')));
      }
      const feature = instance.forEachFeatureAtPixel(event.pixel, (f) => f, { layerFilter: (l) => l === pipes, hitTolerance: 4 });
      if (feature?.get('pipeId')) clickRef.current?.(feature.getProperties());
    });
    return () => {
      cancelled = true;
      instance.setTarget(undefined);
      map.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [JSON.stringify(settings), theme]);

  useEffect(() => {
    const l = layers.current;
    if (!l) return;
    l.basemap?.setVisible(visibility.basemap);
    l.basemap?.setOpacity(visibility.opacity?.basemap ?? 1);
    l.areas.setVisible(visibility.areas);
    l.areas.setOpacity(visibility.opacity?.areas ?? 1);
    l.pipes.setStyle(pipeStyle(new Set(visibility.networks), settings.srid, visibility.colourBy ?? 'network'));
    l.pipes.setOpacity(visibility.opacity?.pipes ?? 1);
  }, [visibility, settings]);

  useEffect(() => {
    const l = layers.current;
    const instance = map.current;
    if (!l || !instance) return;
    const source = l.areas.getSource()!;
    source.clear();
    const format = new GeoJSON({ dataProjection: 'EPSG:4326', featureProjection: `EPSG:${settings.srid}` });
    for (const a of areas) {
      const feature = format.readFeature({ type: 'Feature', geometry: a.area, properties: { name: a.name } });
      source.addFeatures(Array.isArray(feature) ? feature : [feature]);
    }
    if (fitAreas && areas.length) instance.getView().fit(source.getExtent()!, { padding: [32, 32, 32, 32], maxZoom: 17 });
  }, [areas, fitAreas, settings]);

  useEffect(() => {
    const l = layers.current;
    const instance = map.current;
    if (!l || !instance) return;
    const source = l.highlight.getSource()!;
    source.clear();
    if (!highlight) return;
    const feature = new GeoJSON({ dataProjection: 'EPSG:4326', featureProjection: `EPSG:${settings.srid}` }).readFeature({ type: 'Feature', geometry: highlight, properties: {} });
    source.addFeatures(Array.isArray(feature) ? feature : [feature]);
    instance.getView().fit(source.getExtent()!, { padding: paddingBeside(instance, 80, coveredRight), maxZoom: 17, duration: 300 });
  }, [highlight, settings, coveredRight]);

  useEffect(() => {
    if (focus && map.current) {
      map.current.getView().fit(transformExtent(focus, 'EPSG:4326', `EPSG:${settings.srid}`), { padding: paddingBeside(map.current, 40, coveredRight), maxZoom: 18 });
    }
  }, [focus, settings, coveredRight]);

  useEffect(() => {
    if (pipesRevision) layers.current?.pipes.getSource()?.refresh();
  }, [pipesRevision]);

  // Each overlay group in its own layer, above the project areas and below the highlight.
  useEffect(() => {
    const l = layers.current;
    const instance = map.current;
    if (!l || !instance) return;
    const format = new GeoJSON({ dataProjection: 'EPSG:4326', featureProjection: `EPSG:${settings.srid}` });
    const keys = new Set((overlays ?? []).map((o) => o.key));
    for (const [key, layer] of l.overlays) {
      if (keys.has(key)) continue;
      instance.removeLayer(layer);
      l.overlays.delete(key);
    }
    for (const group of overlays ?? []) {
      let layer = l.overlays.get(group.key);
      if (!layer) {
        layer = new VectorLayer({ source: new VectorSource(), style: overlayStyle });
        instance.getLayers().insertAt(instance.getLayers().getArray().indexOf(l.highlight), layer);
        l.overlays.set(group.key, layer);
      }
      const source = layer.getSource()!;
      source.clear();
      for (const f of group.features) {
        const feature = format.readFeature({ type: 'Feature', geometry: f.geometry, properties: { overlayId: f.id, color: f.color, selected: f.selected ?? false, label: f.label, text: f.text, textRow: f.textRow, outline: f.outline ?? false } });
        source.addFeatures(Array.isArray(feature) ? feature : [feature]);
      }
      layer.setVisible(group.visible ?? true);
      layer.setOpacity(group.opacity ?? 1);
    }
  }, [overlays, settings]);

  // Once per map (the map is made again only when the settings' content changes, not their object).
  useEffect(() => {
    if (!map.current || !extend) return;
    return extend(map.current) ?? undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [extend, JSON.stringify(settings)]);

  // Measuring: one line or polygon at a time, its length or area (on the sphere) shown as it is drawn.
  useEffect(() => {
    const instance = map.current;
    const output = measured.current;
    if (!instance || !output || !measure) return;
    const projection = instance.getView().getProjection();
    const source = new VectorSource();
    const layer = new VectorLayer({ source, style: new Style({ stroke: new Stroke({ color: '#fadb14', width: 3, lineDash: [6, 4] }), fill: new Fill({ color: 'rgba(250,219,20,0.2)' }) }) });
    instance.addLayer(layer);
    const draw = new Draw({ source, type: measure === 'distance' ? 'LineString' : 'Polygon' });
    instance.addInteraction(draw);
    const show = (geometry: Geometry) => {
      output.style.display = 'block';
      output.textContent = measure === 'distance' ? formatLength(getLength(geometry, { projection })) : formatArea(getArea(geometry, { projection }));
    };
    output.style.display = 'block';
    output.textContent = t(measure === 'distance' ? 'map.measureDistanceHint' : 'map.measureAreaHint');
    draw.on('drawstart', (event) => {
      source.clear();
      const geometry = event.feature.getGeometry()!;
      geometry.on('change', () => show(geometry));
    });
    draw.on('drawend', (event) => show(event.feature.getGeometry()!));
    return () => {
      instance.removeInteraction(draw);
      instance.removeLayer(layer);
      output.style.display = 'none';
    };
  }, [measure, settings, t]);

  // Drawing an area: one polygon, drawn while there is none, reshaped by dragging its corners.
  const drawRef = useRef(drawArea);
  drawRef.current = drawArea;
  const drawn = useRef<{ source: VectorSource; json: string | null } | null>(null);
  const drawing = Boolean(drawArea);
  useEffect(() => {
    const instance = map.current;
    if (!instance || !drawing) return;
    const format = new GeoJSON({ dataProjection: 'EPSG:4326', featureProjection: `EPSG:${settings.srid}` });
    const source = new VectorSource();
    const layer = new VectorLayer({
      source,
      style: new Style({ stroke: new Stroke({ color: '#1677ff', width: 2 }), fill: new Fill({ color: 'rgba(22,119,255,0.12)' }) }),
    });
    instance.addLayer(layer);
    const draw = new Draw({ source, type: 'Polygon' });
    const modify = new Modify({ source });
    instance.addInteraction(modify);
    instance.addInteraction(draw);
    drawn.current = { source, json: null };
    const emit = () => {
      const feature = source.getFeatures()[0];
      const area = feature ? (format.writeGeometryObject(feature.getGeometry()!, { decimals: 7 }) as AreaGeometry) : null;
      drawn.current!.json = area ? JSON.stringify(area) : null;
      draw.setActive(!area);
      drawRef.current?.onChange(area);
    };
    draw.on('drawend', () => setTimeout(emit));
    modify.on('modifyend', emit);
    return () => {
      instance.removeInteraction(draw);
      instance.removeInteraction(modify);
      instance.removeLayer(layer);
      drawn.current = null;
    };
  }, [drawing, settings]);

  // A value from outside (an existing project, or cleared) replaces what is drawn.
  const drawValue = drawArea?.value ?? null;
  useEffect(() => {
    const state = drawn.current;
    const instance = map.current;
    if (!state || !instance) return;
    const json = drawValue ? JSON.stringify(drawValue) : null;
    if (json === state.json) return;
    state.source.clear();
    state.json = json;
    instance.getInteractions().forEach((i) => i instanceof Draw && i.setActive(!drawValue));
    if (!drawValue) return;
    const format = new GeoJSON({ dataProjection: 'EPSG:4326', featureProjection: `EPSG:${settings.srid}` });
    const feature = format.readFeature({ type: 'Feature', geometry: drawValue, properties: {} });
    state.source.addFeatures(Array.isArray(feature) ? feature : [feature]);
    instance.getView().fit(state.source.getExtent()!, { padding: [30, 30, 30, 30], maxZoom: 17 });
  }, [drawValue, drawing, settings]);

  return (
    <div style={{ position: 'relative', height }} data-testid="map-view">
      <div ref={target} style={{ position: 'absolute', inset: 0 }} />
      <div ref={measured} data-testid="measure-result" style={{ position: 'absolute', display: 'none', bottom: 12, left: '50%', transform: 'translateX(-50%)', background: 'rgba(0,0,0,0.8)', color: '#fff', padding: '4px 12px', borderRadius: 4, fontSize: 13, pointerEvents: 'none' }} />
      <div ref={tooltip} data-testid="map-tooltip" style={{ position: 'absolute', display: 'none', pointerEvents: 'none', background: 'rgba(0,0,0,0.75)', color: '#fff', padding: '2px 8px', borderRadius: 4, fontSize: 12, whiteSpace: 'nowrap' }} />
      {error && <Alert type="error" showIcon message={t('map.basemapFailed')} description={error} style={{ position: 'absolute', top: 12, left: 12, right: 12 }} data-testid="map-error" />}
    </div>
  );
}
