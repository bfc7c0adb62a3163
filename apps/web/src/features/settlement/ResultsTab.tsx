import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Empty, Input, Segmented, Select, Skeleton, Space, Table, Typography, message } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TwoLineCell } from '../../components/TwoLineCell.tsx';
import type { TFunction } from 'i18next';
import { NETWORK_TYPES, SETTLEMENT_LEVELS, type AreaGeometry, type MapSettings, type SettlementCrossing, type SettlementDataset, type SettlementProfileBin, type SettlementResult } from '@console/contract';
import { errorMessage, HttpError } from '../../api/http.ts';
import { settlementApi, type ResultFilters } from '../../api/settlement.ts';
import { Authorized, usePermission } from '../../components/Authorized.tsx';
import { useChange } from '../../components/useChange.ts';
import { riskAreaApi } from '../../api/riskAreas.ts';
import { LazyChart as Chart } from '../../components/LazyChart.tsx';
import { ExportMenu } from '../../components/ExportMenu.tsx';
import { MapView } from '../../components/MapView.tsx';
import { useSession } from '../../stores/session.ts';
import { LEVEL_COLOR } from './colors.ts';

const fixed = (v: number | null, digits = 1) => (v === null ? '-' : v.toFixed(digits));

/** One crossing in words: "mean velocity -12.3 mm/yr past -10 by 2.3". */
export function useCrossingText() {
  const { t } = useTranslation();
  return (c: SettlementCrossing) => {
    const unit = t(`settlement.unit.${c.metric}`);
    return t('settlement.crossing', { metric: t(`settlement.metric.${c.metric}`), value: `${c.value} ${unit}`, threshold: c.threshold, by: c.by });
  };
}

/**
 * Velocity along a pipe or a run of pipes: the 25-75 % band and the median per stretch, the
 * nearest points, and where each segment of a run begins.
 */
function profileChart(t: TFunction, profile: SettlementProfileBin[], lengthM: number, points: { alongM: number; velocity: number }[], segments: { pipeId: string; fromM: number }[]) {
  const x = (b: SettlementProfileBin) => Math.round((b.fromM + b.toM) / 2);
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, data: [t('settlement.detail.band'), t('settlement.detail.median'), ...(points.length ? [t('settlement.point.velocity')] : [])] },
    // Room above the plot for the segments' names.
    grid: { left: 48, right: 16, top: segments.length ? 56 : 36, bottom: 40 },
    xAxis: { type: 'value', name: t('settlement.detail.distance'), nameLocation: 'middle', nameGap: 26, min: 0, max: Math.ceil(lengthM) },
    yAxis: { type: 'value', name: t('settlement.unit.velocity') },
    series: [
      // The 25-75 % band: q25 as an invisible base, the band's width stacked on it (all signs: velocities are negative).
      { name: 'q25', type: 'line', stack: 'band', stackStrategy: 'all', data: profile.map((b) => [x(b), b.q25]), lineStyle: { opacity: 0 }, symbol: 'none', tooltip: { show: false } },
      { name: t('settlement.detail.band'), type: 'line', stack: 'band', stackStrategy: 'all', color: 'rgba(22,119,255,0.35)', data: profile.map((b) => [x(b), Math.round((b.q75 - b.q25) * 100) / 100]), lineStyle: { opacity: 0 }, symbol: 'none', areaStyle: { color: 'rgba(22,119,255,0.2)' } },
      {
        name: t('settlement.detail.median'),
        type: 'line',
        data: profile.map((b) => [x(b), b.median]),
        color: '#1677ff',
        // Where each segment of a run begins, named by its pipe id.
        markLine: segments.length ? { symbol: 'none', silent: true, lineStyle: { color: '#bfbfbf', type: 'dashed' }, label: { formatter: '{b}', fontSize: 10, color: '#8c8c8c' }, data: segments.map((s) => ({ name: s.pipeId, xAxis: Math.round(s.fromM) })) } : undefined,
      },
      ...(points.length ? [{ name: t('settlement.point.velocity'), type: 'scatter', data: points.map((p) => [p.alongM, p.velocity]), symbolSize: 5, color: '#8c8c8c' }] : []),
    ],
  };
}

