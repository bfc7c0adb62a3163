import { Card, Col, Empty, Row, Skeleton, Statistic } from 'antd';
import { Chart } from '../../components/Chart.tsx';
import { useTranslation } from 'react-i18next';
import type { LeakMetrics } from '../../api/leaks.ts';
import { materialLabel } from '../../utils/format.ts';

const percent = (share: number | null) => (share === null ? '-' : `${Math.round(share * 1000) / 10}%`);
const dash = (value: number | null) => (value === null ? '-' : value);

function bars(title: string, entries: [string, number][], color: string) {
  return {
    title: { text: title, textStyle: { fontSize: 14 } },
    grid: { left: 110, right: 24, top: 36, bottom: 24 },
    tooltip: {},
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: entries.map(([k]) => k) },
    series: [{ type: 'bar', data: entries.map(([, v]) => v), itemStyle: { color } }],
  };
}

/** The survey's results for a project and period: figures and charts. */
export function LeakMetricsPanel({ metrics }: { metrics: LeakMetrics | undefined }) {
  const { t } = useTranslation();
  if (!metrics) return <Skeleton active />;
  if (metrics.delivered === 0) return <Empty description={t('leak.metrics.empty')} />;
  const stats: [string, string | number, string?][] = [
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
  const funnel = {
    title: { text: t('leak.metrics.funnel'), textStyle: { fontSize: 14 } },
    tooltip: {},
    grid: { left: 90, right: 24, top: 36, bottom: 24 },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: ['delivered', 'investigated', 'confirmed'].map((k) => t(`leak.metrics.${k}`)) },
    series: [{ type: 'bar', data: [metrics.delivered, metrics.investigated, metrics.confirmed], itemStyle: { color: '#1677ff' }, label: { show: true, position: 'right' } }],
  };
  const byType = {
    title: { text: t('leak.metrics.byType'), textStyle: { fontSize: 14 } },
    tooltip: { trigger: 'item' },
    series: [{ type: 'pie', radius: ['35%', '65%'], top: 24, data: Object.entries(metrics.byType).map(([k, v]) => ({ name: t(`leak.leakTypes.${k}`, { defaultValue: k }), value: v })) }],
  };
  const sorted = (record: Record<string, number>) => Object.entries(record).sort((a, b) => b[1] - a[1]);
  return (
    <div data-testid="leak-metrics">
      <Row gutter={[12, 12]}>
        {stats.map(([key, value, suffix]) => (
          <Col key={key} xs={12} sm={8} md={6} xl={4}>
            <Card size="small">
              <Statistic title={t(`leak.metrics.${key}`)} value={value} suffix={suffix} data-testid={`metric-${key}`} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
        <Col xs={24} lg={12}>
          <Card size="small"><Chart option={funnel} /></Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small"><Chart option={byType} /></Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small"><Chart option={bars(t('leak.metrics.byMaterial'), sorted(metrics.byMaterial).map(([k, v]) => [materialLabel(t, k), v]), '#fa8c16')} /></Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small"><Chart option={bars(t('leak.metrics.byDiameter'), ['<=100', '101-300', '301-600', '>600', 'unknown'].filter((k) => metrics.byDiameterClass[k]).map((k) => [k === 'unknown' ? t('leak.unknown') : `DN ${k}`, metrics.byDiameterClass[k]]), '#722ed1')} /></Card>
        </Col>
      </Row>
    </div>
  );
}
