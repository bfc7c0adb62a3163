import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type OlMap from 'ol/Map';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import Polygon, { fromCircle } from 'ol/geom/Polygon';
import type Circle from 'ol/geom/Circle';
import VectorSource from 'ol/source/Vector';
import VectorLayer from 'ol/layer/Vector';
import WebGLPointsLayer from 'ol/layer/WebGLPoints';
import Draw, { createBox } from 'ol/interaction/Draw';
import { Circle as CircleStyle, Fill, Stroke, Style, Text } from 'ol/style';
import { fromLonLat, transformExtent } from 'ol/proj';
import type { FlatStyle } from 'ol/style/flat';
import { SETTLEMENT_POINT_RESOLUTION_M, type AreaGeometry, type MapSettings, type SettlementBands, type SettlementDataset, type SettlementWindow } from '@console/contract';
import { settlementApi, type WindowQuery } from '../../api/settlement.ts';
import { MapView } from '../../components/MapView.tsx';
import { pictureWhileMoving } from '../../components/movingPicture.ts';
import { colourExpression, type ColourMode } from './colors.ts';

export type SelectionTool = 'click' | 'polygon' | 'box' | 'circle';

export interface PointFilters {
  velocityMin?: number;
  velocityMax?: number;
  coherenceMin?: number;
  /** Displacement between these two date indexes instead of velocity. */
  between?: [number, number] | null;
}

interface SettlementMapProps {
  settings: MapSettings;
  dataset: SettlementDataset;
  bands: SettlementBands;
  mode: ColourMode;
  range: number;
  filters: PointFilters;
  tool: SelectionTool;
  /** Points picked so far (numbered rings on the map). */
  selected: { id: number; lon: number; lat: number }[];
  area: AreaGeometry | null;
  onPick(id: number): void;
  onArea(area: AreaGeometry): void;
  height?: number;
}

/** How the map reports its state to the page (tests and the legend read it). */
export interface WindowState {
  kind: SettlementWindow['kind'];
  cellM: number | null;
  count: number;
  truncated: boolean;
  every: number;
}

/** Single points as dots growing with the zoom; cells as squares of their size (radius "r": half the side, in pixels). */
const styleOf = (mode: ColourMode, bands: SettlementBands, range: number, kind: SettlementWindow['kind']): FlatStyle =>
  kind === 'cells'
    ? {
        'shape-points': 4,
        'shape-radius': ['*', ['get', 'r'], Math.SQRT2],
        'shape-angle': Math.PI / 4,
        'shape-fill-color': colourExpression(mode, bands, range) as never,
        'shape-opacity': 0.75,
      }
    : {
        'circle-radius': ['interpolate', ['linear'], ['zoom'], 13, 2.5, 19, 7],
        'circle-fill-color': colourExpression(mode, bands, range) as never,
        'circle-stroke-color': 'rgba(20,20,20,0.35)',
        'circle-stroke-width': 0.6,
        'circle-opacity': 0.92,
      };

const selectedStyle = (feature: { get(key: string): unknown }) =>
  new Style({
    image: new CircleStyle({ radius: 9, stroke: new Stroke({ color: '#141414', width: 2.5 }), fill: new Fill({ color: 'rgba(255,255,255,0.15)' }) }),
    text: new Text({ text: String(feature.get('n')), offsetY: -16, font: 'bold 12px sans-serif', fill: new Fill({ color: '#141414' }), stroke: new Stroke({ color: '#fff', width: 3 }) }),
  });

/**
 * The settlement map: the dataset's points drawn with WebGL, coloured by velocity (or by the
 * displacement between two dates), or grid cells when zoomed out; picks points by click and
 * areas by polygon, rectangle or circle. Each view change loads only its window.
 */
