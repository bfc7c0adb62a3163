import type { TFunction } from 'i18next';
import { NETWORK_MAP_COLOR, RISK_LEVEL_COLORS } from '@console/contract';
import type { RiskArea, RiskAreaDetail } from '../../api/riskAreas.ts';
import { type MapOverlayFeature } from '../../components/MapView.tsx';

/** Remediated areas are drawn grey: they no longer ask for attention. */
export const REMEDIATED_COLOR = '#8c8c8c';
export const areaColor = (a: Pick<RiskArea, 'level' | 'status'>) => (a.status === 'remediated' ? REMEDIATED_COLOR : RISK_LEVEL_COLORS[a.level]);

export function areaFeatures(areas: RiskArea[], t: TFunction, selectedId?: number): MapOverlayFeature[] {
  return areas.map((a) => ({ id: a.id, geometry: a.geometry, color: areaColor(a), selected: a.id === selectedId, label: `${a.name} · ${t(`riskAreas.kind.${a.kind}`)} · ${a.level}` }));
}

/** The selected area's pipes, wide in their network's colour. */
export function areaPipeLines(area: RiskAreaDetail | null): MapOverlayFeature[] {
  if (!area?.pipes) return [];
  return area.pipeLines.map((p) => ({ id: p.pipeRowId, geometry: p.geometry, color: NETWORK_MAP_COLOR[p.networkType] }));
}
