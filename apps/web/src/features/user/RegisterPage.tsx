import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Form, Input, Progress } from 'antd';
import { LockOutlined, MailOutlined, MobileOutlined, UserOutlined, IdcardOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../api/auth.ts';
import { errorMessage } from '../../api/http.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { formRules } from '../../components/formRules.ts';
import { passwordStrength, scorePassword, type Strength } from '../../utils/passwordStrength.ts';
import { SmsCodeInput } from './SmsCodeInput.tsx';

const STRENGTH_COLOR: Record<Strength, string> = { strong: '#52c41a', medium: '#faad14', low: '#ff4d4f', tooShort: '#ff4d4f', notAllowed: '#ff4d4f' };

interface Values {
  username: string;
  realname: string;
  email?: string;
  password: string;
  confirm: string;
  phone: string;
  smsCode: string;
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const password = Form.useWatch('password', form) ?? '';
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const strength = passwordStrength(password);
  const rules = formRules(t);

  const submit = async (values: Values) => {
    setSaving(true);
    setError(null);
    try {
      const { confirm: _, ...data } = values;
      const response = await authApi.register(data as unknown as Record<string, unknown>);
      navigate('/user/register-result', { state: { username: response.result.username } });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  const meter = (
    <div style={{ marginTop: 4 }} data-testid="password-strength">
      <div style={{ color: STRENGTH_COLOR[strength] }} data-testid="password-strength-level" data-level={strength}>
        {t('user.register.strength', { level: t(`user.register.strengthLevel.${strength}`) })}
      </div>
      <Progress percent={strength === 'notAllowed' ? 0 : Math.min(100, scorePassword(password))} showInfo={false} strokeColor={STRENGTH_COLOR[strength]} size="small" />
      <div style={{ color: 'rgba(0,0,0,0.45)' }}>{t('user.register.strengthHint')}</div>
    </div>
  );

  return (
    <div data-testid="register-page">
      <h3 style={{ fontSize: 16, marginBottom: 20 }}>{t('user.register.title')}</h3>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="register-error" />}
      <Form form={form} name="register" size="large" onFinish={submit}>
        <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('user.register.usernameRequired') }, { pattern: /^[A-Za-z0-9_.@-]{3,32}$/, message: t('user.register.username') }]}>
          <Input prefix={<UserOutlined />} placeholder={t('user.register.username')} autoComplete="username" data-testid="register-username" />
        </Form.Item>
        <Form.Item name="realname" rules={[{ required: true, whitespace: true, message: t('user.register.realnameRequired') }]}>
          <Input prefix={<IdcardOutlined />} placeholder={t('user.register.realname')} data-testid="register-realname" />
        </Form.Item>
        <Form.Item name="email" rules={[{ type: 'email', message: t('user.register.emailInvalid') }]}>
          <Input prefix={<MailOutlined />} placeholder={t('user.register.email')} autoComplete="email" data-testid="register-email" />
        </Form.Item>
        <Form.Item
            name="password"
            extra={password.length > 0 ? meter : undefined}
            rules={rules.newPassword}
          >
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('user.register.password')}
              autoComplete="new-password"
              data-testid="register-password"
            />
          </Form.Item>
        <Form.Item
          name="confirm"
          dependencies={['password']}
          rules={rules.confirm('password', t('user.register.confirmRequired'), t('user.register.passwordsDiffer'))}
        >
          <Input.Password prefix={<LockOutlined />} placeholder={t('user.register.confirm')} autoComplete="new-password" data-testid="register-confirm" />
        </Form.Item>
        <Form.Item name="phone" rules={rules.phone}>
          <Input prefix={<MobileOutlined />} placeholder={t('user.register.phone')} data-testid="register-phone" />
        </Form.Item>
        <Form.Item name="smsCode" rules={rules.smsCode}>
          <SmsCodeInput form={form} purpose="register" />
        </Form.Item>
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <GuardedButton type="primary" htmlType="submit" loading={saving} style={{ width: '50%' }} data-testid="register-submit">
            {t('user.register.submit')}
          </GuardedButton>
          <Link to="/user/login">{t('user.register.toLogin')}</Link>
        </div>
      </Form>
    </div>
  );
}
