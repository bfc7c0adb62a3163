import { useMemo, useState } from 'react';
import { Button, Card, Input, Select, Skeleton, Space, Table, Typography } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { SENSOR_KINDS, SENSOR_STATES, type BBox, type SensorKind, type SensorState } from '@console/contract';
import { mapApi } from '../../api/map.ts';
import { sensorApi, type Sensor } from '../../api/sensors.ts';
import { Authorized } from '../../components/Authorized.tsx';
import { ListEmpty, anyFilter } from '../../components/ListEmpty.tsx';
import { MapView } from '../../components/MapView.tsx';
import { Tag } from '../../components/Tag.tsx';
import { later, useOpenedOnce } from '../../components/later.tsx';
import { useSession } from '../../stores/session.ts';
import { SENSOR_STATE_COLOR, formatAge, formatReading, sensorFeatures } from './sensorState.ts';

// The drawer (its chart is ECharts) and the form load when first opened, not with the list and map.
const SensorDrawer = later(() => import('./SensorDrawer.tsx').then((m) => m.SensorDrawer));
const SensorFormModal = later(() => import('./SensorFormModal.tsx').then((m) => m.SensorFormModal));
const SensorImportModal = later(() => import('./SensorImportModal.tsx').then((m) => m.SensorImportModal));

/** Last values and states are read again this often (each device reports every minute or so). */
const REFRESH_MS = 10_000;

interface Filters {
  keyword?: string;
  kind?: SensorKind;
  state?: SensorState;
}

/**
 * The sensors screen: the enterprise's devices in a list (worst state first) and on the map in
 * their state's colour, each device's drawer with its live chart, history, thresholds and
 * credentials; the broker the readings come through, and whether this server receives them.
 */
