import { useState } from 'react';
import { Alert, Form, Input, message } from 'antd';
import { MobileOutlined, LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../api/auth.ts';
import { errorMessage } from '../../api/http.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { formRules } from '../../components/formRules.ts';
import { SmsCodeInput } from './SmsCodeInput.tsx';

/** Reset a forgotten password with a code sent to the account's phone. */
export function RecoverForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const rules = formRules(t);

  const submit = async (values: { phone: string; smsCode: string; passwordNew: string }) => {
    setSaving(true);
    setError(null);
    try {
      const response = await authApi.forgePassword(values);
      message.success(response.message || t('user.recover.done'));
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} name="recover" size="large" onFinish={submit}>
      <p style={{ color: 'rgba(0,0,0,0.62)' }}>{t('user.recover.description')}</p>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form.Item name="phone" rules={rules.phone}>
        <Input prefix={<MobileOutlined />} placeholder={t('user.register.phone')} data-testid="recover-phone" />
      </Form.Item>
      <Form.Item name="smsCode" rules={rules.smsCode}>
        <SmsCodeInput form={form} purpose="recover" />
      </Form.Item>
      <Form.Item
        name="passwordNew"
        rules={rules.newPassword}
      >
        <Input.Password prefix={<LockOutlined />} placeholder={t('user.recover.newPassword')} autoComplete="new-password" data-testid="recover-password" />
      </Form.Item>
      <GuardedButton type="primary" htmlType="submit" block loading={saving} data-testid="recover-submit">
        {t('user.recover.submit')}
      </GuardedButton>
    </Form>
  );
}
