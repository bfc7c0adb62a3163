import { Card, List, Typography } from 'antd';
import { AlertOutlined, AreaChartOutlined, BuildOutlined, EnvironmentOutlined, FundProjectionScreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

const FEATURES = [
  { key: 'leak', icon: <AlertOutlined /> },
  { key: 'settlement', icon: <AreaChartOutlined /> },
  { key: 'construction', icon: <BuildOutlined /> },
  { key: 'riskProne', icon: <EnvironmentOutlined /> },
  { key: 'datav', icon: <FundProjectionScreenOutlined /> },
];

export default function ProductionIntroductionPage() {
  const { t } = useTranslation();
  return (
    <Card data-testid="production-introduction">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('system.introTitle')}
      </Typography.Title>
      <Typography.Paragraph>{t('system.introLead')}</Typography.Paragraph>
      <List
        dataSource={FEATURES}
        renderItem={(f) => (
          <List.Item>
            <List.Item.Meta avatar={<span style={{ fontSize: 22, color: '#1890ff' }}>{f.icon}</span>} description={t(`system.features.${f.key}`)} />
          </List.Item>
        )}
      />
    </Card>
  );
}
