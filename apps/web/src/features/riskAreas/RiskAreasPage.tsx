import { useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Input, Row, Select, Skeleton, Space, Statistic, Table } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NETWORK_TYPES, RISK_AREA_KINDS, RISK_AREA_STATUSES, RISK_LEVEL_COLORS, RISK_LEVELS, type BBox } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { mapApi } from '../../api/map.ts';
import { projectApi } from '../../api/projects.ts';
import { riskAreaApi, type RiskArea, type RiskAreaDetail } from '../../api/riskAreas.ts';
import { Authorized } from '../../components/Authorized.tsx';
import { ExportMenu } from '../../components/ExportMenu.tsx';
import { ListEmpty, anyFilter } from '../../components/ListEmpty.tsx';
import { TwoLineCell } from '../../components/TwoLineCell.tsx';
import { MapView } from '../../components/MapView.tsx';
import { loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';
import { formatLength } from '../../utils/format.ts';
import { AreaDrawer } from './AreaDrawer.tsx';
import { AreaFormModal } from './AreaFormModal.tsx';
import { AreaImportModal } from './AreaImportModal.tsx';
import { REMEDIATED_COLOR, areaColor, areaFeatures, areaPipeLines } from './areaStyle.ts';
import '../leaks/leakMessages.ts';

// The screen's messages come with it, not with the sign-in page.
await loadNamespace('riskAreas', { 'zh-CN': () => import('../../locales/riskAreas/zh-CN.ts'), 'en-US': () => import('../../locales/riskAreas/en-US.ts') });

interface Filters {
  projectId?: number;
  keyword?: string;
  kind?: string;
  level?: string;
  status?: string;
  networkType?: string;
}

/**
 * Risk-prone areas: waterlogging points, voids, collapses, hazard and subsidence zones on the map
 * in their level's colour and in a list, each with the pipes it holds; the selected one's pipes
 * drawn and its remediation in the drawer.
 */
export default function RiskAreasPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const [filters, setFilters] = useState<Filters>({});
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [editing, setEditing] = useState<RiskArea | null | 'new'>(null);
  const [importing, setImporting] = useState(false);

  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}) });
  const params = { ...filters, pageSize: 1000 };
  const areas = useQuery({ queryKey: ['riskAreas', enterpriseID, 'areas', params], queryFn: () => riskAreaApi.areas(params), placeholderData: keepPreviousData });
  const summary = useQuery({ queryKey: ['riskAreas', enterpriseID, 'summary'], queryFn: riskAreaApi.summary });
  const detail = useQuery({ queryKey: ['riskAreas', enterpriseID, 'area', selectedId], queryFn: () => riskAreaApi.area(selectedId!), enabled: selectedId !== null });
  const list = useMemo(() => areas.data?.result.list ?? [], [areas.data]);
  const selected: RiskAreaDetail | null = selectedId !== null ? (detail.data?.result ?? null) : null;
  const selectedArea = list.find((a) => a.id === selectedId) ?? selected;

  const overlays = useMemo(
    () => [
      { key: 'areas', features: areaFeatures(list, t, selectedId ?? undefined), onClick: (id: number) => setSelectedId(id) },
      { key: 'pipes', features: areaPipeLines(selected) },
    ],
    [list, selected, selectedId, t],
  );
  const focus = useMemo<BBox | null>(() => {
    if (selectedArea) {
      const pad = 0.0008;
      return [selectedArea.minx - pad, selectedArea.miny - pad, selectedArea.maxx + pad, selectedArea.maxy + pad];
    }
    if (!list.length) return null;
    return [Math.min(...list.map((a) => a.minx)), Math.min(...list.map((a) => a.miny)), Math.max(...list.map((a) => a.maxx)), Math.max(...list.map((a) => a.maxy))];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [JSON.stringify(filters), list.length > 0, selectedId, selectedArea?.updatedAt]);

  if (areas.isError) return <Alert type="error" showIcon message={errorMessage(areas.error)} />;
  const set = (patch: Filters) => setFilters((f) => ({ ...f, ...patch }));
  const s = summary.data?.result;
  return (
    <Card data-testid="risk-areas-page" styles={{ body: { paddingTop: 12 } }}>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }} data-testid="risk-areas-summary">
        <Col xs={12} md={4}><Statistic title={t('riskAreas.summary.open')} value={s?.open ?? '-'} /></Col>
        {RISK_LEVELS.map((level) => (
          <Col xs={12} md={3} key={level}>
            <Statistic title={<Space size={4}><span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: RISK_LEVEL_COLORS[level] }} />{t('riskAreas.summary.level', { level })}</Space>} value={s?.byLevel[level] ?? '-'} />
          </Col>
        ))}
        {RISK_AREA_KINDS.filter((k) => s?.byKind[k]).slice(0, 2).map((kind) => (
          <Col xs={12} md={3} key={kind}><Statistic title={t(`riskAreas.kind.${kind}`)} value={s?.byKind[kind] ?? 0} /></Col>
        ))}
      </Row>
      <Space wrap style={{ marginBottom: 8 }}>
        <Input.Search allowClear placeholder={t('riskAreas.keyword')} style={{ width: 220 }} onSearch={(v) => set({ keyword: v || undefined })} />
        <Select aria-label={t('riskAreas.filters.kind')} allowClear style={{ width: 170 }} value={filters.kind} onChange={(v) => set({ kind: v })} placeholder={t('riskAreas.filters.kind')} options={RISK_AREA_KINDS.map((v) => ({ value: v, label: t(`riskAreas.kind.${v}`) }))} data-testid="risk-areas-kind" />
        <Select aria-label={t('riskAreas.filters.level')} allowClear style={{ width: 110 }} value={filters.level} onChange={(v) => set({ level: v })} placeholder={t('riskAreas.filters.level')} options={RISK_LEVELS.map((v) => ({ value: v, label: v }))} />
        <Select aria-label={t('riskAreas.filters.status')} allowClear style={{ width: 140 }} value={filters.status} onChange={(v) => set({ status: v })} placeholder={t('riskAreas.filters.status')} options={RISK_AREA_STATUSES.map((v) => ({ value: v, label: t(`riskAreas.status.${v}`) }))} />
        <Select aria-label={t('riskAreas.filters.network')} allowClear style={{ width: 150 }} value={filters.networkType} onChange={(v) => set({ networkType: v })} placeholder={t('riskAreas.filters.network')} options={NETWORK_TYPES.map((v) => ({ value: v, label: t(`network.${v}`) }))} />
        <Select aria-label={t('leak.project')} allowClear style={{ width: 200 }} value={filters.projectId} onChange={(v) => set({ projectId: v })} placeholder={t('leak.project')} options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} data-testid="riskAreas-project" />
        <Authorized action="add">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="risk-areas-add">{t('riskAreas.add')}</Button>
        </Authorized>
        <Authorized action="import">
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>{t('riskAreas.import')}</Button>
        </Authorized>
        <Authorized action="export">
          <ExportMenu fetch={(format) => riskAreaApi.exportFile(filters as Record<string, unknown>, format)} baseName="risk-areas" testId="risk-areas-export" />
        </Authorized>
      </Space>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ flex: '2 1 460px', minWidth: 0 }}>
          <Table<RiskArea>
            rowKey="id"
            size="small"
            loading={areas.isFetching}
            dataSource={list}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <ListEmpty filtered={anyFilter(filters)} hint={t('riskAreas.emptyHint')} /> }}
            pagination={{ pageSize: 15, size: 'small', showTotal: (total) => <span data-testid="risk-areas-total">{t('riskAreas.total', { total })}</span> }}
            onRow={(a) => ({ onClick: () => setSelectedId(a.id), style: { cursor: 'pointer' } })}
            rowClassName={(a) => (a.id === selectedId ? 'ant-table-row-selected' : '')}
            columns={[
              // The kind under the name; the pipes within the buffer and the rain trigger in the drawer: the list fits beside the map at 1280.
              { title: t('riskAreas.columns.name'), dataIndex: 'name', render: (name: string, a: RiskArea) => <TwoLineCell main={name} sub={t(`riskAreas.kind.${a.kind}`)} /> },
              { title: t('riskAreas.columns.level'), dataIndex: 'level', render: (v: RiskArea['level'], a: RiskArea) => <Tag color={areaColor(a)}>{v}</Tag> },
              { title: t('riskAreas.columns.status'), dataIndex: 'status', render: (v: RiskArea['status']) => t(`riskAreas.status.${v}`) },
              {
                title: t('riskAreas.columns.pipes'),
                key: 'pipes',
                align: 'right',
                render: (_: unknown, a: RiskArea) => {
                  const total = Object.values(a.pipes?.lengthM ?? {}).reduce((sum: number, m) => sum + (m ?? 0), 0);
                  return <span style={{ whiteSpace: 'nowrap' }}>{total ? formatLength(total) : '-'}</span>;
                },
              },
            ]}
          />
        </div>
        <div style={{ flex: '3 1 420px', minWidth: 0 }} data-testid="risk-areas-map">
          {settings.data ? <MapView settings={settings.data.result} height={600} overlays={overlays} focus={focus} /> : <Skeleton active />}
          <Space wrap style={{ marginTop: 8 }}>
            {RISK_LEVELS.map((l) => (
              <Space key={l} size={4}><span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 2, background: RISK_LEVEL_COLORS[l] }} />{l}</Space>
            ))}
            <Space size={4}><span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 2, background: REMEDIATED_COLOR }} />{t('riskAreas.status.remediated')}</Space>
          </Space>
        </div>
      </div>
      <AreaDrawer area={selected} onClose={() => setSelectedId(null)} onEdit={(a) => setEditing(a)} />
      {settings.data && (
        <AreaFormModal
          open={editing !== null}
          area={editing === 'new' ? null : editing}
          settings={settings.data.result}
          onClose={() => setEditing(null)}
          onSaved={(a) => {
            setEditing(null);
            setSelectedId(a.id);
          }}
        />
      )}
      <AreaImportModal open={importing} onClose={() => setImporting(false)} onImported={() => setImporting(false)} />
    </Card>
  );
}
