import { Link, useLocation } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

export default function RegisterResultPage() {
  const { t } = useTranslation();
  const username = (useLocation().state as { username?: string } | null)?.username ?? '';
  return (
    <div data-testid="register-result">
    <Result
      status="success"
      title={t('user.registerResult.title', { username })}
      subTitle={t('user.registerResult.description')}
      extra={[
        <Link key="login" to="/user/login">
          <Button type="primary">{t('user.registerResult.toLogin')}</Button>
        </Link>,
        <Link key="home" to="/home">
          <Button>{t('user.registerResult.home')}</Button>
        </Link>,
      ]}
    />
    </div>
  );
}