export function SettlementMap({ settings, dataset, bands, mode, range, filters, tool, selected, area, onPick, onArea, height = 600 }: SettlementMapProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<WindowState | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const tooltip = useRef<HTMLDivElement>(null);
  const velocityUnit = t('settlement.unit.velocity');
  const live = useRef({ mode, bands, range, filters, tool, onPick, onArea, velocityUnit });
  live.current = { mode, bands, range, filters, tool, onPick, onArea, velocityUnit };
  const handles = useRef<{
    map: OlMap;
    points: WebGLPointsLayer<VectorSource<Feature<Point>>>;
    moving: ReturnType<typeof pictureWhileMoving>;
    source: VectorSource<Feature<Point>>;
    marks: VectorSource;
    kind: SettlementWindow['kind'];
    load(force?: boolean): void;
  } | null>(null);

  /** A WebGL layer's style is fixed: a new layer takes the old one's place (same source). */
  const restyle = (kind: SettlementWindow['kind']) => {
    const h = handles.current;
    if (!h) return;
    const layers = h.map.getLayers();
    const next = new WebGLPointsLayer({ source: h.source, style: styleOf(live.current.mode, live.current.bands, live.current.range, kind), disableHitDetection: true });
    layers.setAt(layers.getArray().indexOf(h.points), next);
    h.points.dispose();
    h.points = next;
    h.moving.track(next);
    h.kind = kind;
  };

  const extend = useCallback(
    (map: OlMap) => {
      const projection = map.getView().getProjection();
      map.getView().fit(transformExtent(dataset.bbox, 'EPSG:4326', projection), { padding: [30, 30, 30, 30], maxZoom: 17 });
      // The first layer already of the kind the first window will be (a WebGL layer made twice costs a shader build at start).
      const metresPerPixel = (map.getView().getResolution() ?? 0) * (projection.getMetersPerUnit() ?? 1);
      const firstKind: SettlementWindow['kind'] = metresPerPixel > SETTLEMENT_POINT_RESOLUTION_M ? 'cells' : 'points';
      const source = new VectorSource<Feature<Point>>();
      const points = new WebGLPointsLayer({ source, style: styleOf(live.current.mode, live.current.bands, live.current.range, firstKind), disableHitDetection: true });
      const marks = new VectorSource();
      const marksLayer = new VectorLayer({ source: marks, style: (f) => (f.getGeometry()?.getType() === 'Point' ? selectedStyle(f) : new Style({ stroke: new Stroke({ color: '#1677ff', width: 2 }), fill: new Fill({ color: 'rgba(22,119,255,0.1)' }) })) });
      // While the view moves the points are a picture: drawing them all each frame is too slow in software WebGL.
      const moving = pictureWhileMoving(map, points);
      map.addLayer(points);
      map.addLayer(moving.picture);
      map.addLayer(marksLayer);
      let controller: AbortController | null = null;
      let pendingKey = '';
      /** What the layer holds: its window (lon/lat), at which resolution, for which filters. */
      let loaded: { box: number[]; resolution: number; filters: string; kind: SettlementWindow['kind'] } | null = null;
      const load = (force = false) => {
        const size = map.getSize();
        const resolution = map.getView().getResolution();
        if (!size || !resolution) return;
        const view = transformExtent(map.getView().calculateExtent(size), projection, 'EPSG:4326');
        const filterKey = JSON.stringify(live.current.filters);
        // A pan or small zoom that stays inside what is loaded (a margin of half a view around the
        // view it was loaded for) needs no new window: no request, no layer rebuilt while moving.
        // Cells are sized for their resolution: only a pan keeps them.
        const zoomKept = loaded?.kind === 'points' ? 1.2 : 1.001;
        if (
          !force &&
          loaded &&
          loaded.filters === filterKey &&
          resolution <= loaded.resolution * zoomKept &&
          resolution >= loaded.resolution / zoomKept &&
          view[0] >= loaded.box[0] && view[1] >= loaded.box[1] && view[2] <= loaded.box[2] && view[3] <= loaded.box[3]
        ) return;
        const marginX = (view[2] - view[0]) / 2, marginY = (view[3] - view[1]) / 2;
        const [w, s, e, n] = [view[0] - marginX, view[1] - marginY, view[2] + marginX, view[3] + marginY];
        const [dw, ds, de, dn] = dataset.bbox;
        const box = [Math.max(w, dw), Math.max(s, ds), Math.min(e, de), Math.min(n, dn)];
        const metresPerPixel = resolution * (projection.getMetersPerUnit() ?? 1);
        const { filters: f } = live.current;
        if (box[0] > box[2] || box[1] > box[3]) {
          source.clear();
          return setState({ kind: 'points', cellM: null, count: 0, truncated: false, every: 1 });
        }
        // Rounded outwards: a point on the dataset's edge stays inside the window.
        const outwards = [Math.floor(box[0] * 1e6) / 1e6, Math.floor(box[1] * 1e6) / 1e6, Math.ceil(box[2] * 1e6) / 1e6, Math.ceil(box[3] * 1e6) / 1e6];
        const query: WindowQuery = { bbox: outwards.join(','), resolution: metresPerPixel, velocityMin: f.velocityMin, velocityMax: f.velocityMax, coherenceMin: f.coherenceMin };
        if (f.between) [query.from, query.to] = f.between;
        // The same window already on its way (the first view asks twice: on mount and on its first moveend).
        const queryKey = JSON.stringify(query);
        if (controller && !controller.signal.aborted && pendingKey === queryKey) return;
        controller?.abort();
        const mine = (controller = new AbortController());
        pendingKey = queryKey;
        settlementApi
          .window(dataset.id, query, mine.signal)
          .then(({ result }) => {
            const radius = result.cellM ? Math.max(3, Math.min(30, result.cellM / metresPerPixel / 2)) : 0;
            if (handles.current && handles.current.kind !== result.kind) restyle(result.kind);
            source.clear(true);
            source.addFeatures(
              result.lon.map((lon, i) => {
                const feature = new Feature({ geometry: new Point(fromLonLat([lon, result.lat[i]], projection)), value: result.value[i], r: radius, count: result.count[i] ?? 0 });
                if (result.ids.length) feature.setId(result.ids[i]);
                return feature;
              }),
            );
            setFailed(null);
            loaded = { box: [w, s, e, n], resolution, filters: filterKey, kind: result.kind };
            setState({ kind: result.kind, cellM: result.cellM, count: result.lon.length, truncated: result.truncated, every: result.every });
          })
          .finally(() => mine === controller && (pendingKey = ''))
          .catch((error: Error) => {
            // A window the user has already moved away from was cancelled: no error.
            if (!mine.signal.aborted) setFailed(error.message);
          });
      };
      const onMoveEnd = () => load();
      map.on('moveend', onMoveEnd);
      /**
       * The point or cell under the pointer: the nearest by the source's spatial index, if within
       * its drawn size (the layer's own hit detection would double the work of every rebuild).
       */
      const pointAt = (pixel: number[]) => {
        const feature = source.getClosestFeatureToCoordinate(map.getCoordinateFromPixel(pixel));
        if (!feature) return null;
        const at = map.getPixelFromCoordinate(feature.getGeometry()!.getCoordinates());
        const reach = Math.max(6, Number(feature.get('r')) * 1.2);
        return Math.hypot(at[0] - pixel[0], at[1] - pixel[1]) <= reach ? feature : null;
      };
      const onClick = (event: { pixel: number[] }) => {
        if (live.current.tool !== 'click') return;
        const hit = pointAt(event.pixel);
        const id = hit?.getId();
        if (id !== undefined) live.current.onPick(Number(id));
      };
      const onPointer = (event: { pixel: number[]; dragging: boolean }) => {
        const element = tooltip.current;
        if (!element || event.dragging) return;
        const hit = pointAt(event.pixel);
        if (!hit) return void (element.style.display = 'none');
        element.style.display = 'block';
        element.style.left = `${event.pixel[0] + 12}px`;
        element.style.top = `${event.pixel[1] + 12}px`;
        const value = Number(hit.get('value')).toFixed(1);
        const unit = live.current.filters.between ? 'mm' : live.current.velocityUnit;
        element.textContent = hit.get('r') > 0 ? `${value} ${unit} · ${hit.get('count')}` : `${value} ${unit}`;
      };
      map.on('singleclick', onClick as never);
      map.on('pointermove', onPointer as never);
      handles.current = { map, points, moving, source, marks, kind: firstKind, load };
      return () => {
        controller?.abort();
        map.un('moveend', onMoveEnd);
        map.un('singleclick', onClick as never);
        map.un('pointermove', onPointer as never);
        const current = handles.current?.points ?? points;
        map.removeLayer(current);
        map.removeLayer(marksLayer);
        map.removeLayer(moving.picture);
        moving.dispose();
        current.dispose();
        handles.current = null;
      };
    },
    // A new dataset is a new layer; the rest is read through `live`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [dataset.id],
  );

  // New colours: the layer is made again.
  useEffect(() => {
    if (handles.current) restyle(handles.current.kind);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode, bands, range]);

  // Filters and the two dates change what is loaded.
  useEffect(() => handles.current?.load(true), [filters.velocityMin, filters.velocityMax, filters.coherenceMin, filters.between?.[0], filters.between?.[1]]);

  // The picked points and the drawn area.
  useEffect(() => {
    const h = handles.current;
    if (!h) return;
    h.marks.clear();
    const projection = h.map.getView().getProjection();
    selected.forEach((p, i) => h.marks.addFeature(new Feature({ geometry: new Point(fromLonLat([p.lon, p.lat], projection)), n: i + 1 })));
    if (area?.type === 'Polygon') {
      h.marks.addFeature(new Feature({ geometry: new Polygon([area.coordinates[0].map((c) => fromLonLat(c, projection))]) }));
    }
  }, [selected, area]);

  // Drawing an area to average: polygon, rectangle (a box-shaped circle draw) or circle.
  useEffect(() => {
    const h = handles.current;
    if (!h || tool === 'click') return;
    const projection = h.map.getView().getProjection();
    // Rectangles and circles are dragged out; polygons clicked corner by corner.
    const draw = new Draw({ source: new VectorSource(), type: tool === 'polygon' ? 'Polygon' : 'Circle', geometryFunction: tool === 'box' ? createBox() : undefined, freehand: tool !== 'polygon' });
    draw.on('drawend', (event) => {
      const geometry = event.feature.getGeometry()!;
      const polygon = (geometry.getType() === 'Circle' ? fromCircle(geometry as Circle, 64) : (geometry as Polygon)).clone().transform(projection, 'EPSG:4326') as Polygon;
      live.current.onArea({ type: 'Polygon', coordinates: polygon.getCoordinates() });
    });
    h.map.addInteraction(draw);
    return () => void h.map.removeInteraction(draw);
  }, [tool]);

  return (
    <div style={{ position: 'relative' }} data-testid="settlement-map" data-kind={state?.kind} data-count={state?.count}>
      <MapView settings={settings} height={height} extend={extend} />
      <div ref={tooltip} data-testid="settlement-tooltip" style={{ position: 'absolute', display: 'none', pointerEvents: 'none', background: 'rgba(0,0,0,0.75)', color: '#fff', padding: '2px 8px', borderRadius: 4, fontSize: 12, whiteSpace: 'nowrap' }} />
      {state && (
        <div style={{ position: 'absolute', left: 8, bottom: 8, background: 'rgba(255,255,255,0.9)', padding: '2px 8px', borderRadius: 4, fontSize: 12 }} data-testid="settlement-window">
          {state.kind === 'cells' ? t('settlement.cells', { size: state.cellM }) : state.truncated ? t('settlement.truncated', { every: state.every }) : t('settlement.points', { count: state.count, n: state.count.toLocaleString() })}
        </div>
      )}
      {failed && <Alert type="error" showIcon message={failed} style={{ position: 'absolute', top: 8, left: 8, right: 8 }} />}
    </div>
  );
}
