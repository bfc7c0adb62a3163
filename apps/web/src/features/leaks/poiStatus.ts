import type { TFunction } from 'i18next';
import type { PoiStatus } from '@console/contract';
import type { Poi } from '../../api/leaks.ts';
import type { MapOverlayFeature } from '../../components/MapView.tsx';
import './leakMessages.ts';

/** Colours of POI statuses on the map, tags and charts. */
export const POI_STATUS_COLOR: Record<PoiStatus, string> = {
  new: '#8c8c8c',
  assigned: '#1677ff',
  investigating: '#fa8c16',
  leakFound: '#f5222d',
  noLeak: '#52c41a',
  repaired: '#722ed1',
};

/** POIs as map areas in their status colour, labelled by number and status. */
export function poiFeatures(list: Poi[], t: TFunction, selectedId?: number | null): MapOverlayFeature[] {
  return list.map((p) => ({ id: p.id, geometry: p.geometry, color: POI_STATUS_COLOR[p.status], label: `${p.poiNo} · ${t(`leak.status.${p.status}`)}`, selected: p.id === selectedId }));
}