/** A segment's result: the thresholds it crossed, the profile along it (median, 25-75 %), its nearest points. */
function ResultDrawer({ dataset, pipeRowId, onClose, onShowPoint }: { dataset: SettlementDataset; pipeRowId: number | null; onClose(): void; onShowPoint(id: number): void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const crossingText = useCrossingText();
  const detail = useQuery({ queryKey: ['settlement', enterpriseID, 'result', dataset.id, pipeRowId], queryFn: () => settlementApi.result(dataset.id, pipeRowId!), enabled: pipeRowId !== null, retry: false });
  const r = detail.data?.result;
  const [along, setAlong] = useState<'segment' | 'run'>('segment');
  const run = useQuery({ queryKey: ['settlement', enterpriseID, 'run', dataset.id, pipeRowId], queryFn: () => settlementApi.run(dataset.id, pipeRowId!), enabled: pipeRowId !== null && along === 'run', retry: false });
  const runData = run.data?.result;
  // The segment's moving ground as a subsidence zone among the risk-prone areas.
  const mayRecordZone = usePermission()('risk', 'add');
  const makeZone = useChange(() => riskAreaApi.fromSettlement(dataset.id, pipeRowId!), { invalidate: ['riskAreas', enterpriseID], success: t('settlement.detail.zoneMade') });
  const profile = useMemo(() => {
    if (along === 'run') return runData ? profileChart(t, runData.profile, runData.lengthM, [], runData.segments.length > 1 ? runData.segments : []) : null;
    return r ? profileChart(t, r.profile, r.lengthM, r.points, []) : null;
  }, [r, runData, along, t]);
  return (
    <Drawer open={pipeRowId !== null} onClose={onClose} width={560} title={r ? t('settlement.detail.title', { pipeId: r.pipeId }) : ''} destroyOnHidden data-testid="settlement-result-drawer">
      {detail.isError && <Alert type="info" showIcon message={detail.error instanceof HttpError && detail.error.status === 404 ? t('settlement.results.noResult') : errorMessage(detail.error)} />}
      {detail.isLoading && <Skeleton active />}
      {r && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <Tag color={LEVEL_COLOR[r.level]} data-testid="result-level">{t(`settlement.level.${r.level}`)}</Tag>
            <Typography.Text type="secondary">{t('settlement.detail.asOf', { date: r.asOf })}</Typography.Text>
            {mayRecordZone && r.level !== 'none' && (
              <Button size="small" loading={makeZone.isPending} onClick={() => makeZone.mutate(undefined)} data-testid="result-make-zone">
                {t('settlement.detail.makeZone')}
              </Button>
            )}
          </Space>
          {r.crossed.map((c) => (
            <Alert key={c.metric} type={c.level === 'alarm' ? 'error' : 'warning'} showIcon message={crossingText(c)} data-testid="result-crossing" />
          ))}
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('settlement.results.network')}>{t(`network.${r.networkType}`)} DN{r.diameterMm ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.results.points')}>{r.pointCount}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.results.meanVelocity')}>{fixed(r.meanVelocity)} {t('settlement.unit.velocity')}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.results.minVelocity')}>{fixed(r.minVelocity)} {t('settlement.unit.velocity')}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.results.maxCumulative')}>{fixed(r.maxCumulative)} mm</Descriptions.Item>
            <Descriptions.Item label={t('settlement.results.differential')}>{fixed(r.differential)} {t('settlement.unit.differential')}</Descriptions.Item>
          </Descriptions>
          <Space>
            <Typography.Text strong>{t('settlement.detail.profile')}</Typography.Text>
            <Segmented
              size="small"
              value={along}
              onChange={(v) => setAlong(v as 'segment' | 'run')}
              options={[
                { value: 'segment', label: t('settlement.detail.thisSegment') },
                { value: 'run', label: <span data-testid="result-run">{t('settlement.detail.connectedRun')}</span> },
              ]}
            />
          </Space>
          {along === 'run' && run.isError && <Alert type="error" showIcon message={errorMessage(run.error)} />}
          {along === 'run' && runData && (
            <Typography.Text type="secondary" data-testid="result-run-summary">
              {t('settlement.detail.runSummary', { count: runData.segments.length, length: Math.round(runData.lengthM).toLocaleString(), points: runData.pointCount })}
              {runData.capped ? ` ${t('settlement.detail.runCapped')}` : ''}
            </Typography.Text>
          )}
          <div data-testid="result-profile">{profile ? <Chart option={profile} height={240} /> : along === 'run' && run.isLoading && <Skeleton active paragraph={{ rows: 4 }} />}</div>
          <Typography.Text strong>{t('settlement.detail.nearPoints')}</Typography.Text>
          <Table
            rowKey="id"
            size="small"
            pagination={{ pageSize: 10, size: 'small' }}
            dataSource={r.points}
            columns={[
              { title: t('settlement.point.pointId'), dataIndex: 'pointId' },
              { title: t('settlement.detail.along'), dataIndex: 'alongM', align: 'right', render: (v: number) => v.toFixed(1) },
              { title: t('settlement.detail.offset'), dataIndex: 'offsetM', align: 'right', render: (v: number) => v.toFixed(1) },
              { title: t('settlement.point.velocity'), dataIndex: 'velocity', align: 'right', render: (v: number) => v.toFixed(1) },
              { title: '', render: (_, p) => <Typography.Link onClick={() => onShowPoint(p.id)}>{t('settlement.detail.showSeries')}</Typography.Link> },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

/** The pipes on moving ground: ranked results, their map coloured by level, and each one's detail. */
export function ResultsTab({ dataset, settings, projects, onShowPoint }: { dataset: SettlementDataset; settings: MapSettings | undefined; projects: { id: number; name: string }[]; onShowPoint(id: number): void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const crossingText = useCrossingText();
  const [filters, setFilters] = useState<ResultFilters>({});
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const [open, setOpen] = useState<number | null>(null);
  const key = ['settlement', enterpriseID, 'results', dataset.id, dataset.analysis.analysedAt];
  const results = useQuery({ queryKey: [...key, filters, page], queryFn: () => settlementApi.results(dataset.id, { ...filters, ...page }), placeholderData: keepPreviousData });
  const flagged = useQuery({ queryKey: [...key, 'flagged'], queryFn: () => settlementApi.flagged(dataset.id) });
  const overlays = useMemo(
    () => [
      {
        key: 'flagged',
        features: (flagged.data?.result ?? []).map((f) => ({ id: f.pipeRowId, geometry: f.geometry as unknown as AreaGeometry, color: LEVEL_COLOR[f.level], label: `${f.pipeId} · ${t(`settlement.level.${f.level}`)}`, selected: f.pipeRowId === open })),
        onClick: (id: number) => setOpen(id),
      },
    ],
    [flagged.data, open, t],
  );
  const set = (patch: ResultFilters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage((p) => ({ ...p, page: 1 }));
  };
  if (dataset.analysis.status === 'none' || !dataset.analysis.summary) return <Empty description={t('settlement.results.noneYet')} />;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
      <Space wrap style={{ width: '100%' }}>
        <Select aria-label={t('settlement.results.allLevels')} allowClear style={{ width: 140 }} placeholder={t('settlement.results.allLevels')} value={filters.level} onChange={(level) => set({ level })} options={SETTLEMENT_LEVELS.map((l) => ({ value: l, label: t(`settlement.level.${l}`) }))} data-testid="results-level" />
        <Select aria-label={t('settlement.results.allProjects')} allowClear style={{ width: 220 }} placeholder={t('settlement.results.allProjects')} value={filters.projectId} onChange={(projectId) => set({ projectId })} options={projects.map((p) => ({ value: p.id, label: p.name }))} />
        <Select aria-label={t('settlement.results.allNetworks')} allowClear style={{ width: 140 }} placeholder={t('settlement.results.allNetworks')} value={filters.networkType} onChange={(networkType) => set({ networkType })} options={NETWORK_TYPES.map((n) => ({ value: n, label: t(`network.${n}`) }))} />
        <Input.Search allowClear style={{ width: 200 }} placeholder={t('settlement.results.keyword')} onSearch={(keyword) => set({ keyword: keyword || undefined })} data-testid="results-keyword" />
        <Authorized action="export">
          <ExportMenu fetch={(format) => settlementApi.exportResults(dataset.id, filters, format).catch((error) => (message.error(errorMessage(error)), Promise.reject(error)))} baseName="settlement-results" testId="results-export" />
        </Authorized>
      </Space>
      <div style={{ flex: '3 1 560px', minWidth: 0 }}>
        <Table<SettlementResult>
          rowKey="pipeRowId"
          size="small"
          loading={results.isFetching}
          dataSource={results.data?.result.list}
          scroll={{ x: 'max-content' }}
          data-testid="results-table"
          onRow={(r) => ({ onClick: () => setOpen(r.pipeRowId), style: { cursor: 'pointer' } })}
          rowClassName={(r) => (r.pipeRowId === open ? 'ant-table-row-selected' : '')}
          pagination={{
            current: page.page,
            pageSize: page.pageSize,
            total: results.data?.result.total,
            // Pages by number reach as far as the server counts exactly (the worst come first).
            size: 'small',
            showSizeChanger: false,
            onChange: (p) => setPage((old) => ({ ...old, page: p })),
            showTotal: (total) => (
              <span data-testid="results-total">{t('settlement.results.total', { count: total, n: `${results.data?.result.totalExact === false ? '> ' : ''}${total.toLocaleString()}` })}</span>
            ),
          }}
          columns={[
            { title: t('settlement.results.level'), dataIndex: 'level', render: (l: SettlementResult['level']) => <Tag color={LEVEL_COLOR[l]}>{t(`settlement.level.${l}`)}</Tag> },
            // The network and size under the pipe id, the point count in the drawer: the list fits beside the map at 1280.
            { title: t('settlement.results.pipeId'), dataIndex: 'pipeId', render: (id: string, r) => <TwoLineCell main={id} sub={`${t(`network.${r.networkType}`)} DN${r.diameterMm ?? '-'}`} maxWidth={140} /> },
            // Figures under headers that wrap (a fixed width), so long names do not widen the list.
            { title: `${t('settlement.results.meanVelocity')} (${t('settlement.unit.velocity')})`, dataIndex: 'meanVelocity', align: 'right', width: 100, render: (v: number) => fixed(v) },
            { title: `${t('settlement.results.maxCumulative')} (mm)`, dataIndex: 'maxCumulative', align: 'right', width: 100, render: (v: number) => fixed(v) },
            { title: t('settlement.results.differential'), dataIndex: 'differential', align: 'right', width: 100, render: (v: number | null) => fixed(v) },
            {
              title: t('settlement.results.crossed'),
              dataIndex: 'crossed',
              // Which thresholds, in their level's colour; the figures on hover and in the drawer.
              render: (crossed: SettlementCrossing[]) =>
                crossed.length ? (
                  <Space size={2} wrap style={{ maxWidth: 170 }}>
                    {crossed.map((c) => <Tag key={c.metric} color={LEVEL_COLOR[c.level]} title={crossingText(c)} style={{ marginInlineEnd: 0 }}>{t(`settlement.metric.${c.metric}`)}</Tag>)}
                  </Space>
                ) : '-',
            },
          ]}
        />
      </div>
      <div style={{ flex: '2 1 380px', minWidth: 0 }}>
        {settings ? (
          <MapView settings={settings} height={560} overlays={overlays} focus={dataset.bbox} onPipeClick={(p) => setOpen(Number(p.id))} />
        ) : (
          <Skeleton active />
        )}
        <Space wrap style={{ marginTop: 8 }}>
          {(['alarm', 'warn'] as const).map((l) => (
            <Space key={l} size={4}>
              <span style={{ display: 'inline-block', width: 14, height: 4, background: LEVEL_COLOR[l] }} />
              {t(`settlement.level.${l}`)}
            </Space>
          ))}
          <Typography.Text type="secondary">{t('settlement.results.clickPipe')}</Typography.Text>
        </Space>
      </div>
      <ResultDrawer dataset={dataset} pipeRowId={open} onClose={() => setOpen(null)} onShowPoint={onShowPoint} />
    </div>
  );
}
