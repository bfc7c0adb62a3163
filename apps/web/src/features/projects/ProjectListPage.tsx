import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Card, Input, Popconfirm, Select, Space, Table, Tooltip, Typography } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NETWORK_MAP_COLOR, OPEN_POI_STATUSES, PROJECT_STATUSES, type NetworkType } from '@console/contract';
import { projectApi, type Project } from '../../api/projects.ts';
import { Authorized } from '../../components/Authorized.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import { formatLength } from '../../utils/format.ts';
import { POI_STATUS_COLOR } from '../leaks/poiStatus.ts';
import { later, useOpenedOnce } from '../../components/later.tsx';
import './projectMessages.ts';
import { useTableCards } from '../../components/tableCards.ts';

// The form draws the area on a map: its code (OpenLayers) loads when the form is first opened.
const ProjectFormModal = later(() => import('./ProjectFormModal.tsx').then((m) => m.ProjectFormModal));

export const STATUS_COLOR = { planned: 'blue', active: 'green', closed: 'default' } as const;

/** Pipe length by network type, e.g. "Water 795.9 km · Drainage 556.3 km". */
export function PipeLengths({ lengths }: { lengths: Project['pipeLengthM'] }) {
  const { t } = useTranslation();
  const entries = Object.entries(lengths) as [NetworkType, number][];
  if (entries.length === 0) return <Typography.Text type="secondary">0 m</Typography.Text>;
  return (
    <Space size={4} wrap>
      {entries.map(([type, metres]) => (
        <Tag key={type} color={NETWORK_MAP_COLOR[type]}>
          {t(`network.${type}`)} {formatLength(metres)}
        </Tag>
      ))}
    </Space>
  );
}

/** The project's leak survey at a glance: POIs still open, leaks to repair, leaks repaired; a click opens /leak on it. */
export function PoiFigures({ project }: { project: Project }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const c = project.poiCounts;
  const figures = [
    { key: 'open', count: OPEN_POI_STATUSES.reduce((sum, s) => sum + (c[s] ?? 0), 0), color: POI_STATUS_COLOR.investigating },
    { key: 'toRepair', count: c.leakFound ?? 0, color: POI_STATUS_COLOR.leakFound },
    { key: 'repaired', count: c.repaired ?? 0, color: POI_STATUS_COLOR.repaired },
  ];
  if (Object.keys(c).length === 0) return <Typography.Text type="secondary">{t('project.poiFigures.none')}</Typography.Text>;
  const openLeaks = () => {
    useSession.getState().setProject(project.id);
    navigate('/leak');
  };
  return (
    <Tooltip title={t('project.poiFiguresHint')}>
      <Space size={4} wrap style={{ cursor: 'pointer' }} onClick={openLeaks} data-testid={`project-pois-${project.code}`}>
        {figures.map((f) => (
          <Tag key={f.key} color={f.count ? f.color : undefined}>
            {t(`project.poiFigures.${f.key}`, { count: f.count })}
          </Tag>
        ))}
      </Space>
    </Tooltip>
  );
}

/** The enterprise's monitoring projects: the landing page after sign-in. */
export default function ProjectListPage() {
  const { t } = useTranslation();
  // On a phone a card per row (every column on it), no sideways scrolling.
  const projectCards = useTableCards<Project>({ x: 1100 });
  const navigate = useNavigate();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<string | undefined>();
  const [editing, setEditing] = useState<Project | null | undefined>(undefined);
  const formOpened = useOpenedOnce(editing !== undefined);
  const projects = useQuery({ queryKey: ['projects', enterpriseID, keyword, status], queryFn: () => projectApi.list({ keyword: keyword || undefined, status }) });
  const remove = useChange((id: number) => projectApi.remove(id), { success: t('project.deleted'), invalidate: ['projects'] });

  const open = (project: Project) => {
    useSession.getState().setProject(project.id);
    navigate('/project/info');
  };

  return (
    <Card
      title={t('menu.projectList')}
      data-testid="project-list"
      extra={
        <Authorized action="add">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="project-new">
            {t('project.new')}
          </Button>
        </Authorized>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder={t('project.searchPlaceholder')} onSearch={(v) => setKeyword(v.trim())} style={{ width: 260 }} data-testid="project-search" />
        <Select aria-label={t('project.allStatuses')}
          allowClear
          placeholder={t('project.allStatuses')}
          style={{ width: 160 }}
          value={status}
          onChange={setStatus}
          options={PROJECT_STATUSES.map((s) => ({ value: s, label: t(`project.statuses.${s}`) }))}
        />
      </Space>
      <Table<Project>
        rowKey="id"
        loading={projects.isLoading}
        dataSource={projects.data?.result ?? []}
        pagination={false}
        {...projectCards.tableProps}
        locale={{ emptyText: t('project.empty') }}
        columns={projectCards.cards([
          {
            title: t('project.name'),
            dataIndex: 'name',
            render: (name: string, p) => (
              <Typography.Link onClick={() => open(p)} data-testid={`project-open-${p.code}`}>
                {name}
              </Typography.Link>
            ),
          },
          { title: t('project.code'), dataIndex: 'code', responsive: ['md'] },
          { title: t('project.city'), responsive: ['md'], render: (_, p) => [p.city, p.district].filter(Boolean).join(' ') },
          { title: t('project.status'), dataIndex: 'status', render: (s: Project['status']) => <Tag color={STATUS_COLOR[s]}>{t(`project.statuses.${s}`)}</Tag> },
          { title: t('project.period'), responsive: ['md'], render: (_, p) => [p.startDate, p.endDate].map((d) => d ?? '…').join(' ~ ') },
          { title: t('project.pipeLength'), dataIndex: 'pipeLengthM', responsive: ['md'], render: (lengths: Project['pipeLengthM']) => <PipeLengths lengths={lengths} /> },
          { title: t('project.pois'), render: (_, p) => <PoiFigures project={p} /> },
          {
            title: t('common.actions'),
            width: 120,
            render: (_, p) => (
              <Space style={{ whiteSpace: 'nowrap' }}>
                <Authorized action="edit">
                  <Typography.Link onClick={() => setEditing(p)}>{t('common.edit')}</Typography.Link>
                </Authorized>
                <Authorized action="delete">
                  <Popconfirm title={t('project.deleteConfirm', { name: p.name })} onConfirm={() => remove.mutate(p.id)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                    <Typography.Link type="danger">{t('common.delete')}</Typography.Link>
                  </Popconfirm>
                </Authorized>
              </Space>
            ),
          },
        ])}
      />
      {formOpened && <ProjectFormModal open={editing !== undefined} project={editing ?? null} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
