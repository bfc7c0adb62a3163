import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Form, Input, Modal, notification, Tabs } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/http.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { useSession } from '../../stores/session.ts';
import { greetingPeriod } from '../../utils/greeting.ts';
import { RecoverForm } from './RecoverForm.tsx';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  // /user/recover (and its link) opens the "forgot password" dialog here.
  const [recovering, setRecovering] = useState(params.get('recover') === '1');

  const submit = async ({ username, password }: { username: string; password: string }) => {
    setLoading(true);
    setError(null);
    try {
      const info = await useSession.getState().login(username.trim(), password);
      const redirect = params.get('redirect');
      navigate(redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/project/list');
      // Greet by the hour once the console shows.
      setTimeout(() => {
        notification.success({
          // Below the header, so its controls stay within reach while the greeting shows.
          placement: 'bottomRight',
          message: `${t('user.login.welcome')} ${info.realname}`,
          description: t('user.login.greetingText', { greeting: t(`user.login.greeting.${greetingPeriod()}`) }),
        });
      }, 1000);
    } catch (failure) {
      setError(failure instanceof Error && !('isAxiosError' in failure) ? failure.message || t('user.login.failed') : errorMessage(failure));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div data-testid="login-page">
      <Tabs centered items={[{ key: 'account', label: t('user.login.tab') }]} />
      <Form name="login" size="large" onFinish={submit} onValuesChange={() => setError(null)}>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} data-testid="login-error" />}
        <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('user.login.usernameRequired') }]}>
          <Input prefix={<UserOutlined />} placeholder={t('user.login.username')} autoComplete="username" data-testid="login-username" />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: t('user.login.passwordRequired') }]}>
          <Input.Password prefix={<LockOutlined />} placeholder={t('user.login.password')} autoComplete="current-password" data-testid="login-password" />
        </Form.Item>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 24 }}>
          <a onClick={() => setRecovering(true)} data-testid="login-forgot">
            {t('user.login.forgot')}
          </a>
          <Link to="/user/register" data-testid="login-register">
            {t('user.login.register')}
          </Link>
        </div>
        <GuardedButton type="primary" htmlType="submit" block loading={loading} data-testid="login-submit">
          {t('user.login.submit')}
        </GuardedButton>
      </Form>
      <Modal open={recovering} title={t('user.recover.title')} footer={null} onCancel={() => setRecovering(false)} destroyOnHidden>
        <RecoverForm onDone={() => setRecovering(false)} />
      </Modal>
    </div>
  );
}
