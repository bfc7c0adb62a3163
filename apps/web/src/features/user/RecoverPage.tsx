import { useNavigate } from 'react-router';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { RecoverForm } from './RecoverForm.tsx';

export default function RecoverPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card title={t('user.recover.title')}>
      <RecoverForm onDone={() => navigate('/user/login')} />
    </Card>
  );
}
