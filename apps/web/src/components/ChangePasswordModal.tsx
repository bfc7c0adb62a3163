import { Form, Input, message, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api/auth.ts';
import { errorMessage } from '../api/http.ts';
import { useSession } from '../stores/session.ts';
import { useClickGuard } from './GuardedButton.tsx';
import { formRules } from './formRules.ts';
import { useState } from 'react';

interface Values {
  passwordOld: string;
  passwordNew: string;
  confirm: string;
}

/** Change password (spec section 5): success clears the token and user info and reloads. */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const allowClick = useClickGuard();
  const rules = formRules(t);

  const submit = async () => {
    if (!allowClick()) return;
    // A form the fields refuse shows their messages; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const response = await authApi.changPassword({ passwordOld: values.passwordOld, passwordNew: values.passwordNew });
      if (!response.success) {
        // Spec section 8: a warning toast with the server's message; the old password is the one
        // field the server can refuse, so the message is also said under it.
        message.warning(response.message);
        form.setFields([{ name: 'passwordOld', errors: [response.message] }]);
        return;
      }
      useSession.getState().clearSession();
      // Let the success toast be read, then reload: the guard sends the user to sign in again.
      await message.success(response.message, 1.5);
      window.location.reload();
    } catch (error) {
      message.warning(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('account.changePassword')}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="changePassword">
        <Form.Item name="passwordOld" label={t('account.oldPassword')} rules={[{ required: true, message: t('account.oldPlaceholder') }]}>
          <Input.Password placeholder={t('account.oldPlaceholder')} autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="passwordNew"
          label={t('account.newPassword')}
          rules={rules.newPassword}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('account.confirmPassword')}
          dependencies={['passwordNew']}
          rules={rules.confirm('passwordNew', t('account.confirmRequired'), t('account.different'))}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
