import type { ReactNode } from 'react';
import { Button, Card, Col, Row, Steps, Typography } from 'antd';
import {
  AlertOutlined,
  ApartmentOutlined,
  BellOutlined,
  BuildOutlined,
  CloudOutlined,
  EnvironmentOutlined,
  FundProjectionScreenOutlined,
  LineChartOutlined,
  RadarChartOutlined,
  TeamOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DatavOverview } from '@console/contract';
import { get } from '../../api/http.ts';
import { usePermission } from '../../components/Authorized.tsx';
import { loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';

await loadNamespace('intro', { 'zh-CN': () => import('../../locales/intro/zh-CN.ts'), 'en-US': () => import('../../locales/intro/en-US.ts') });

type ModuleKey = 'pipelines' | 'leak' | 'settlement' | 'construction' | 'riskProne' | 'weather' | 'pipeRisk' | 'alerts' | 'datav';
const MODULES: { key: ModuleKey; icon: ReactNode; path: string }[] = [
  { key: 'pipelines', icon: <ApartmentOutlined />, path: '/enterprise/pipeLine' },
  { key: 'leak', icon: <AlertOutlined />, path: '/leak' },
  { key: 'settlement', icon: <LineChartOutlined />, path: '/settlement' },
  { key: 'construction', icon: <BuildOutlined />, path: '/risk/construction' },
  { key: 'riskProne', icon: <EnvironmentOutlined />, path: '/risk/riskProne' },
  { key: 'weather', icon: <CloudOutlined />, path: '/weather' },
  { key: 'pipeRisk', icon: <WarningOutlined />, path: '/enterprise/map' },
  { key: 'alerts', icon: <BellOutlined />, path: '/risk/alerts' },
  { key: 'datav', icon: <FundProjectionScreenOutlined />, path: '/datav' },
];
const FLOW = [
  { key: 'satellite', icon: <RadarChartOutlined /> },
  { key: 'field', icon: <TeamOutlined /> },
  { key: 'monitors', icon: <LineChartOutlined /> },
  { key: 'risk', icon: <WarningOutlined /> },
  { key: 'alerts', icon: <BellOutlined /> },
  { key: 'screen', icon: <FundProjectionScreenOutlined /> },
];

/** The enterprise's own figure for a module, worded; null where it has no data for it. */
function figureOf(key: ModuleKey, o: DatavOverview, t: (key: string, values?: Record<string, unknown>) => string): string | null {
  const n = (v: number) => v.toLocaleString();
  const types = Object.values(o.network.byType);
  switch (key) {
    case 'pipelines':
      return types.length ? t('intro.modules.pipelines.figure', { km: n(Math.round(types.reduce((s, v) => s + v.km, 0))), types: types.length }) : null;
    case 'leak':
      return o.leaks.delivered ? t('intro.modules.leak.figure', { delivered: n(o.leaks.delivered), confirmed: n(o.leaks.confirmed), repaired: n(o.leaks.repaired) }) : null;
    case 'settlement':
      return o.settlement.datasets ? t('intro.modules.settlement.figure', { points: n(o.settlement.points), alarm: n(o.settlement.alarm) }) : null;
    case 'construction':
      return o.construction.total ? t('intro.modules.construction.figure', { total: n(o.construction.total), threats: n(o.construction.openThreats) }) : null;
    case 'weather':
      return o.weather.places.length ? t('intro.modules.weather.figure', { count: o.weather.warnings.length }) : null;
    case 'pipeRisk':
      return o.risk ? t('intro.modules.pipeRisk.figure', { high: n(o.risk.levels.I + o.risk.levels.II), segments: n(o.risk.segments) }) : null;
    case 'alerts':
      return t('intro.modules.alerts.figure', { open: n(o.alerts.open), overdue: n(o.alerts.overdue) });
    default:
      return null;
  }
}

/**
 * What the product is for and how its parts fit: the flow from satellite and field to risk and
 * alerts, and each module with what it holds in the reader's own enterprise.
 */
export default function ProductionIntroductionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const can = usePermission();
  const overview = useQuery({ queryKey: ['datav', enterpriseID, 'overview'], queryFn: () => get<DatavOverview>('/datav/overview'), enabled: Boolean(enterpriseID) && can('datav', 'query') });
  const o = overview.data?.result;
  return (
    <div data-testid="production-introduction">
      <Card style={{ marginBottom: 16 }}>
        <Typography.Title level={3} style={{ marginTop: 0 }}>{t('intro.title')}</Typography.Title>
        <Typography.Paragraph style={{ fontSize: 15, maxWidth: 960 }}>{t('intro.lead')}</Typography.Paragraph>
        <Typography.Title level={5}>{t('intro.flowTitle')}</Typography.Title>
        <Steps
          data-testid="intro-flow"
          current={-1}
          size="small"
          items={FLOW.map((f) => ({ title: t(`intro.flow.${f.key}.title`), description: <span style={{ fontSize: 13 }}>{t(`intro.flow.${f.key}.text`)}</span>, icon: <span style={{ color: '#1677ff' }}>{f.icon}</span>, status: 'process' }))}
        />
      </Card>
      <Typography.Title level={4}>{t('intro.modulesTitle')}</Typography.Title>
      <Row gutter={[16, 16]}>
        {MODULES.map((m) => {
          const figure = o ? figureOf(m.key, o, t) : null;
          return (
            <Col xs={24} md={12} xl={8} key={m.key}>
              <Card
                size="small"
                style={{ height: '100%' }}
                data-testid={`intro-${m.key}`}
                title={<span><span style={{ color: '#1677ff', marginRight: 8 }}>{m.icon}</span>{t(`intro.modules.${m.key}.title`)}</span>}
                extra={<Button type="link" size="small" onClick={() => navigate(m.path)}>{t('intro.open')}</Button>}
              >
                <Typography.Paragraph style={{ marginBottom: 8 }}>{t(`intro.modules.${m.key}.text`)}</Typography.Paragraph>
                {figure && (
                  <Typography.Text type="secondary" data-testid={`intro-figure-${m.key}`}>
                    {t('intro.yours')}: <Typography.Text strong>{figure}</Typography.Text>
                  </Typography.Text>
                )}
              </Card>
            </Col>
          );
        })}
      </Row>
    </div>
  );
}
