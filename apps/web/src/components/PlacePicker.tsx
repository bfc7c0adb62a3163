import { useCallback, useMemo } from 'react';
import type OlMap from 'ol/Map';
import { toLonLat } from 'ol/proj';
import { unByKey } from 'ol/Observable';
import type { AreaGeometry, BBox, MapSettings } from '@console/contract';
import { MapView } from './MapView.tsx';

/** A 64-sided circle for a preview (the server keeps its own, measured on the ellipsoid). */
function previewCircle(lon: number, lat: number, radiusM: number): AreaGeometry {
  const mLat = 111_320, mLon = 111_320 * Math.cos((lat * Math.PI) / 180);
  const ring = Array.from({ length: 65 }, (_, i) => {
    const a = (2 * Math.PI * (i % 64)) / 64;
    return [lon + (Math.cos(a) * radiusM) / mLon, lat + (Math.sin(a) * radiusM) / mLat];
  });
  return { type: 'Polygon', coordinates: [ring] };
}

/**
 * Where something is, given on the map: an area drawn corner by corner, or a point placed by a
 * click (shown as a dot, or as its circle when it has a radius). The forms of sites and risk-prone
 * areas use it; their fields keep the values.
 */
export function PlacePicker({
  settings,
  mode,
  area,
  onArea,
  point,
  radiusM,
  onPoint,
  focus,
  height,
}: {
  settings: MapSettings;
  mode: 'area' | 'point';
  area: AreaGeometry | null;
  onArea: (area: AreaGeometry | null) => void;
  point: [number, number] | null;
  radiusM?: number;
  onPoint: (point: [number, number]) => void;
  focus?: BBox | null;
  height: number;
}) {
  const extend = useCallback(
    (map: OlMap) => {
      if (mode !== 'point') return;
      const key = map.on('singleclick', (event) => {
        const [x, y] = toLonLat(event.coordinate, map.getView().getProjection());
        onPoint([Math.round(x * 1e7) / 1e7, Math.round(y * 1e7) / 1e7]);
      });
      return () => unByKey(key);
    },
    [mode, onPoint],
  );
  const preview = useMemo(() => {
    if (mode !== 'point' || !point) return [];
    const geometry = radiusM ? previewCircle(point[0], point[1], radiusM) : { type: 'Point' as const, coordinates: point };
    return [{ key: 'preview', features: [{ id: 1, geometry, color: '#f5222d' }] }];
  }, [mode, point, radiusM]);
  return mode === 'area' ? (
    <MapView settings={settings} height={height} drawArea={{ value: area, onChange: onArea }} focus={focus} />
  ) : (
    <MapView settings={settings} height={height} extend={extend} overlays={preview} focus={focus} />
  );
}
