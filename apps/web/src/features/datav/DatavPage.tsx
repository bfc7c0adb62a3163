import { useNavigate } from 'react-router';
import { Button } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';

/** Standalone full-screen data visualisation page for supervision centres. */
export default function DatavPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const enterprise = useSession((s) => s.enterprises?.find((e) => e.id === s.enterpriseID));
  return (
    <div data-testid="datav" style={{ minHeight: '100vh', background: 'radial-gradient(circle at 50% 0%, #0d2a4d 0%, #050b18 70%)', color: '#cfe8ff', padding: 24, boxSizing: 'border-box' }}>
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        <Button type="text" icon={<ArrowLeftOutlined />} style={{ color: '#cfe8ff' }} onClick={() => navigate('/')}>
          {t('common.back')}
        </Button>
        <h1 style={{ margin: 0, fontSize: 28, letterSpacing: 4, color: '#e6f4ff' }}>{t('app.title')}</h1>
        <span>{enterprise?.enterpriseName}</span>
      </div>
      <p style={{ textAlign: 'center', opacity: 0.7 }}>{t('page.datav')}</p>
    </div>
  );
}
