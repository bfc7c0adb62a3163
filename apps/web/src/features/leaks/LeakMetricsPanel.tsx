import { Card, Col, Empty, Row, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LeakMetrics } from '../../api/leaks.ts';
import { Chart } from '../../components/Chart.tsx';
import { metricCharts, metricFigures } from './metricsCharts.ts';
import './leakMessages.ts';

/** The survey's results for a project and period: figures and charts. */
export function LeakMetricsPanel({ metrics }: { metrics: LeakMetrics | undefined }) {
  const { t } = useTranslation();
  if (!metrics) return <Skeleton active />;
  if (metrics.delivered === 0) return <Empty description={t('leak.metrics.empty')} />;
  return (
    <div data-testid="leak-metrics">
      <Row gutter={[12, 12]}>
        {metricFigures(metrics).map(([key, value, suffix]) => (
          <Col key={key} xs={12} sm={8} md={6} xl={4}>
            <Card size="small">
              <Statistic title={t(`leak.metrics.${key}`)} value={value} suffix={suffix} data-testid={`metric-${key}`} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
        {metricCharts(metrics, t).map(({ key, option }) => (
          <Col key={key} xs={24} lg={12}>
            <Card size="small"><Chart option={option} /></Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
