import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Card, Descriptions, Empty, Skeleton, Space } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NETWORK_MAP_COLOR } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { projectApi } from '../../api/projects.ts';
import { mapApi } from '../../api/map.ts';
import { MapView } from '../../components/MapView.tsx';
import { Authorized } from '../../components/Authorized.tsx';
import { useSession } from '../../stores/session.ts';
import { ProjectFormModal } from './ProjectFormModal.tsx';
import { PipeRiskPanel } from '../pipeRisk/PipeRiskPanel.tsx';
import { PipeLengths, PoiFigures, STATUS_COLOR } from './ProjectListPage.tsx';
import './projectMessages.ts';

/** One project's details and key figures; the current project id is kept in session storage. */
export default function ProjectInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const projectID = useSession((s) => s.projectID);
  const enterpriseID = useSession((s) => s.enterpriseID);
  const [editing, setEditing] = useState(false);
  const project = useQuery({ queryKey: ['projects', enterpriseID, 'one', projectID], queryFn: () => projectApi.get(projectID!), enabled: projectID !== null });
  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const data = project.data?.result;
  const areas = useMemo(() => (data ? [{ id: data.id, name: data.name, area: data.area }] : []), [data]);

  if (projectID === null)
    return (
      <Card>
        <Empty description={t('project.notChosen')}>
          <Button type="primary" onClick={() => navigate('/project/list')}>
            {t('menu.projectList')}
          </Button>
        </Empty>
      </Card>
    );
  if (project.isError) return <Alert type="error" showIcon message={errorMessage(project.error)} />;
  const p = project.data?.result;
  if (!p) return <Skeleton active />;
  return (
    <Card
      title={p.name}
      data-testid="project-info"
      extra={
        <Authorized action="edit">
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="project-edit">
            {t('common.edit')}
          </Button>
        </Authorized>
      }
    >
      <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
        <Descriptions.Item label={t('project.code')}>{p.code}</Descriptions.Item>
        <Descriptions.Item label={t('project.status')}>
          <Tag color={STATUS_COLOR[p.status]}>{t(`project.statuses.${p.status}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('project.city')}>{[p.city, p.district].filter(Boolean).join(' ')}</Descriptions.Item>
        <Descriptions.Item label={t('project.period')}>{[p.startDate, p.endDate].map((d) => d ?? '…').join(' ~ ')}</Descriptions.Item>
        <Descriptions.Item label={t('project.networkTypes')}>
          <Space size={4}>
            {p.networkTypes.map((n) => (
              <Tag key={n} color={NETWORK_MAP_COLOR[n]}>
                {t(`network.${n}`)}
              </Tag>
            ))}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('project.area')}>{p.bbox.map((v) => v.toFixed(4)).join(', ')}</Descriptions.Item>
        <Descriptions.Item label={t('project.pipeLength')} span={2}>
          <span data-testid="project-pipe-length">
            <PipeLengths lengths={p.pipeLengthM} />
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('project.pois')} span={2}>
          <PoiFigures project={p} />
        </Descriptions.Item>
        <Descriptions.Item label={t('project.description')} span={2}>
          {p.description ?? '-'}
        </Descriptions.Item>
      </Descriptions>
      {settings.data && (
        <div style={{ marginTop: 16 }}>
          <MapView settings={settings.data.result} areas={areas} fitAreas height={420} />
        </div>
      )}
      <Card size="small" type="inner" title={t('pipeRisk.title')} style={{ marginTop: 16 }}>
        <PipeRiskPanel projectId={p.id} />
      </Card>
      <ProjectFormModal open={editing} project={p} onClose={() => setEditing(false)} />
    </Card>
  );
}
