import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Empty, Modal, Popconfirm, Segmented, Space, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SENSOR_PERIOD_MS, SENSOR_PERIODS, type SensorCredentials, type SensorPeriod, type SensorRefusalCount, type SensorSeries } from '@console/contract';
import { useEventStream } from '../../api/eventStream.ts';
import { sensorApi, type Sensor } from '../../api/sensors.ts';
import { Authorized } from '../../components/Authorized.tsx';
import { Chart } from '../../components/Chart.tsx';
import { Tag } from '../../components/Tag.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import { saveBlob } from '../../utils/download.ts';
import { SensorFormModal } from './SensorFormModal.tsx';
import { SENSOR_STATE_COLOR, formatAge, formatReading } from './sensorState.ts';

/** Readings kept in the live line at most (an hour of one a second). */
const LIVE_POINTS = 3600;

/** The history as a band of min to max per bucket with the mean through it, and the live readings after it. */
function seriesOption(series: SensorSeries | undefined, live: { at: string; value: number }[], sensor: Sensor, labels: { mean: string; range: string; live: string }) {
  const buckets = series?.buckets ?? [];
  return {
    grid: { left: 56, right: 16, top: 28, bottom: 28 },
    tooltip: { trigger: 'axis' },
    legend: { data: [labels.mean, labels.range, labels.live], top: 0 },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: sensor.unit, scale: true },
    series: [
      // The band: the minimum drawn invisibly, the range stacked on it and filled.
      { name: labels.range, type: 'line', stack: 'band', symbol: 'none', lineStyle: { opacity: 0 }, data: buckets.map((b) => [b.at, b.min]) },
      { name: labels.range, type: 'line', stack: 'band', symbol: 'none', lineStyle: { opacity: 0 }, areaStyle: { color: SENSOR_STATE_COLOR.normal, opacity: 0.2 }, data: buckets.map((b) => [b.at, Number((b.max - b.min).toFixed(6))]) },
      { name: labels.mean, type: 'line', symbol: 'none', color: '#1677ff', data: buckets.map((b) => [b.at, b.mean]) },
      { name: labels.live, type: 'line', symbolSize: 4, color: '#f5222d', data: live.map((r) => [r.at, r.value]) },
    ],
  };
}

