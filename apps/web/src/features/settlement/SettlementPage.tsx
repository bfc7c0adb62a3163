import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Empty, InputNumber, Modal, Segmented, Select, Skeleton, Slider, Space, Switch, Tabs, Typography, message } from 'antd';
import { usePhone } from '../../components/usePhone.ts';
import { Tag } from '../../components/Tag.tsx';
import { DeleteOutlined, ReloadOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { AreaGeometry, SettlementAverage, SettlementDataset, SettlementPoint } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { mapApi } from '../../api/map.ts';
import { projectApi } from '../../api/projects.ts';
import { settlementApi } from '../../api/settlement.ts';
import { Authorized, usePermission } from '../../components/Authorized.tsx';
import { useChange } from '../../components/useChange.ts';
import { loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';
import { useSettlementBands } from '../../stores/settlement.ts';
import { legendOf, type ColourMode } from './colors.ts';
import { ResultsTab } from './ResultsTab.tsx';
import { SeriesPanel } from './SeriesPanel.tsx';
import { SettingsModal } from './SettingsModal.tsx';
import { SettlementImportModal } from './SettlementImportModal.tsx';
import { SettlementMap, type PointFilters, type SelectionTool } from './SettlementMap.tsx';

// The screen's messages come with it, not with the sign-in page.
await loadNamespace('settlement', { 'zh-CN': () => import('../../locales/settlement/zh-CN.ts'), 'en-US': () => import('../../locales/settlement/en-US.ts') });

const MAX_COMPARED = 20;

/** One line saying what a dataset is: sensor, track, orbit, direction, period and velocities. */
function DatasetSummary({ dataset, phone }: { dataset: SettlementDataset; phone: boolean }) {
  const { t } = useTranslation();
  const parts = [
    [dataset.sensor, dataset.track && `T${dataset.track}`, dataset.orbit && t(`settlement.orbit.${dataset.orbit}`)].filter(Boolean).join(' '),
    t(`settlement.direction.${dataset.direction}`),
    t('settlement.period', { from: dataset.dates[0], to: dataset.dates[dataset.dates.length - 1], count: dataset.dates.length }),
    dataset.referencePoint && t('settlement.reference', { point: dataset.referencePoint, date: dataset.referenceDate }),
    t('settlement.points', { count: dataset.pointCount, n: dataset.pointCount.toLocaleString() }),
    t('settlement.velocityStats', { min: dataset.velocity.min.toFixed(1), max: dataset.velocity.max.toFixed(1), mean: dataset.velocity.mean.toFixed(1) }),
  ].filter(Boolean);
  const a = dataset.analysis;
  return (
    <Space wrap size={4} data-testid="settlement-summary">
      {/* On a phone the description takes one line (whole on a tap): the map comes into view. */}
      {phone ? (
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 1, expandable: true }} style={{ marginBottom: 0 }}>{parts.join(' · ')}</Typography.Paragraph>
      ) : (
        <Typography.Text type="secondary">{parts.join(' · ')}</Typography.Text>
      )}
      {a.status === 'running' && <Tag color="processing">{t('settlement.analysing')}</Tag>}
      {a.status === 'failed' && <Tag color="error">{t('settlement.analysisFailed')}</Tag>}
      {a.status === 'done' && a.analysedAt && <Tag>{t('settlement.analysedAt', { at: dayjs(a.analysedAt).format('YYYY-MM-DD HH:mm') })}</Tag>}
      {a.summary && (
        <>
          <Tag color="red" data-testid="summary-alarm">{`${t('settlement.level.alarm')} ${a.summary.alarm}`}</Tag>
          <Tag color="orange">{`${t('settlement.level.warn')} ${a.summary.warn}`}</Tag>
        </>
      )}
    </Space>
  );
}

/**
 * The settlement screen: an InSAR dataset's points over the network, coloured by velocity (or by
 * the displacement between two dates), their series and area averages; and the pipe segments on
 * moving ground, ranked, with why.
 */
