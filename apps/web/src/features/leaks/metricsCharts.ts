import type { TFunction } from 'i18next';
import type { LeakMetrics } from '../../api/leaks.ts';
import { materialLabel } from '../../utils/format.ts';
import './leakMessages.ts';

const percent = (share: number | null) => (share === null ? '-' : `${Math.round(share * 1000) / 10}%`);
const dash = (value: number | null) => (value === null ? '-' : value);

/** The survey's key figures: [message key under leak.metrics, value, unit]. */
export function metricFigures(metrics: LeakMetrics): [string, string | number, string?][] {
  return [
    ['delivered', metrics.delivered],
    ['investigated', metrics.investigated],
    ['confirmed', metrics.confirmed],
    ['confirmationRate', percent(metrics.confirmationRate)],
    ['leaksPerCrewDay', dash(metrics.leaksPerCrewDay)],
    ['leaksPerKm', dash(metrics.leaksPerKm)],
    ['nonSurfacingShare', percent(metrics.nonSurfacingShare)],
    ['waterSavedDay', metrics.waterSavedM3PerDay, 'm³'],
    ['waterSavedYear', metrics.waterSavedM3PerYear.toLocaleString(), 'm³'],
    ['daysToInvestigation', dash(metrics.daysToInvestigation)],
    ['daysToRepair', dash(metrics.daysToRepair)],
  ];
}

function bars(title: string, entries: [string, number][], color: string) {
  return {
    title: { text: title, textStyle: { fontSize: 14 } },
    grid: { left: 110, right: 24, top: 36, bottom: 24 },
    tooltip: {},
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: entries.map(([k]) => k) },
    series: [{ type: 'bar', data: entries.map(([, v]) => v), itemStyle: { color }, label: { show: true, position: 'right' } }],
  };
}

const sorted = (record: Record<string, number>) => Object.entries(record).sort((a, b) => b[1] - a[1]);

/** The survey's charts (ECharts options): the funnel, leaks by type, by pipe material and by diameter class. */
export function metricCharts(metrics: LeakMetrics, t: TFunction): { key: string; option: object }[] {
  return [
    {
      key: 'funnel',
      option: {
        title: { text: t('leak.metrics.funnel'), textStyle: { fontSize: 14 } },
        tooltip: {},
        grid: { left: 90, right: 24, top: 36, bottom: 24 },
        xAxis: { type: 'value', minInterval: 1 },
        yAxis: { type: 'category', inverse: true, data: ['delivered', 'investigated', 'confirmed'].map((k) => t(`leak.metrics.${k}`)) },
        series: [{ type: 'bar', data: [metrics.delivered, metrics.investigated, metrics.confirmed], itemStyle: { color: '#1677ff' }, label: { show: true, position: 'right' } }],
      },
    },
    {
      key: 'byType',
      option: {
        title: { text: t('leak.metrics.byType'), textStyle: { fontSize: 14 } },
        tooltip: { trigger: 'item' },
        series: [{ type: 'pie', radius: ['35%', '65%'], top: 24, data: Object.entries(metrics.byType).map(([k, v]) => ({ name: t(`leak.leakTypes.${k}`, { defaultValue: k }), value: v })) }],
      },
    },
    { key: 'byMaterial', option: bars(t('leak.metrics.byMaterial'), sorted(metrics.byMaterial).map(([k, v]) => [materialLabel(t, k), v]), '#fa8c16') },
    {
      key: 'byDiameter',
      option: bars(
        t('leak.metrics.byDiameter'),
        ['<=100', '101-300', '301-600', '>600', 'unknown'].filter((k) => metrics.byDiameterClass[k]).map((k) => [k === 'unknown' ? t('leak.unknown') : `DN ${k}`, metrics.byDiameterClass[k]]),
        '#722ed1',
      ),
    },
  ];
}
