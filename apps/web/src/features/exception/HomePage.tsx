import { useNavigate } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** /home: a failure page (spec section 2) that leads back to the console. */
export default function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('exception.homeTitle')}
      subTitle={t('exception.homeDescription')}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('exception.backHome')}
        </Button>
      }
    />
  );
}