export default function SettlementPage() {
  const { t } = useTranslation();
  const phone = usePhone();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const can = usePermission();
  const queryClient = useQueryClient();
  const bands = useSettlementBands();
  const [datasetId, setDatasetId] = useState<number | undefined>();
  const [tab, setTab] = useState('map');
  const [importing, setImporting] = useState(false);
  const [editingSettings, setEditingSettings] = useState(false);
  const [mode, setMode] = useState<ColourMode>('bands');
  const [range, setRange] = useState(20);
  const [filters, setFilters] = useState<PointFilters>({});
  const [tool, setTool] = useState<SelectionTool>('click');
  const [picked, setPicked] = useState<SettlementPoint[]>([]);
  const [area, setArea] = useState<AreaGeometry | null>(null);
  const [average, setAverage] = useState<SettlementAverage | null>(null);

  const datasets = useQuery({
    queryKey: ['settlement', enterpriseID, 'datasets'],
    queryFn: settlementApi.datasets,
    // While an analysis runs, its state is followed.
    refetchInterval: (query) => (query.state.data?.result.some((d) => d.analysis.status === 'running') ? 1500 : false),
  });
  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}) });
  const list = useMemo(() => datasets.data?.result ?? [], [datasets.data]);
  const dataset = list.find((d) => d.id === datasetId) ?? list[0];

  useEffect(() => void bands.load().catch(() => {}), [enterpriseID]); // eslint-disable-line react-hooks/exhaustive-deps
  // A new dataset starts with nothing picked, and its full range of dates.
  useEffect(() => {
    setPicked([]);
    setArea(null);
    setAverage(null);
    setFilters({});
  }, [dataset?.id]);

  const analyse = useChange(() => settlementApi.analyse(dataset!.id), { invalidate: ['settlement', enterpriseID] });
  const remove = useChange(() => settlementApi.remove(dataset!.id), { invalidate: ['settlement', enterpriseID], onDone: () => setDatasetId(undefined), success: t('settlement.deleted') });

  const pick = async (id: number) => {
    if (!dataset) return;
    if (picked.some((p) => p.id === id)) return setPicked((ps) => ps.filter((p) => p.id !== id));
    if (picked.length >= MAX_COMPARED) return void message.warning(t('settlement.tooMany'));
    try {
      const point = (await settlementApi.point(dataset.id, id)).result;
      setPicked((ps) => (ps.length >= MAX_COMPARED || ps.some((p) => p.id === id) ? ps : [...ps, point]));
    } catch (error) {
      message.error(errorMessage(error));
    }
  };
  const averageArea = async (drawn: AreaGeometry) => {
    if (!dataset) return;
    setArea(drawn);
    try {
      setAverage((await settlementApi.average(dataset.id, drawn)).result);
    } catch (error) {
      message.error(errorMessage(error));
    }
  };
  const showPoint = (id: number) => {
    setTab('map');
    setTool('click');
    void pick(id);
  };

  if (datasets.isError) return <Alert type="error" showIcon message={errorMessage(datasets.error)} />;
  const legend = legendOf(mode, bands.data, range);
  const dates = dataset?.dates ?? [];
  return (
    <Card data-testid="settlement-page" styles={{ body: { paddingTop: 12 } }}>
      <Space wrap style={{ marginBottom: 8 }}>
        <Select aria-label={t('settlement.dataset')}
          style={{ width: phone ? 'calc(100vw - 64px)' : 340 }}
          loading={datasets.isLoading}
          value={dataset?.id}
          onChange={setDatasetId}
          placeholder={t('settlement.dataset')}
          options={list.map((d) => ({ value: d.id, label: `${d.name} (${t('settlement.points', { count: d.pointCount, n: d.pointCount.toLocaleString() })})` }))}
          data-testid="settlement-dataset"
        />
        <Authorized action="import">
          <Button icon={<UploadOutlined />} aria-label={t('settlement.import.button')} title={phone ? t('settlement.import.button') : undefined} onClick={() => setImporting(true)} data-testid="settlement-import">{!phone && t('settlement.import.button')}</Button>
        </Authorized>
        {dataset && (
          <Authorized action="edit">
            <Button icon={<ReloadOutlined />} aria-label={t('settlement.analyse')} title={phone ? t('settlement.analyse') : undefined} loading={analyse.isPending || dataset.analysis.status === 'running'} onClick={() => analyse.mutate(undefined)} data-testid="settlement-analyse">
              {!phone && t('settlement.analyse')}
            </Button>
          </Authorized>
        )}
        {can('enterprise', 'edit') && (
          <Button icon={<SettingOutlined />} aria-label={t('settlement.settings')} title={phone ? t('settlement.settings') : undefined} onClick={() => setEditingSettings(true)} data-testid="settlement-settings">{!phone && t('settlement.settings')}</Button>
        )}
        {dataset && (
          <Authorized action="delete">
            <Button
              danger
              icon={<DeleteOutlined />}
              aria-label={t('settlement.delete')}
              title={phone ? t('settlement.delete') : undefined}
              onClick={() => Modal.confirm({ title: t('settlement.delete'), content: t('settlement.deleteConfirm', { name: dataset.name }), okButtonProps: { danger: true }, onOk: () => remove.mutateAsync(undefined) })}
            >
              {!phone && t('settlement.delete')}
            </Button>
          </Authorized>
        )}
      </Space>
      {datasets.isLoading ? (
        <Skeleton active />
      ) : !dataset ? (
        <Empty description={t('settlement.noDataset')} data-testid="settlement-empty" />
      ) : (
        <>
          <DatasetSummary dataset={dataset} phone={phone} />
          <Tabs
            activeKey={tab}
            onChange={setTab}
            items={[
              {
                key: 'map',
                label: <span data-testid="settlement-tab-map">{t('settlement.tabs.map')}</span>,
                children: (
                  <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
                    {/* On a phone the display controls follow the map, which opens in view. */}
                    <Space wrap style={{ width: '100%', order: phone ? 1 : 0 }} size={[16, 8]}>
                      <Segmented value={mode} onChange={(v) => setMode(v as ColourMode)} options={[{ value: 'bands', label: t('settlement.colour.bands') }, { value: 'ramp', label: t('settlement.colour.ramp') }]} data-testid="settlement-colour" />
                      {mode === 'ramp' && <InputNumber min={1} max={200} aria-label={t('settlement.colour.range')} value={range} onChange={(v) => setRange(v ?? 20)} addonBefore={t('settlement.colour.range')} style={{ width: 150 }} />}
                      <Space size={6}>
                        <Typography.Text>{t('settlement.filters.velocity')}</Typography.Text>
                        <Slider
                          range
                          style={{ width: 160 }}
                          min={Math.floor(dataset.velocity.min)}
                          max={Math.ceil(dataset.velocity.max)}
                          step={0.5}
                          ariaLabelForHandle={[`${t('settlement.filters.velocity')} ≥`, `${t('settlement.filters.velocity')} ≤`]}
                          value={[filters.velocityMin ?? Math.floor(dataset.velocity.min), filters.velocityMax ?? Math.ceil(dataset.velocity.max)]}
                          onChangeComplete={([min, max]) => setFilters((f) => ({ ...f, velocityMin: min, velocityMax: max }))}
                          data-testid="settlement-velocity-filter"
                        />
                      </Space>
                      <InputNumber min={0} max={1} step={0.05} aria-label={t('settlement.filters.coherence')} value={filters.coherenceMin} onChange={(v) => setFilters((f) => ({ ...f, coherenceMin: v ?? undefined }))} addonBefore={t('settlement.filters.coherence')} style={{ width: 170 }} />
                      <Space size={6}>
                        <Switch aria-label={t('settlement.slider.label')} checked={Boolean(filters.between)} onChange={(on) => setFilters((f) => ({ ...f, between: on ? [0, dates.length - 1] : null }))} data-testid="settlement-between" />
                        <Typography.Text>{t('settlement.slider.label')}</Typography.Text>
                      </Space>
                      <Segmented
                        value={tool}
                        onChange={(v) => setTool(v as SelectionTool)}
                        options={(['click', 'polygon', 'box', 'circle'] as const).map((value) => ({ value, label: <span data-testid={`settlement-tool-${value}`}>{t(`settlement.tool.${value}`)}</span> }))}
                      />
                    </Space>
                    {filters.between && (
                      <div style={{ width: '100%', padding: '0 12px', order: phone ? 1 : 0 }} data-testid="settlement-dates">
                        <Slider
                          range
                          min={0}
                          max={dates.length - 1}
                          ariaLabelForHandle={[`${t('settlement.slider.label')} (1)`, `${t('settlement.slider.label')} (2)`]}
                          value={filters.between}
                          tooltip={{ formatter: (i) => dates[i ?? 0] }}
                          marks={{ 0: dates[0], [dates.length - 1]: dates[dates.length - 1] }}
                          onChangeComplete={(v) => setFilters((f) => ({ ...f, between: v as [number, number] }))}
                        />
                        <Typography.Text type="secondary">{`${t('settlement.slider.hint')} ${dates[filters.between[0]]} → ${dates[filters.between[1]]}`}</Typography.Text>
                      </div>
                    )}
                    <div style={{ flex: '3 1 520px', minWidth: 0 }}>
                      {settings.data ? (
                        <SettlementMap
                          settings={settings.data.result}
                          dataset={dataset}
                          bands={bands.data}
                          mode={mode}
                          range={range}
                          filters={filters}
                          tool={tool}
                          selected={picked}
                          area={area}
                          onPick={(id) => void pick(id)}
                          onArea={(drawn) => void averageArea(drawn)}
                        />
                      ) : (
                        <Skeleton active />
                      )}
                      <Space wrap size={[12, 4]} style={{ marginTop: 8 }} data-testid="settlement-legend">
                        <Typography.Text type="secondary">{filters.between ? t('settlement.legendDisplacement') : t('settlement.legendVelocity')}</Typography.Text>
                        {legend.map((entry) => (
                          <Space key={entry.label} size={4}>
                            <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, background: entry.color }} />
                            {entry.label}
                          </Space>
                        ))}
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(`settlement.toolHint.${tool}`)}</Typography.Text>
                      </Space>
                    </div>
                    <div style={{ flex: '2 1 380px', minWidth: 0, order: phone ? 2 : 0 }}>
                      <SeriesPanel
                        dates={dates}
                        points={picked}
                        average={average}
                        onRemove={(id) => setPicked((ps) => ps.filter((p) => p.id !== id))}
                        onClear={() => {
                          setPicked([]);
                          setArea(null);
                          setAverage(null);
                        }}
                      />
                    </div>
                  </div>
                ),
              },
              {
                key: 'pipes',
                label: <span data-testid="settlement-tab-pipes">{t('settlement.tabs.pipes')}</span>,
                children: <ResultsTab dataset={dataset} settings={settings.data?.result} projects={(projects.data?.result ?? []).map((p) => ({ id: p.id, name: p.name }))} onShowPoint={showPoint} />,
              },
            ]}
          />
        </>
      )}
      <SettlementImportModal
        open={importing}
        onClose={() => setImporting(false)}
        onImported={(job) => {
          setImporting(false);
          if (job.result?.datasetId) setDatasetId(job.result.datasetId);
          void queryClient.invalidateQueries({ queryKey: ['settlement', enterpriseID] });
        }}
      />
      {editingSettings && (
        <SettingsModal
          open={editingSettings}
          onClose={() => {
            setEditingSettings(false);
            void bands.load();
          }}
          bands={bands.data}
          projects={(projects.data?.result ?? []).map((p) => ({ id: p.id, name: p.name }))}
          projectId={dataset?.projectId ?? null}
        />
      )}
    </Card>
  );
}
