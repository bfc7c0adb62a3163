import type { TFunction } from 'i18next';
import type { SensorState } from '@console/contract';
import type { Sensor } from '../../api/sensors.ts';
import type { MapOverlayFeature } from '../../components/MapView.tsx';
import { loadNamespace } from '../../locales/index.ts';

/** The sensors' messages: a module that shows them imports this one, so they are in before it renders. */
await loadNamespace('sensors', { 'zh-CN': () => import('../../locales/sensors/zh-CN.ts'), 'en-US': () => import('../../locales/sensors/en-US.ts') });

/** Colours of device states on the map and in tags (alarm red, warning orange, out of order grey or purple). */
export const SENSOR_STATE_COLOR: Record<SensorState, string> = {
  new: '#bfbfbf',
  normal: '#52c41a',
  warning: '#fa8c16',
  alarm: '#f5222d',
  silent: '#8c8c8c',
  fault: '#722ed1',
};

/** A value in its kind's unit, as people read it (three significant decimals at most). */
export const formatReading = (value: number | null, unit: string) => (value === null ? '-' : `${Number(value.toFixed(3))} ${unit}`);

/** How long ago, in the largest whole unit. */
export function formatAge(iso: string | null, t: TFunction, now = Date.now()) {
  if (!iso) return t('sensors.neverReported');
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return t('sensors.ago.seconds', { n: seconds });
  if (seconds < 3600) return t('sensors.ago.minutes', { n: Math.floor(seconds / 60) });
  if (seconds < 86_400) return t('sensors.ago.hours', { n: Math.floor(seconds / 3600) });
  return t('sensors.ago.days', { n: Math.floor(seconds / 86_400) });
}

/** Devices as dots in their state's colour, labelled by code, kind and last value. */
export function sensorFeatures(list: Sensor[], t: TFunction, selectedId?: number | null): MapOverlayFeature[] {
  return list.map((d) => ({
    id: d.id,
    geometry: { type: 'Point', coordinates: [d.lon, d.lat] },
    color: SENSOR_STATE_COLOR[d.state],
    label: `${d.code} · ${t(`sensors.kind.${d.kind}`)} · ${formatReading(d.lastValue, d.unit)} · ${t(`sensors.state.${d.state}`)}`,
    selected: d.id === selectedId,
  }));
}
