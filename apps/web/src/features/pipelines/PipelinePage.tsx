import { useState } from 'react';
import { Button, Card, Descriptions, Drawer, Dropdown, Input, InputNumber, message, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NETWORK_TYPES } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { pipelineApi, type Pipe } from '../../api/pipelines.ts';
import { projectApi } from '../../api/projects.ts';
import { Authorized } from '../../components/Authorized.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import { NETWORK_COLOR } from '../projects/ProjectListPage.tsx';
import { materialLabel } from '../../utils/format.ts';
import { lineToText, PipeFormModal } from './PipeFormModal.tsx';

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

/** The enterprise's pipe network: filters, pages, details, add/edit/delete. */
export default function PipelinePage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const [detail, setDetail] = useState<Pipe | null>(null);
  const [editing, setEditing] = useState<Pipe | null | undefined>(undefined);
  const set = (patch: Filters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage((p) => ({ ...p, page: 1 }));
  };

  const pipes = useQuery({
    queryKey: ['pipelines', enterpriseID, filters, page],
    queryFn: () => pipelineApi.list({ ...filters, ...page }),
    placeholderData: keepPreviousData,
  });
  const facets = useQuery({ queryKey: ['pipelines', enterpriseID, 'facets'], queryFn: pipelineApi.facets });
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}) });
  const remove = useChange((id: number) => pipelineApi.remove(id), { success: t('pipeline.deleted'), invalidate: ['pipelines'] });
  const data = pipes.data?.result;

  /** Downloads the filtered network in a GIS or spreadsheet format. */
  const download = async (format: 'geojson' | 'csv' | 'xlsx') => {
    try {
      const blob = await pipelineApi.exportFile({ ...filters }, format);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `pipes.${format}`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  return (
    <Card
      title={t('menu.pipeLine')}
      data-testid="pipeline-page"
      extra={
        <Space>
          <Authorized action="export">
            <Dropdown
              menu={{
                items: (['geojson', 'csv', 'xlsx'] as const).map((format) => ({ key: format, label: <span data-testid={`export-${format}`}>{format.toUpperCase()}</span> })),
                onClick: ({ key }) => void download(key as 'geojson' | 'csv' | 'xlsx'),
              }}
            >
              <Button icon={<DownloadOutlined />} data-testid="pipe-export">
                {t('pipeline.export')}
              </Button>
            </Dropdown>
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
        <Select allowClear placeholder={t('pipeline.filters.type')} style={{ width: 130 }} onChange={(v) => set({ networkType: v })} options={NETWORK_TYPES.map((n) => ({ value: n, label: t(`network.${n}`) }))} data-testid="pipe-filter-type" />
        <Select allowClear placeholder={t('pipeline.filters.material')} style={{ width: 150 }} onChange={(v) => set({ material: v })} options={(facets.data?.result.materials ?? []).map((m) => ({ value: m, label: materialLabel(t, m) }))} />
        <Space.Compact>
          <InputNumber placeholder={t('pipeline.filters.diameterMin')} min={0} onChange={(v) => set({ diameterMin: v ?? undefined })} style={{ width: 120 }} data-testid="pipe-filter-dmin" />
          <InputNumber placeholder={t('pipeline.filters.diameterMax')} min={0} onChange={(v) => set({ diameterMax: v ?? undefined })} style={{ width: 90 }} />
        </Space.Compact>
        <Space.Compact>
          <InputNumber placeholder={t('pipeline.filters.yearMin')} min={1850} max={2100} onChange={(v) => set({ installYearMin: v ?? undefined })} style={{ width: 140 }} />
          <InputNumber placeholder={t('pipeline.filters.yearMax')} min={1850} max={2100} onChange={(v) => set({ installYearMax: v ?? undefined })} style={{ width: 90 }} />
        </Space.Compact>
        <Select allowClear placeholder={t('pipeline.filters.project')} style={{ width: 220 }} onChange={(v) => set({ projectId: v })} options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} data-testid="pipe-filter-project" />
      </Space>
      <Table<Pipe>
        rowKey="id"
        size="middle"
        loading={pipes.isFetching}
        dataSource={data?.list ?? []}
        scroll={{ x: 900 }}
        onRow={(pipe) => ({ onClick: () => setDetail(pipe), style: { cursor: 'pointer' } })}
        pagination={{
          current: page.page,
          pageSize: page.pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => <span data-testid="pipe-total">{t('pipeline.total', { total })}</span>,
          onChange: (p, pageSize) => setPage({ page: p, pageSize }),
        }}
        columns={[
          { title: t('pipeline.pipeId'), dataIndex: 'pipeId' },
          { title: t('pipeline.networkType'), dataIndex: 'networkType', render: (n: Pipe['networkType']) => <Tag color={NETWORK_COLOR[n]}>{t(`network.${n}`)}</Tag> },
          { title: t('pipeline.material'), dataIndex: 'material', render: (m: string | null) => materialLabel(t, m) },
          { title: t('pipeline.diameter'), dataIndex: 'diameterMm', align: 'right' },
          { title: t('pipeline.installYear'), dataIndex: 'installYear', align: 'right' },
          { title: t('pipeline.length'), dataIndex: 'lengthM', align: 'right', render: (v: number) => v.toFixed(1) },
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
      <Drawer open={detail !== null} onClose={() => setDetail(null)} title={t('pipeline.detail')} width={420}>
        {detail && (
          <Descriptions column={1} size="small" bordered data-testid="pipe-detail">
            <Descriptions.Item label={t('pipeline.pipeId')}>{detail.pipeId}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.networkType')}>{t(`network.${detail.networkType}`)}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.material')}>{materialLabel(t, detail.material)}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.diameter')}>{detail.diameterMm ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.pressureClass')}>{detail.pressureClass ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.installYear')}>{detail.installYear ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.depth')}>{detail.depthM ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.owner')}>{detail.owner ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.length')}>{detail.lengthM.toFixed(1)}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.geometry')}>
              <Typography.Text style={{ fontSize: 12 }} copyable>
                {lineToText(detail.geometry)}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Drawer>
      <PipeFormModal open={editing !== undefined} pipe={editing ?? null} onClose={() => setEditing(undefined)} />
    </Card>
  );
}
