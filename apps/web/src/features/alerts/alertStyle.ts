import i18n, { type TFunction } from 'i18next';
import { incidentTitle as titleOf, RISK_LEVEL_COLORS, type AlertRow, type BBox, type AlertState, type AlertStep, type IncidentRow } from '@console/contract';
import type { IncidentPlace } from '../../api/alerts.ts';
import type { MapOverlayFeature } from '../../components/MapView.tsx';

/** The steps a note is required for (the reason, the report), as the server asks. */
export const NOTE_REQUIRED: AlertStep[] = ['falseAlarm', 'handle', 'reject', 'reopen', 'note'];

export const STATE_TAG_COLOR: Record<AlertState, string> = {
  new: 'red',
  confirmed: 'volcano',
  falseAlarm: 'default',
  dispatched: 'orange',
  handling: 'gold',
  handled: 'cyan',
  closed: 'green',
};

/** An alert as people name it: what the rule saw, on what (a hand-raised alert is its own title). */
export const alertTitle = (t: TFunction, a: Pick<AlertRow, 'rule' | 'subject'>) => (a.rule === 'manual' ? a.subject : `${t(`alerts.rule.${a.rule}`)} · ${a.subject}`);

/** An incident as people name it, the same words as its messages out (the contract's one title). */
export const incidentTitle = (i: Pick<IncidentRow, 'kind' | 'subject' | 'memberCount' | 'pipeCount'>) => titleOf(i, i18n.language === 'zh-CN' ? 'zh-CN' : 'en-US');

/** The measured value against its threshold, in its unit. */
export function alertValue(t: TFunction, a: Pick<AlertRow, 'value' | 'unit' | 'threshold'>) {
  if (a.value === null) return '-';
  if (a.unit === 'R') return t('alerts.riskValue', { value: a.value, threshold: a.threshold });
  const unit = a.unit === 'd' ? t('alerts.days') : (a.unit ?? '');
  const value = `${Math.round(a.value * 100) / 100} ${unit}`.trim();
  return a.threshold === null ? value : t('alerts.valueOf', { value, threshold: `${a.threshold} ${unit}`.trim() });
}

/** Open incidents on the map: a dot each in its level's colour, the selected one edged. */
export function incidentFeatures(places: IncidentPlace[], t: TFunction, selectedId?: number): MapOverlayFeature[] {
  return places.map((p) => ({
    id: p.id,
    geometry: { type: 'Point' as const, coordinates: [p.lon, p.lat] },
    color: RISK_LEVEL_COLORS[p.level],
    selected: p.id === selectedId,
    label: `${p.code} ${incidentTitle(p)} · ${t(`alerts.state.${p.state}`)}`,
  }));
}

/** The box round a GeoJSON shape's positions (an incident's hull, a member's pipe). */
export function shapeBox(shape: { coordinates: unknown }): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number') {
      box[0] = Math.min(box[0], c[0]);
      box[1] = Math.min(box[1], c[1]);
      box[2] = Math.max(box[2], c[0]);
      box[3] = Math.max(box[3], c[1]);
    } else c.forEach(walk);
  };
  walk(shape.coordinates);
  return box;
}
