import type { TFunction } from 'i18next';
import { RISK_LEVEL_COLORS, type AlertRow, type AlertState, type AlertStep } from '@console/contract';
import type { AlertPlace } from '../../api/alerts.ts';
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

/** The measured value against its threshold, in its unit. */
export function alertValue(t: TFunction, a: Pick<AlertRow, 'value' | 'unit' | 'threshold'>) {
  if (a.value === null) return '-';
  if (a.unit === 'R') return t('alerts.riskValue', { value: a.value, threshold: a.threshold });
  const unit = a.unit === 'd' ? t('alerts.days') : (a.unit ?? '');
  const value = `${Math.round(a.value * 100) / 100} ${unit}`.trim();
  return a.threshold === null ? value : t('alerts.valueOf', { value, threshold: `${a.threshold} ${unit}`.trim() });
}

/** Open alerts on the map: a dot each in its level's colour, the selected one edged. */
export function alertFeatures(places: AlertPlace[], t: TFunction, selectedId?: number): MapOverlayFeature[] {
  return places.map((p) => ({
    id: p.id,
    geometry: { type: 'Point' as const, coordinates: [p.lon, p.lat] },
    color: RISK_LEVEL_COLORS[p.level],
    selected: p.id === selectedId,
    label: `${p.code} ${alertTitle(t, p)} · ${t(`alerts.state.${p.state}`)}`,
  }));
}
