import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Input, Row, Select, Skeleton, Space, Statistic, Switch, Table } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { PlusOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BUILD_TYPES, CASE_STATUSES, CRITICALITIES, NETWORK_TYPES, type BBox } from '@console/contract';
import { constructionApi, type Site, type SiteDetail } from '../../api/construction.ts';
import { errorMessage } from '../../api/http.ts';
import { mapApi } from '../../api/map.ts';
import { projectApi } from '../../api/projects.ts';
import { Authorized, usePermission } from '../../components/Authorized.tsx';
import { ExportMenu } from '../../components/ExportMenu.tsx';
import { ListEmpty, anyFilter } from '../../components/ListEmpty.tsx';
import { TwoLineCell } from '../../components/TwoLineCell.tsx';
import { MapView } from '../../components/MapView.tsx';
import { loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';
import { CriticalityModal } from './CriticalityModal.tsx';
import { SITE_DRAWER_WIDTH, SiteDrawer } from './SiteDrawer.tsx';
import { SiteFormModal } from './SiteFormModal.tsx';
import { SiteImportModal } from './SiteImportModal.tsx';
import { CLOSED_COLOR, CRITICALITY_COLOR, STATUS_TAG_COLOR, formatDistance, measurementLines, siteFeatures } from './siteStyle.ts';
import '../leaks/leakMessages.ts';
import { useTableCards } from '../../components/tableCards.ts';

// The screen's messages come with it, not with the sign-in page.
await loadNamespace('construction', { 'zh-CN': () => import('../../locales/construction/zh-CN.ts'), 'en-US': () => import('../../locales/construction/en-US.ts') });

interface Filters {
  projectId?: number;
  keyword?: string;
  status?: string;
  criticality?: string;
  buildType?: string;
  networkType?: string;
  insideGasProtection?: boolean;
}

/**
 * Construction risk: every third-party site near the network, most critical first, on the map
 * and in a list; the selected site's nearest pipes drawn with their distances, its case in the
 * drawer. Figures at the top say what needs attention now.
 */
export default function ConstructionPage() {
  const siteCards = useTableCards<Site>({ x: 'max-content' });
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const isAdmin = usePermission()('enterprise', 'edit');
  const [filters, setFilters] = useState<Filters>({});
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // The drawer closes without clearing the selection: the site and its distances stay drawn.
  const [drawerOpen, setDrawerOpen] = useState(false);
  const select = useCallback((id: number) => {
    setSelectedId(id);
    setDrawerOpen(true);
  }, []);
  const [editing, setEditing] = useState<Site | null | 'new'>(null);
  const [importing, setImporting] = useState(false);
  const [matrixOpen, setMatrixOpen] = useState(false);

  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}) });
  const params = { ...filters, pageSize: 1000 };
  const sites = useQuery({ queryKey: ['construction', enterpriseID, 'sites', params], queryFn: () => constructionApi.sites(params), placeholderData: keepPreviousData });
  const summary = useQuery({ queryKey: ['construction', enterpriseID, 'summary'], queryFn: () => constructionApi.summary() });
  const detail = useQuery({ queryKey: ['construction', enterpriseID, 'site', selectedId], queryFn: () => constructionApi.site(selectedId!), enabled: selectedId !== null });
  const list = useMemo(() => sites.data?.result.list ?? [], [sites.data]);
  const selected: SiteDetail | null = selectedId !== null ? (detail.data?.result ?? null) : null;
  const selectedSite = list.find((s) => s.id === selectedId) ?? selected;

  const overlays = useMemo(
    () => [
      { key: 'sites', features: siteFeatures(list, t, selectedId ?? undefined), onClick: select },
      { key: 'measurement', features: measurementLines(selected, t) },
    ],
    [list, selected, selectedId, select, t],
  );
  // The list's extent, or the selected site with room around it for its nearest pipes.
  const focus = useMemo<BBox | null>(() => {
    if (selectedSite) {
      const [dx, dy] = [0.0004, 0.0003];
      return [selectedSite.minx - dx, selectedSite.miny - dy, selectedSite.maxx + dx, selectedSite.maxy + dy];
    }
    if (!list.length) return null;
    return [Math.min(...list.map((s) => s.minx)), Math.min(...list.map((s) => s.miny)), Math.max(...list.map((s) => s.maxx)), Math.max(...list.map((s) => s.maxy))];
    // Fit when the filters or the selection change, not on every case step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [JSON.stringify(filters), list.length > 0, selectedId, selectedSite?.updatedAt]);

  if (sites.isError) return <Alert type="error" showIcon message={errorMessage(sites.error)} />;
  const set = (patch: Filters) => setFilters((f) => ({ ...f, ...patch }));
  const s = summary.data?.result;
  return (
    <Card data-testid="construction-page" styles={{ body: { paddingTop: 12 } }}>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }} data-testid="construction-summary">
        <Col xs={12} md={4}><Statistic title={t('construction.summary.openThreats')} value={s?.openThreats ?? '-'} valueStyle={{ color: '#cf1322' }} /></Col>
        <Col xs={12} md={5}><Statistic title={t('construction.summary.insideGas')} value={s?.insideGasProtection ?? '-'} valueStyle={{ color: '#cf1322' }} /></Col>
        <Col xs={12} md={4}><Statistic title={t('construction.summary.toReview')} value={s?.toReview ?? '-'} valueStyle={{ color: '#d48806' }} /></Col>
        {(['high', 'medium', 'low'] as const).map((level) => (
          <Col xs={12} md={3} key={level}>
            <Statistic title={<Space size={4}><span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: CRITICALITY_COLOR[level] }} />{t(`construction.summary.${level}`)}</Space>} value={s?.byCriticality[level] ?? '-'} />
          </Col>
        ))}
      </Row>
      <Space wrap style={{ marginBottom: 8 }}>
        <Input.Search allowClear placeholder={t('construction.keyword')} style={{ width: 240 }} onSearch={(v) => set({ keyword: v || undefined })} data-testid="construction-keyword" />
        <Select aria-label={t('construction.filters.status')} allowClear style={{ width: 130 }} value={filters.status} onChange={(v) => set({ status: v })} placeholder={t('construction.filters.status')} options={CASE_STATUSES.map((v) => ({ value: v, label: t(`construction.status.${v}`) }))} data-testid="construction-status" />
        <Select aria-label={t('construction.filters.criticality')} allowClear style={{ width: 120 }} value={filters.criticality} onChange={(v) => set({ criticality: v })} placeholder={t('construction.filters.criticality')} options={CRITICALITIES.map((v) => ({ value: v, label: t(`construction.criticality.${v}`) }))} />
        <Select aria-label={t('construction.filters.buildType')} allowClear style={{ width: 150 }} value={filters.buildType} onChange={(v) => set({ buildType: v })} placeholder={t('construction.filters.buildType')} options={BUILD_TYPES.map((v) => ({ value: v, label: t(`construction.buildType.${v}`) }))} />
        <Select aria-label={t('construction.filters.network')} allowClear style={{ width: 160 }} value={filters.networkType} onChange={(v) => set({ networkType: v })} placeholder={t('construction.filters.network')} options={NETWORK_TYPES.map((v) => ({ value: v, label: t(`network.${v}`) }))} />
        <Select aria-label={t('leak.project')} allowClear style={{ width: 200 }} value={filters.projectId} onChange={(v) => set({ projectId: v })} placeholder={t('leak.project')} options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} data-testid="construction-project" />
        <Space size={4}>
          <Switch size="small" aria-label={t('construction.filters.gasOnly')} checked={filters.insideGasProtection ?? false} onChange={(v) => set({ insideGasProtection: v || undefined })} data-testid="construction-gas-only" />
          {t('construction.filters.gasOnly')}
        </Space>
        <Authorized action="add">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="construction-add">{t('construction.add')}</Button>
        </Authorized>
        <Authorized action="import">
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="construction-import">{t('construction.import')}</Button>
        </Authorized>
        <Authorized action="export">
          <ExportMenu fetch={(format) => constructionApi.exportFile(filters as Record<string, unknown>, format)} baseName="construction-sites" testId="construction-export" />
        </Authorized>
        {isAdmin && <Button icon={<SettingOutlined />} onClick={() => setMatrixOpen(true)} data-testid="construction-matrix">{t('construction.settings')}</Button>}
      </Space>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ flex: '2 1 480px', minWidth: 0 }}>
          <Table<Site>
            rowKey="id"
            size="small"
            loading={sites.isFetching}
            dataSource={list}
            {...siteCards.tableProps}
            locale={{ emptyText: <ListEmpty filtered={anyFilter(filters)} hint={t('construction.emptyHint')} /> }}
            pagination={{ pageSize: 15, size: 'small', showTotal: (total) => <span data-testid="construction-total">{t('construction.total', { total })}</span> }}
            onRow={(site) => ({ onClick: () => select(site.id), style: { cursor: 'pointer' } })}
            rowClassName={(site) => (site.id === selectedId ? 'ant-table-row-selected' : '')}
            columns={siteCards.cards([
              { title: t('construction.columns.siteNo'), dataIndex: 'siteNo' },
              // The build type under the name, the corridor's pipes in the drawer: the list fits beside the map at 1280.
              { title: t('construction.columns.name'), dataIndex: 'name', render: (name: string, site: Site) => <TwoLineCell main={name} sub={t(`construction.buildType.${site.buildType}`)} maxWidth={180} /> },
              { title: t('construction.columns.status'), dataIndex: 'status', render: (v: Site['status']) => <Tag color={STATUS_TAG_COLOR[v]}>{t(`construction.status.${v}`)}</Tag> },
              {
                title: t('construction.columns.criticality'),
                dataIndex: 'criticality',
                render: (v: Site['criticality'], site: Site) => <Tag color={site.status === 'closed' ? CLOSED_COLOR : CRITICALITY_COLOR[v]}>{t(`construction.criticality.${v}`)}{site.insideGasProtection ? ' ⚠' : ''}</Tag>,
              },
              { title: t('construction.columns.nearest'), dataIndex: 'nearestM', align: 'right', render: (v: number | null) => <span style={{ whiteSpace: 'nowrap' }}>{formatDistance(v)}</span> },
            ])}
          />
        </div>
        <div style={{ flex: '3 1 420px', minWidth: 0 }} data-testid="construction-map">
          {settings.data ? <MapView settings={settings.data.result} height={600} overlays={overlays} focus={focus} coveredRight={drawerOpen && selected ? SITE_DRAWER_WIDTH : 0} /> : <Skeleton active />}
          <Space wrap style={{ marginTop: 8 }}>
            {CRITICALITIES.map((c) => (
              <Space key={c} size={4}>
                <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 2, background: CRITICALITY_COLOR[c] }} />
                {t(`construction.criticality.${c}`)}
              </Space>
            ))}
            <Space size={4}>
              <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 2, background: CLOSED_COLOR }} />
              {t('construction.status.closed')}
            </Space>
          </Space>
        </div>
      </div>
      <SiteDrawer site={drawerOpen ? selected : null} onClose={() => setDrawerOpen(false)} onEdit={(site) => setEditing(site)} />
      {settings.data && (
        <SiteFormModal
          open={editing !== null}
          site={editing === 'new' ? null : editing}
          settings={settings.data.result}
          onClose={() => setEditing(null)}
          onSaved={(site) => {
            setEditing(null);
            select(site.id);
          }}
        />
      )}
      <SiteImportModal open={importing} onClose={() => setImporting(false)} onImported={() => setImporting(false)} />
      <CriticalityModal open={matrixOpen} onClose={() => setMatrixOpen(false)} />
    </Card>
  );
}
