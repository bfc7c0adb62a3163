import { useNavigate } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('exception.e404')}
      extra={
        <Button type="primary" onClick={() => navigate('/')} data-testid="back-home">
          {t('exception.backHome')}
        </Button>
      }
    />
  );
}