/** One device: where, what it watches, its thresholds, its readings (live and over a period), what was refused, its credentials. */
export function SensorDrawer({ sensor, onClose }: { sensor: Sensor; onClose: () => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const [period, setPeriod] = useState<SensorPeriod>('24h');
  const [live, setLive] = useState<{ at: string; value: number }[]>([]);
  const [credentials, setCredentials] = useState<SensorCredentials | null>(null);
  const [editing, setEditing] = useState(false);
  const series = useQuery({ queryKey: ['sensors', enterpriseID, 'series', sensor.id, period], queryFn: () => sensorApi.series(sensor.id, period) });
  const refusals = useQuery({ queryKey: ['sensors', enterpriseID, 'refusals', sensor.code], queryFn: () => sensorApi.refusals(sensor.code) });
  // Readings as they are stored, drawn after the history (the history is asked again when the period changes).
  useEventStream<{ at: string; value: number }>(`/sensors/${sensor.id}/live`, 'reading', (reading) => setLive((l) => [...l.slice(-(LIVE_POINTS - 1)), reading]), enterpriseID);
  const invalidate = ['sensors', enterpriseID];
  const make = useChange(() => sensorApi.makeCredentials(sensor.id), { invalidate, onDone: (r) => setCredentials(r.result) });
  const revoke = useChange(() => sensorApi.revokeCredentials(sensor.id), { invalidate });
  const remove = useChange(() => sensorApi.remove(sensor.id), { invalidate, onDone: onClose });
  const labels = { mean: t('sensors.drawer.chartMean'), range: t('sensors.drawer.chartRange'), live: t('sensors.drawer.live') };
  const option = useMemo(() => seriesOption(series.data?.result, live, sensor, labels), [series.data, live, sensor, labels.mean, labels.range, labels.live]); // eslint-disable-line react-hooks/exhaustive-deps
  const th = sensor.thresholds;
  const bound = (v: number | undefined) => (v === undefined || v === null ? t('sensors.drawer.none') : formatReading(v, sensor.unit));
  const downloadCsv = async () => {
    const to = new Date();
    const from = new Date(to.getTime() - SENSOR_PERIOD_MS[period]);
    saveBlob(await sensorApi.readingsCsv(sensor.id, from.toISOString(), to.toISOString()), `${sensor.code}-readings.csv`);
  };
  const hasData = (series.data?.result.buckets.length ?? 0) > 0 || live.length > 0;

  return (
    <Drawer open title={t('sensors.drawer.title', { code: sensor.code, name: sensor.name })} width={640} onClose={onClose} data-testid="sensor-drawer" destroyOnHidden>
      <Space wrap style={{ marginBottom: 12 }}>
        <Tag color={SENSOR_STATE_COLOR[sensor.state]} data-testid="sensor-drawer-state">{t(`sensors.state.${sensor.state}`)}</Tag>
        <Typography.Text strong data-testid="sensor-drawer-value">{formatReading(live.length ? live[live.length - 1].value : sensor.lastValue, sensor.unit)}</Typography.Text>
        <Typography.Text type="secondary">{formatAge(live.length ? live[live.length - 1].at : sensor.lastAt, t)}</Typography.Text>
        {sensor.simulated && <Tag>{t('sensors.simulated')}</Tag>}
      </Space>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('sensors.kindTitle')}>{t(`sensors.kind.${sensor.kind}`)}</Descriptions.Item>
        <Descriptions.Item label={t('sensors.drawer.watches')}>{sensor.pipeId ? `${sensor.pipeId}${sensor.pipeDistanceM !== null ? ` (${t('sensors.drawer.distance', { m: Math.round(sensor.pipeDistanceM) })})` : ''}` : '-'}</Descriptions.Item>
        <Descriptions.Item label={t('sensors.gateway')}>{sensor.gateway ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('sensors.drawer.interval')}>{t('sensors.drawer.seconds', { n: sensor.intervalSeconds })}</Descriptions.Item>
        <Descriptions.Item label={t('sensors.drawer.topic')}><Typography.Text code copyable>{sensor.topic}</Typography.Text></Descriptions.Item>
        <Descriptions.Item label={t('sensors.drawer.thresholds')}>
          <Space direction="vertical" size={0}>
            {th.aboveWarning !== undefined && <span>{t('sensors.drawer.aboveWarning')}: {bound(th.aboveWarning)}</span>}
            {th.aboveAlarm !== undefined && <span>{t('sensors.drawer.aboveAlarm')}: {bound(th.aboveAlarm)}</span>}
            {th.belowWarning !== undefined && <span>{t('sensors.drawer.belowWarning')}: {bound(th.belowWarning)}</span>}
            {th.belowAlarm !== undefined && <span>{t('sensors.drawer.belowAlarm')}: {bound(th.belowAlarm)}</span>}
            {th.hysteresis !== undefined && <span>{t('sensors.drawer.hysteresis')}: {bound(th.hysteresis)}</span>}
            {th.dropPerMinute !== undefined && <span>{t('sensors.drawer.dropPerMinute')}: {bound(th.dropPerMinute)}</span>}
            {Object.keys(th).length === 0 && t('sensors.drawer.none')}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('sensors.drawer.credentials')}>
          <Space wrap>
            <span data-testid="sensor-credentials-state">{t(sensor.hasCredentials ? 'sensors.drawer.hasCredentials' : 'sensors.drawer.noCredentials')}</span>
            <Authorized action="edit">
              <Popconfirm title={t('sensors.drawer.makeConfirm')} onConfirm={() => make.mutate(undefined)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                <Button size="small" loading={make.isPending} data-testid="sensor-make-credentials">{t('sensors.drawer.makeCredentials')}</Button>
              </Popconfirm>
              {sensor.hasCredentials && (
                <Popconfirm title={t('sensors.drawer.revokeConfirm')} onConfirm={() => revoke.mutate(undefined)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                  <Button size="small" danger loading={revoke.isPending} data-testid="sensor-revoke">{t('sensors.drawer.revoke')}</Button>
                </Popconfirm>
              )}
            </Authorized>
          </Space>
        </Descriptions.Item>
      </Descriptions>

      <Space wrap style={{ margin: '16px 0 8px', width: '100%', justifyContent: 'space-between' }}>
        <Segmented<SensorPeriod> value={period} onChange={(v) => setPeriod(v)} options={SENSOR_PERIODS.map((p) => ({ value: p, label: t(`sensors.drawer.period.${p}`) }))} data-testid="sensor-period" />
        <Authorized action="export">
          <Button size="small" icon={<DownloadOutlined />} onClick={() => void downloadCsv()} data-testid="sensor-csv">{t('sensors.drawer.csv')}</Button>
        </Authorized>
      </Space>
      <div data-testid="sensor-chart">{hasData ? <Chart option={option} height={260} /> : <Empty description={t('sensors.drawer.noReadings')} />}</div>

      <Typography.Title level={5} style={{ marginTop: 16 }}>{t('sensors.drawer.refused')}</Typography.Title>
      <Table<SensorRefusalCount>
        rowKey="reason"
        size="small"
        pagination={false}
        dataSource={refusals.data?.result ?? []}
        locale={{ emptyText: t('sensors.drawer.refusedNone') }}
        data-testid="sensor-refusals"
        columns={[
          { title: t('sensors.drawer.reason'), dataIndex: 'reason', render: (r: SensorRefusalCount['reason']) => t(`sensors.refusal.${r}`) },
          { title: '#', dataIndex: 'count', align: 'right' },
          { title: t('sensors.age'), dataIndex: 'lastAt', render: (at: string) => formatAge(at, t) },
          { title: t('sensors.drawer.sample'), dataIndex: 'sample', render: (s: string | null) => <Typography.Text code ellipsis style={{ maxWidth: 200 }}>{s ?? ''}</Typography.Text> },
        ]}
      />

      <Space style={{ marginTop: 16 }}>
        <Authorized action="edit">
          <Button onClick={() => setEditing(true)} data-testid="sensor-edit">{t('sensors.drawer.edit')}</Button>
        </Authorized>
        <Authorized action="delete">
          <Popconfirm title={t('sensors.drawer.deleteConfirm', { code: sensor.code })} onConfirm={() => remove.mutate(undefined)} okText={t('common.ok')} cancelText={t('common.cancel')}>
            <Button danger data-testid="sensor-delete">{t('sensors.drawer.delete')}</Button>
          </Popconfirm>
        </Authorized>
      </Space>

      <Modal open={credentials !== null} title={t('sensors.drawer.credentialsTitle', { code: sensor.code })} onCancel={() => setCredentials(null)} footer={null} data-testid="sensor-credentials">
        <Alert type="warning" showIcon message={t('sensors.drawer.credentialsHint')} style={{ marginBottom: 12 }} />
        {credentials && (
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('sensors.drawer.host')}><Typography.Text copyable>{credentials.host}</Typography.Text></Descriptions.Item>
            <Descriptions.Item label={t('sensors.drawer.topic')}><Typography.Text copyable>{credentials.topic}</Typography.Text></Descriptions.Item>
            <Descriptions.Item label={t('sensors.drawer.username')}><Typography.Text copyable>{credentials.username}</Typography.Text></Descriptions.Item>
            <Descriptions.Item label={t('sensors.drawer.password')}><Typography.Text copyable code data-testid="sensor-password">{credentials.password}</Typography.Text></Descriptions.Item>
          </Descriptions>
        )}
      </Modal>
      {editing && (
        <SensorFormModal
          open={editing}
          sensor={sensor}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            void queryClient.invalidateQueries({ queryKey: invalidate });
          }}
        />
      )}
    </Drawer>
  );
}
