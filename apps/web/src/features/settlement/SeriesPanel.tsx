import { useMemo } from 'react';
import { Button, Empty, Space, Table, Typography } from 'antd';
import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { daysFromFirst, linearFit, type SettlementAverage, type SettlementPoint } from '@console/contract';
import { LazyChart as Chart } from '../../components/LazyChart.tsx';
import { saveBlob } from '../../utils/download.ts';

const PALETTE = ['#1677ff', '#eb2f96', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#a0d911', '#f5222d', '#2f54eb', '#faad14'];
const round1 = (v: number | null) => (v === null ? '-' : (Math.round(v * 10) / 10).toString());

/** The picked points' and the area's series as CSV: one row per point, one column per date. */
function seriesCsv(dates: string[], points: SettlementPoint[], average: SettlementAverage | null) {
  const rows = [['point_id', 'lon', 'lat', 'velocity_mm_yr', 'coherence', ...dates.map((d) => d.replaceAll('-', ''))].join(',')];
  for (const p of points) rows.push([p.pointId, p.lon, p.lat, p.velocity, p.coherence ?? '', ...p.displacement.map((v) => v ?? '')].join(','));
  if (average?.count) rows.push(['area_average', '', '', average.meanVelocity ?? '', '', ...average.displacement.map((v) => v ?? '')].join(','));
  return new Blob([`\ufeff${rows.join('\r\n')}\r\n`], { type: 'text/csv' });
}

/**
 * The displacement over time of the picked points (with the least-squares line of a single point)
 * and of the drawn area's average, their measures, and the CSV of it all.
 */
export function SeriesPanel({ dates, points, average, onRemove, onClear }: { dates: string[]; points: SettlementPoint[]; average: SettlementAverage | null; onRemove(id: number): void; onClear(): void }) {
  const { t } = useTranslation();
  const days = useMemo(() => daysFromFirst(dates), [dates]);
  const option = useMemo(() => {
    const series: object[] = points.map((p, i) => ({
      name: `${i + 1}. ${p.pointId}`,
      type: 'line',
      showSymbol: dates.length < 80,
      symbolSize: 4,
      lineStyle: { width: 1.5 },
      color: PALETTE[i % PALETTE.length],
      data: dates.map((d, k) => [d, p.displacement[k]]),
    }));
    if (points.length === 1) {
      const fit = linearFit(days, points[0].displacement);
      if (fit) {
        series.push({
          name: t('settlement.fit', { velocity: fit.velocity.toFixed(1) }),
          type: 'line',
          showSymbol: false,
          lineStyle: { type: 'dashed', width: 2 },
          color: '#595959',
          data: [[dates[0], fit.intercept], [dates[dates.length - 1], fit.intercept + (fit.velocity / 365.25) * days[days.length - 1]]],
        });
      }
    }
    if (average?.count) {
      series.push({ name: t('settlement.area', { count: average.count }), type: 'line', showSymbol: false, lineStyle: { width: 3 }, color: '#141414', data: dates.map((d, k) => [d, average.displacement[k]]) });
    }
    return {
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => (v === null || v === undefined ? '-' : `${v.toFixed(1)} mm`) },
      legend: { top: 0, type: 'scroll' },
      grid: { left: 56, right: 16, top: 40, bottom: 28 },
      xAxis: { type: 'time' },
      yAxis: { type: 'value', name: t('settlement.series.axis'), nameLocation: 'middle', nameGap: 40 },
      series,
    };
  }, [points, average, dates, days, t]);

  if (!points.length && !average) return <Empty description={t('settlement.selectionEmpty')} data-testid="series-empty" />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="series-panel">
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text strong>{t('settlement.selection')}</Typography.Text>
        <Space>
          <Button size="small" icon={<DownloadOutlined />} onClick={() => saveBlob(seriesCsv(dates, points, average), 'settlement-series.csv')} data-testid="series-export">
            {t('settlement.exportCsv')}
          </Button>
          <Button size="small" onClick={onClear}>{t('settlement.clear')}</Button>
        </Space>
      </Space>
      {average && !average.count && <Typography.Text type="secondary">{t('settlement.areaEmpty')}</Typography.Text>}
      {average && average.count > 0 && (
        <Typography.Text data-testid="series-area">{`${t('settlement.area', { count: average.count })} · ${t('settlement.point.velocity')} ${round1(average.meanVelocity)} ${t('settlement.unit.velocity')}`}</Typography.Text>
      )}
      <div data-testid="series-chart">
        <Chart option={option} height={300} />
      </div>
      {points.length > 0 && (
        <Table<SettlementPoint>
          rowKey="id"
          size="small"
          pagination={false}
          scroll={{ x: 'max-content', y: 200 }}
          dataSource={points}
          data-testid="series-points"
          columns={[
            { title: '#', width: 36, render: (_, __, i) => <span style={{ color: PALETTE[i % PALETTE.length], fontWeight: 600 }}>{i + 1}</span> },
            { title: t('settlement.point.pointId'), dataIndex: 'pointId' },
            { title: t('settlement.point.velocity'), dataIndex: 'velocity', align: 'right', render: (v: number) => `${round1(v)} ${t('settlement.unit.velocity')}` },
            { title: t('settlement.point.std'), dataIndex: 'velocityStd', align: 'right', render: round1 },
            { title: t('settlement.point.coherence'), dataIndex: 'coherence', align: 'right', render: (v: number | null) => (v === null ? '-' : v.toFixed(2)) },
            { title: t('settlement.point.height'), dataIndex: 'height', align: 'right', render: (v: number | null) => (v === null ? '-' : `${round1(v)} m`) },
            { title: '', width: 40, render: (_, p) => <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('settlement.point.remove')} onClick={() => onRemove(p.id)} /> },
          ]}
        />
      )}
    </Space>
  );
}
