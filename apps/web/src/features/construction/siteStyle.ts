import type { TFunction } from 'i18next';
import { NETWORK_MAP_COLOR, type CaseStatus, type Criticality, type MeasuredPipe, type NetworkType } from '@console/contract';
import type { Site, SiteDetail } from '../../api/construction.ts';
import type { MapOverlayFeature } from '../../components/MapView.tsx';

/** Criticality colours, as the four-colour risk practice draws them (closed cases grey). */
export const CRITICALITY_COLOR: Record<Criticality, string> = { high: '#f5222d', medium: '#fa8c16', low: '#fadb14', none: '#1677ff' };
export const CLOSED_COLOR = '#8c8c8c';
export const STATUS_TAG_COLOR: Record<CaseStatus, string> = { review: 'gold', threat: 'red', noThreat: 'default', briefed: 'orange', guarded: 'volcano', closed: 'default' };

export const siteColor = (site: Pick<Site, 'status' | 'criticality'>) => (site.status === 'closed' ? CLOSED_COLOR : CRITICALITY_COLOR[site.criticality]);

/** A distance as people read it on site: centimetres close in, metres further out. */
export const formatDistance = (m: number | null | undefined) => (m === null || m === undefined ? '-' : m < 10 ? `${m.toFixed(2)} m` : `${m.toFixed(1)} m`);

/**
 * The sites as map areas in their level's colour, the selected one edged, each with a dot at its
 * centre: a site of a few metres still shows (and takes a click) when the whole city is in view.
 */
export function siteFeatures(sites: Site[], t: TFunction, selectedId?: number): MapOverlayFeature[] {
  return sites.flatMap((s) => {
    const feature = { id: s.id, color: siteColor(s), selected: s.id === selectedId, label: `${s.siteNo} ${s.name} · ${t(`construction.criticality.${s.criticality}`)} · ${formatDistance(s.nearestM)}` };
    return [
      { ...feature, geometry: s.geometry },
      { ...feature, geometry: { type: 'Point' as const, coordinates: [s.centerLon, s.centerLat] } },
    ];
  });
}

/**
 * The selected site's measurement on the map: the pipes it was measured against (wide, in their
 * network's colour) and a line from the site's edge to the nearest pipe of each network with the
 * distance written on it.
 */
export function measurementLines(site: SiteDetail | null, t: TFunction): MapOverlayFeature[] {
  if (!site?.measure) return [];
  const pipes: MapOverlayFeature[] = site.pipes.map((p) => ({ id: -p.pipeRowId, geometry: p.geometry, color: NETWORK_MAP_COLOR[p.networkType] }));
  return pipes.concat((Object.entries(site.measure.nearest) as [NetworkType, MeasuredPipe][]).map(([network, pipe], i) => ({
    id: i + 1,
    geometry: { type: 'LineString', coordinates: [pipe.from, pipe.to] },
    color: NETWORK_MAP_COLOR[network],
    text: `${t(`network.${network}`)} ${formatDistance(pipe.distanceM)}`,
    textRow: i,
    label: `${pipe.pipeId} · ${formatDistance(pipe.distanceM)}`,
  })));
}
