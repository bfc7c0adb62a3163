import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, DatePicker, Form, Modal, Select, Skeleton, Space, Table, Tabs } from 'antd';
import type { CheckboxProps } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { FileTextOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { POI_ACTION_FROM, POI_PRIORITIES, POI_STATUSES, type BBox } from '@console/contract';
import { enterpriseApi } from '../../api/enterprises.ts';
import { errorMessage } from '../../api/http.ts';
import { leakApi, type Poi } from '../../api/leaks.ts';
import { mapApi } from '../../api/map.ts';
import { Authorized, useActionVisible } from '../../components/Authorized.tsx';
import { ExportMenu } from '../../components/ExportMenu.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { ListEmpty, anyFilter } from '../../components/ListEmpty.tsx';
import { MapView } from '../../components/MapView.tsx';
import { useChange } from '../../components/useChange.ts';
import { useLeaks } from '../../stores/leaks.ts';
import { useSession } from '../../stores/session.ts';
import { formatLength } from '../../utils/format.ts';
import { PoiDrawer } from './PoiDrawer.tsx';
import { PoiImportModal } from './PoiImportModal.tsx';
import { POI_STATUS_COLOR, poiFeatures } from './poiStatus.ts';
import { useSurveyProject } from './useSurveyProject.ts';
import { later, useOpenedOnce } from '../../components/later.tsx';
import './leakMessages.ts';

// The charts (ECharts) load with the Results tab or the report, not with the list and map.
const LeakMetricsPanel = later(() => import('./LeakMetricsPanel.tsx').then((m) => m.LeakMetricsPanel), <Skeleton active />);
const SurveyReportModal = later(() => import('./SurveyReport.tsx').then((m) => m.SurveyReportModal));

interface Filters {
  deliveryId?: number;
  status?: string;
  priority?: string;
  assigneeId?: number;
  /** Delivered in these days (YYYY-MM-DD). */
  from?: string;
  to?: string;
}

/**
 * The leak screen: a project's POIs on the map and in a list, coloured by status, the current
 * leak's drawer with the field workflow, bulk assignment, and the survey's metrics.
 */
export default function LeakPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canWork = useActionVisible('edit');
  const allowClick = useClickGuard();
  const { currentLeak, setCurrentLeak, setList } = useLeaks();
  const { projectId, setProjectId, projects } = useSurveyProject();
  const [filters, setFilters] = useState<Filters>({});
  const [period, setPeriod] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [assigning, setAssigning] = useState<number[] | null>(null);
  const [assignForm] = Form.useForm<{ assigneeId: number; dueDate?: Dayjs }>();
  const [importing, setImporting] = useState(false);
  const [reporting, setReporting] = useState(false);
  const reportOpened = useOpenedOnce(reporting);

  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const deliveries = useQuery({ queryKey: ['leaks', enterpriseID, 'deliveries', projectId], queryFn: () => leakApi.deliveries(projectId), enabled: projectId !== undefined });
  const members = useQuery({ queryKey: ['enterprise', enterpriseID, 'members'], queryFn: enterpriseApi.members });
  const params = { projectId, ...filters, pageSize: 1000 };
  const pois = useQuery({ queryKey: ['leaks', enterpriseID, 'pois', params], queryFn: () => leakApi.pois(params), enabled: projectId !== undefined, placeholderData: keepPreviousData });
  const metricsParams = { projectId, from: period?.[0]?.format('YYYY-MM-DD'), to: period?.[1]?.format('YYYY-MM-DD') };
  const metrics = useQuery({ queryKey: ['leaks', enterpriseID, 'metrics', metricsParams], queryFn: () => leakApi.metrics(metricsParams), enabled: projectId !== undefined });
  const list = useMemo(() => pois.data?.result.list ?? [], [pois.data]);

  useEffect(() => setList(list), [list, setList]);
  // The current leak follows the list's fresh data (after a change, say).
  useEffect(() => {
    if (currentLeak) setCurrentLeak(list.find((p) => p.id === currentLeak.id) ?? currentLeak);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list]);
  useEffect(() => () => setCurrentLeak(null), [setCurrentLeak]);

  const assign = useChange(({ ids, assigneeId, dueDate }: { ids: number[]; assigneeId: number; dueDate?: string }) => leakApi.assign(ids, assigneeId, dueDate), {
    invalidate: ['leaks', enterpriseID],
    onDone: () => {
      setAssigning(null);
      setSelected([]);
    },
  });
  const openAssign = (ids: number[]) => {
    assignForm.resetFields();
    setAssigning(ids);
  };

  const overlays = useMemo(
    () => [{ key: 'pois', features: poiFeatures(list, t, currentLeak?.id), onClick: (id: number) => setCurrentLeak(list.find((p) => p.id === id) ?? null) }],
    [list, currentLeak?.id, setCurrentLeak, t],
  );
  const focus = useMemo<BBox | null>(() => {
    if (!list.length) return null;
    const lons = list.map((p) => p.centerLon), lats = list.map((p) => p.centerLat);
    return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
    // Fit when the project or delivery changes, not on every status change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [projectId, filters.deliveryId, list.length > 0]);
  const assignable = selected.filter((id) => POI_ACTION_FROM.assign.includes(list.find((p) => p.id === id)?.status ?? 'repaired'));

  if (projects.isError) return <Alert type="error" showIcon message={errorMessage(projects.error)} />;
  const set = (patch: Filters) => setFilters((f) => ({ ...f, ...patch }));
  return (
    <Card data-testid="leak-page" styles={{ body: { paddingTop: 8 } }}>
      {/* What concerns the whole project: which one, and its deliveries coming in. */}
      <Space wrap style={{ marginBottom: 8 }}>
        <Select aria-label={t('leak.project')} style={{ width: 260 }} value={projectId} onChange={(v) => { setProjectId(v); setFilters({}); setCurrentLeak(null); }} options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} placeholder={t('leak.project')} data-testid="leak-project" />
        <Authorized action="import">
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="leak-import">{t('leak.import.button')}</Button>
        </Authorized>
      </Space>
      <Tabs
        items={[
          {
            key: 'pois',
            label: t('leak.tabs.pois'),
            children: (
              <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
                <Space wrap style={{ width: '100%' }}>
                  <Select aria-label={t('leak.allDeliveries')} allowClear style={{ width: 220 }} value={filters.deliveryId} onChange={(v) => set({ deliveryId: v })} placeholder={t('leak.allDeliveries')} options={(deliveries.data?.result ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.poiCount})` }))} data-testid="leak-delivery" />
                  <Select aria-label={t('leak.allStatuses')} allowClear style={{ width: 150 }} value={filters.status} onChange={(v) => set({ status: v })} placeholder={t('leak.allStatuses')} options={POI_STATUSES.map((s) => ({ value: s, label: t(`leak.status.${s}`) }))} data-testid="leak-status" />
                  <Select aria-label={t('leak.allPriorities')} allowClear style={{ width: 120 }} value={filters.priority} onChange={(v) => set({ priority: v })} placeholder={t('leak.allPriorities')} options={POI_PRIORITIES.map((p) => ({ value: p, label: t(`leak.priority.${p}`) }))} />
                  <Select aria-label={t('leak.allAssignees')} allowClear style={{ width: 140 }} value={filters.assigneeId} onChange={(v) => set({ assigneeId: v })} placeholder={t('leak.allAssignees')} options={(members.data?.result ?? []).map((m) => ({ value: m.userId, label: m.realname || m.username }))} />
                  <span data-testid="leak-period">
                    <DatePicker.RangePicker
                      allowEmpty={[true, true]}
                      style={{ width: 290, maxWidth: '100%' }}
                      value={[filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null]}
                      onChange={(v) => set({ from: v?.[0]?.format('YYYY-MM-DD'), to: v?.[1]?.format('YYYY-MM-DD') })}
                      placeholder={[t('leak.metrics.from'), t('leak.metrics.to')]}
                    />
                  </span>
                  <Authorized action="export">
                    <ExportMenu fetch={(format) => leakApi.exportFile({ projectId, ...filters }, format)} baseName="pois" testId="leak-export" />
                  </Authorized>
                  {canWork && (
                    <Button disabled={!assignable.length} onClick={() => openAssign(assignable)} data-testid="leak-bulk-assign">
                      {t('leak.assignSelected', { count: assignable.length })}
                    </Button>
                  )}
                </Space>
                <div style={{ flex: '2 1 480px', minWidth: 0 }}>
                  <Table<Poi>
                    rowKey="id"
                    size="small"
                    loading={pois.isFetching}
                    dataSource={list}
                    scroll={{ x: 'max-content' }}
                    locale={{ emptyText: <ListEmpty filtered={anyFilter(filters)} hint={t('leak.emptyHint')} /> }}
                    pagination={{ pageSize: 15, size: 'small', showTotal: (total) => <span data-testid="leak-total">{t('leak.total', { total })}</span> }}
                    rowSelection={canWork ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), getCheckboxProps: (p) => ({ 'aria-label': t('common.selectRow', { name: p.poiNo }) }) as CheckboxProps } : undefined}
                    onRow={(p) => ({ onClick: () => setCurrentLeak(p), style: { cursor: 'pointer' } })}
                    rowClassName={(p) => (p.id === currentLeak?.id ? 'ant-table-row-selected' : '')}
                    columns={[
                      { title: t('leak.poiNo'), dataIndex: 'poiNo' },
                      { title: t('leak.statusTitle'), dataIndex: 'status', render: (s: Poi['status']) => <Tag color={POI_STATUS_COLOR[s]}>{t(`leak.status.${s}`)}</Tag> },
                      { title: t('leak.priorityTitle'), dataIndex: 'priority', render: (p: Poi['priority']) => t(`leak.priority.${p}`) },
                      { title: t('leak.assignee'), dataIndex: 'assigneeName', render: (v: string | null) => v ?? '-' },
                      { title: t('leak.waterInside'), dataIndex: 'pipes', align: 'right', render: (pipes: Poi['pipes']) => (pipes.lengthM.water ? formatLength(pipes.lengthM.water) : '-') },
                    ]}
                  />
                </div>
                <div style={{ flex: '3 1 420px', minWidth: 0 }}>
                  {settings.data ? <MapView settings={settings.data.result} height={560} overlays={overlays} focus={focus} highlight={null} /> : <Skeleton active />}
                  <Space wrap style={{ marginTop: 8 }}>
                    {POI_STATUSES.map((s) => (
                      <Space key={s} size={4}>
                        <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, background: POI_STATUS_COLOR[s] }} />
                        {t(`leak.status.${s}`)}
                      </Space>
                    ))}
                  </Space>
                </div>
              </div>
            ),
          },
          {
            key: 'metrics',
            label: <span data-testid="leak-metrics-tab">{t('leak.tabs.metrics')}</span>,
            children: (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Space wrap>
                  <span data-testid="metrics-period">
                    <DatePicker.RangePicker allowEmpty={[true, true]} value={period} onChange={(v) => setPeriod(v as [Dayjs | null, Dayjs | null] | null)} placeholder={[t('leak.metrics.from'), t('leak.metrics.to')]} />
                  </span>
                  <Button icon={<FileTextOutlined />} onClick={() => setReporting(true)} disabled={!metrics.data} data-testid="leak-report">
                    {t('leak.report.button')}
                  </Button>
                </Space>
                <LeakMetricsPanel metrics={metrics.data?.result} />
              </Space>
            ),
          },
        ]}
      />
      {reportOpened && (
        <SurveyReportModal
          open={reporting}
          onClose={() => setReporting(false)}
          project={(projects.data?.result ?? []).find((p) => p.id === projectId)}
          period={[metricsParams.from, metricsParams.to]}
          metrics={metrics.data?.result}
        />
      )}
      <PoiImportModal
        open={importing}
        projectId={projectId}
        onClose={() => setImporting(false)}
        onImported={(job) => {
          setImporting(false);
          setCurrentLeak(null);
          setProjectId(Number(job.options?.projectId) || projectId);
          setFilters({ deliveryId: job.result?.deliveryId });
        }}
      />
      <PoiDrawer poi={currentLeak} onClose={() => setCurrentLeak(null)} onAssign={(p) => openAssign([p.id])} />
      <Modal
        open={assigning !== null}
        title={t('leak.assignTitle', { count: assigning?.length ?? 0 })}
        okText={t('leak.actions.assign')}
        cancelText={t('common.cancel')}
        confirmLoading={assign.isPending}
        onCancel={() => setAssigning(null)}
        onOk={async () => {
          if (!allowClick()) return;
          const v = await assignForm.validateFields();
          assign.mutate({ ids: assigning!, assigneeId: v.assigneeId, dueDate: v.dueDate?.format('YYYY-MM-DD') });
        }}
        destroyOnHidden
      >
        <Form form={assignForm} layout="vertical" name="assign">
          <Form.Item name="assigneeId" label={t('leak.assignee')} rules={[{ required: true, message: t('leak.assigneeRequired') }]}>
            <Select options={(members.data?.result ?? []).filter((m) => m.role !== 'viewer').map((m) => ({ value: m.userId, label: `${m.realname || m.username} (${m.username})` }))} data-testid="assign-member" />
          </Form.Item>
          <Form.Item name="dueDate" label={t('leak.due')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