export default function SensorsPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  // Opened from elsewhere (a pipe's drawer) on one device.
  const [currentId, setCurrentId] = useState<number | null>((useLocation().state as { sensorId?: number } | null)?.sensorId ?? null);
  const [adding, setAdding] = useState(false);
  const addOpened = useOpenedOnce(adding);
  const [importing, setImporting] = useState(false);
  const importOpened = useOpenedOnce(importing);

  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const broker = useQuery({ queryKey: ['sensors', enterpriseID, 'broker'], queryFn: sensorApi.broker, refetchInterval: REFRESH_MS });
  const summary = useQuery({ queryKey: ['sensors', enterpriseID, 'summary'], queryFn: sensorApi.summary, refetchInterval: REFRESH_MS });
  const params = { ...filters, page, pageSize: 20 };
  const list = useQuery({ queryKey: ['sensors', enterpriseID, 'list', params], queryFn: () => sensorApi.list(params), placeholderData: keepPreviousData, refetchInterval: REFRESH_MS });
  const places = useQuery({ queryKey: ['sensors', enterpriseID, 'places'], queryFn: sensorApi.places, refetchInterval: REFRESH_MS });
  const all = useMemo(() => places.data?.result ?? [], [places.data]);
  const rows = list.data?.result.list ?? [];
  const current = all.find((d) => d.id === currentId) ?? rows.find((d) => d.id === currentId) ?? null;

  const overlays = useMemo(() => [{ key: 'sensors', features: sensorFeatures(all, t, currentId), onClick: (id: number) => setCurrentId(id) }], [all, currentId, t]);
  // "Show on the map" after an import: the imported devices' extent.
  const [importedExtent, setImportedExtent] = useState<BBox | null>(null);
  const fitted = useMemo<BBox | null>(() => {
    if (!all.length) return null;
    const lons = all.map((d) => d.lon), lats = all.map((d) => d.lat);
    return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
    // Fit once the devices are known, not at every refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [all.length > 0]);
  const focus = importedExtent ?? fitted;

  const set = (patch: Filters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const byState = summary.data?.result.byState ?? {};
  const b = broker.data?.result;
  return (
    <Card data-testid="sensors-page" styles={{ body: { paddingTop: 12 } }}>
      <Space wrap style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap data-testid="sensors-broker">
          {b && (b.address ? (
            <>
              <Typography.Text type="secondary">{t(b.embedded ? 'sensors.broker.embedded' : 'sensors.broker.external', { address: b.address })}</Typography.Text>
              <Tag color={b.connected ? 'green' : 'red'}>{t(b.connected ? 'sensors.broker.connected' : 'sensors.broker.disconnected')}</Tag>
            </>
          ) : <Typography.Text type="warning">{t('sensors.broker.none')}</Typography.Text>)}
          <Typography.Text data-testid="sensors-summary">
            {t('sensors.summary', { alarm: byState.alarm ?? 0, warning: byState.warning ?? 0, silent: byState.silent ?? 0, fault: byState.fault ?? 0 })}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Authorized action="import">
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="sensors-import">{t('sensors.import')}</Button>
          </Authorized>
          <Authorized action="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="sensors-add">{t('sensors.add')}</Button>
          </Authorized>
        </Space>
      </Space>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
        <Space wrap style={{ width: '100%' }}>
          <Input.Search aria-label={t('sensors.search')} allowClear placeholder={t('sensors.search')} style={{ width: 240 }} onSearch={(v) => set({ keyword: v.trim() || undefined })} data-testid="sensors-search" />
          <Select aria-label={t('sensors.allKinds')} allowClear style={{ width: 160 }} value={filters.kind} onChange={(v) => set({ kind: v })} placeholder={t('sensors.allKinds')} options={SENSOR_KINDS.map((k) => ({ value: k, label: t(`sensors.kind.${k}`) }))} data-testid="sensors-kind" />
          <Select aria-label={t('sensors.allStates')} allowClear style={{ width: 140 }} value={filters.state} onChange={(v) => set({ state: v })} placeholder={t('sensors.allStates')} options={SENSOR_STATES.map((s) => ({ value: s, label: t(`sensors.state.${s}`) }))} data-testid="sensors-state" />
        </Space>
        <div style={{ flex: '2 1 480px', minWidth: 0 }}>
          <Table<Sensor>
            rowKey="id"
            size="small"
            loading={list.isLoading}
            dataSource={rows}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <ListEmpty filtered={anyFilter(filters)} hint={t('sensors.emptyHint')} /> }}
            pagination={{ current: page, pageSize: 20, total: list.data?.result.total ?? 0, size: 'small', onChange: setPage, showSizeChanger: false, showTotal: (total) => <span data-testid="sensors-total">{t('sensors.total', { total })}</span> }}
            onRow={(d) => ({ onClick: () => setCurrentId(d.id), style: { cursor: 'pointer' } })}
            rowClassName={(d) => (d.id === currentId ? 'ant-table-row-selected' : '')}
            columns={[
              { title: t('sensors.code'), dataIndex: 'code', render: (code: string) => <span data-testid={`sensor-row-${code}`}>{code}</span> },
              { title: t('sensors.kindTitle'), dataIndex: 'kind', render: (k: SensorKind) => t(`sensors.kind.${k}`) },
              { title: t('sensors.stateTitle'), dataIndex: 'state', render: (s: SensorState) => <Tag color={SENSOR_STATE_COLOR[s]}>{t(`sensors.state.${s}`)}</Tag> },
              { title: t('sensors.lastValue'), dataIndex: 'lastValue', align: 'right', render: (v: number | null, d) => <span data-testid={`sensor-value-${d.code}`}>{formatReading(v, d.unit)}</span> },
              { title: t('sensors.age'), dataIndex: 'lastAt', render: (at: string | null) => formatAge(at, t) },
              { title: t('sensors.pipe'), dataIndex: 'pipeId', render: (v: string | null) => v ?? '-' },
            ]}
          />
        </div>
        <div style={{ flex: '3 1 420px', minWidth: 0 }}>
          {settings.data ? <MapView settings={settings.data.result} height={560} overlays={overlays} focus={focus} highlight={null} /> : <Skeleton active />}
          <Space wrap style={{ marginTop: 8 }}>
            {SENSOR_STATES.map((s) => (
              <Space key={s} size={4}>
                <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, background: SENSOR_STATE_COLOR[s] }} />
                {t(`sensors.state.${s}`)}
              </Space>
            ))}
          </Space>
        </div>
      </div>
      {current && <SensorDrawer sensor={current} onClose={() => setCurrentId(null)} />}
      {importOpened && <SensorImportModal open={importing} onClose={() => setImporting(false)} onImported={(job) => { setImporting(false); if (job.result?.extent) setImportedExtent(job.result.extent as BBox); }} />}
      {addOpened && <SensorFormModal open={adding} onClose={() => setAdding(false)} onSaved={(d) => { setAdding(false); setCurrentId(d.id); }} />}
    </Card>
  );
}
