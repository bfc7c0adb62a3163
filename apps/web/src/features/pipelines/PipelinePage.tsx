import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Input, InputNumber, message, Popconfirm, Select, Skeleton, Space, Table, Typography } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NETWORK_MAP_COLOR, NETWORK_TYPES, type BBox, type ImportJobView } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { pipelineApi, type Pipe } from '../../api/pipelines.ts';
import { mapApi } from '../../api/map.ts';
import { projectApi } from '../../api/projects.ts';
import { MapView } from '../../components/MapView.tsx';
import { MaterialSelect } from '../../components/MaterialSelect.tsx';
import { Authorized } from '../../components/Authorized.tsx';
import { ExportMenu } from '../../components/ExportMenu.tsx';
import { firstPosition, ListPager, positionParams, type ListPosition } from '../../components/ListPager.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import { materialLabel } from '../../utils/format.ts';
import { lineToText, PipeFormModal } from './PipeFormModal.tsx';
import { PipeImportModal } from './PipeImportModal.tsx';

interface Filters {
  keyword?: string;
  networkType?: string;
  material?: string;
  diameterMin?: number;
  diameterMax?: number;
  installYearMin?: number;
  installYearMax?: number;
  projectId?: number;
}

/** The enterprise's pipe network: filters, pages, the map beside the table, details, add/edit/delete, import and export. */
export default function PipelinePage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const [filters, setFilters] = useState<Filters>({});
  const [position, setPosition] = useState<ListPosition>(firstPosition());
  const [selected, setSelected] = useState<Pipe | null>(null);
  const [editing, setEditing] = useState<Pipe | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const [focus, setFocus] = useState<BBox | null>(null);
  const [pipesRevision, setPipesRevision] = useState(0);
  const set = (patch: Filters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPosition((p) => firstPosition(p.pageSize));
  };

  const pipes = useQuery({
    queryKey: ['pipelines', enterpriseID, filters, position],
    queryFn: () => pipelineApi.list({ ...filters, ...positionParams(position) }),
    placeholderData: keepPreviousData,
  });
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}) });
  const mapSettings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const refreshMap = () => setPipesRevision((r) => r + 1);
  const remove = useChange((id: number) => pipelineApi.remove(id), {
    success: t('pipeline.deleted'),
    invalidate: ['pipelines'],
    onDone: () => {
      setSelected(null);
      refreshMap();
    },
  });
  const data = pipes.data?.result;

  /** A pipe clicked on the map becomes the selected one, as a row click does. */
  const pickOnMap = async (properties: Record<string, unknown>) => {
    try {
      setSelected((await pipelineApi.get(Number(properties.id))).result);
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  const imported = (job: ImportJobView) => {
    setImporting(false);
    setSelected(null);
    refreshMap();
    if (job.result?.extent) setFocus([...job.result.extent]);
  };

  return (
    <Card
      title={t('menu.pipeLine')}
      data-testid="pipeline-page"
      extra={
        <Space>
          <Authorized action="export">
            <ExportMenu fetch={(format) => pipelineApi.exportFile({ ...filters }, format)} baseName="pipes" testId="pipe-export" />
          </Authorized>
          <Authorized action="import">
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="pipe-import">
              {t('pipeline.import')}
            </Button>
          </Authorized>
          <Authorized action="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="pipe-add">
              {t('pipeline.add')}
            </Button>
          </Authorized>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder={t('pipeline.filters.keyword')} onSearch={(v) => set({ keyword: v.trim() || undefined })} style={{ width: 180 }} data-testid="pipe-search" />
        <Select aria-label={t('pipeline.filters.type')} allowClear placeholder={t('pipeline.filters.type')} style={{ width: 130 }} onChange={(v) => set({ networkType: v })} options={NETWORK_TYPES.map((n) => ({ value: n, label: t(`network.${n}`) }))} data-testid="pipe-filter-type" />
        <MaterialSelect aria-label={t('pipeline.filters.material')} placeholder={t('pipeline.filters.material')} style={{ width: 150 }} onChange={(v) => set({ material: v })} />
        <Space.Compact>
          <InputNumber placeholder={t('pipeline.filters.diameterMin')} min={0} onChange={(v) => set({ diameterMin: v ?? undefined })} style={{ width: 120 }} data-testid="pipe-filter-dmin" />
          <InputNumber placeholder={t('pipeline.filters.diameterMax')} min={0} onChange={(v) => set({ diameterMax: v ?? undefined })} style={{ width: 90 }} />
        </Space.Compact>
        <Space.Compact>
          <InputNumber placeholder={t('pipeline.filters.yearMin')} min={1850} max={2100} onChange={(v) => set({ installYearMin: v ?? undefined })} style={{ width: 140 }} />
          <InputNumber placeholder={t('pipeline.filters.yearMax')} min={1850} max={2100} onChange={(v) => set({ installYearMax: v ?? undefined })} style={{ width: 90 }} />
        </Space.Compact>
        <Select aria-label={t('pipeline.filters.project')} allowClear placeholder={t('pipeline.filters.project')} style={{ width: 220 }} onChange={(v) => set({ projectId: v })} options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} data-testid="pipe-filter-project" />
      </Space>
      {/* Table and map side by side when there is room, the map below otherwise. */}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ flex: '3 1 620px', minWidth: 0 }}>
        <Table<Pipe>
          rowKey="id"
          size="small"
          loading={pipes.isFetching}
          dataSource={data?.list ?? []}
          onRow={(pipe) => ({ onClick: () => setSelected(pipe), style: { cursor: 'pointer' } })}
          rowClassName={(pipe) => (pipe.id === selected?.id ? 'ant-table-row-selected' : '')}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('pipeline.pipeId'), dataIndex: 'pipeId' },
            { title: t('pipeline.networkType'), dataIndex: 'networkType', render: (n: Pipe['networkType']) => <Tag color={NETWORK_MAP_COLOR[n]}>{t(`network.${n}`)}</Tag> },
            // On a phone the key columns only; the rest is in the pipe's detail below the list.
            { title: t('pipeline.material'), dataIndex: 'material', responsive: ['md'], render: (m: string | null) => materialLabel(t, m) },
            { title: t('pipeline.diameter'), dataIndex: 'diameterMm', align: 'right' },
            { title: t('pipeline.installYear'), dataIndex: 'installYear', align: 'right', responsive: ['md'] },
            { title: t('pipeline.length'), dataIndex: 'lengthM', align: 'right', responsive: ['md'], render: (v: number) => v.toFixed(1) },
            {
              title: t('common.actions'),
              render: (_, pipe) => (
                <Space onClick={(e) => e.stopPropagation()}>
                  <Authorized action="edit">
                    <Typography.Link onClick={() => setEditing(pipe)}>{t('common.edit')}</Typography.Link>
                  </Authorized>
                  <Authorized action="delete">
                    <Popconfirm title={t('pipeline.deleteConfirm', { pipeId: pipe.pipeId })} onConfirm={() => remove.mutate(pipe.id)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                      <Typography.Link type="danger">{t('common.delete')}</Typography.Link>
                    </Popconfirm>
                  </Authorized>
                </Space>
              ),
            },
          ]}
        />
        <ListPager
          data={data}
          position={position}
          keyOf={(pipe) => pipe.pipeId}
          onChange={setPosition}
          total={(total, exact) => t(exact ? 'pipeline.total' : 'pipeline.moreThan', { total: total.toLocaleString() })}
          testId="pipe-pager"
        />
        </div>
        <div style={{ flex: '2 1 380px', minWidth: 0 }}>
          <Space direction="vertical" style={{ width: '100%' }}>
            {mapSettings.isError ? (
              <Alert type="error" showIcon message={errorMessage(mapSettings.error)} />
            ) : !mapSettings.data ? (
              <Skeleton active />
            ) : (
              <MapView settings={mapSettings.data.result} height={520} highlight={selected?.geometry ?? null} focus={focus} pipesRevision={pipesRevision} onPipeClick={(p) => void pickOnMap(p)} />
            )}
            <Card size="small" title={t('pipeline.detail')}>
              {selected ? (
                <Descriptions column={2} size="small" data-testid="pipe-detail">
                  <Descriptions.Item label={t('pipeline.pipeId')}>{selected.pipeId}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.networkType')}>{t(`network.${selected.networkType}`)}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.material')}>{materialLabel(t, selected.material)}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.diameter')}>{selected.diameterMm ?? '-'}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.pressureClass')}>{selected.pressureClass ?? '-'}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.installYear')}>{selected.installYear ?? '-'}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.depth')}>{selected.depthM ?? '-'}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.length')}>{selected.lengthM.toFixed(1)}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.owner')} span={2}>{selected.owner ?? '-'}</Descriptions.Item>
                  <Descriptions.Item label={t('pipeline.geometry')} span={2}>
                    <Typography.Text style={{ fontSize: 12 }} copyable ellipsis={{ tooltip: true }}>
                      {lineToText(selected.geometry)}
                    </Typography.Text>
                  </Descriptions.Item>
                </Descriptions>
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pipeline.pickHint')} />
              )}
            </Card>
          </Space>
        </div>
      </div>
      <PipeFormModal
        open={editing !== undefined}
        pipe={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(pipe) => {
          setSelected(pipe);
          refreshMap();
        }}
      />
      <PipeImportModal open={importing} onClose={() => setImporting(false)} onImported={imported} />
    </Card>
  );
}
