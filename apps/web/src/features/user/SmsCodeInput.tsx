import { useEffect, useState } from 'react';
import { Button, Input, message, Space, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../api/auth.ts';
import { errorMessage } from '../../api/http.ts';

/** Seconds before another code may be asked for (the server allows one per minute). */
export const SMS_COUNTDOWN_S = 60;

/** A code field with a "get code" button that counts down 60 s after a send. */
export function SmsCodeInput({
  form,
  purpose,
  value,
  onChange,
}: {
  form: FormInstance;
  purpose: 'register' | 'recover';
  value?: string;
  onChange?: (value: string) => void;
}) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const send = async () => {
    const phone = await form.validateFields(['phone']).then((v) => v.phone as string).catch(() => null);
    if (!phone) return;
    setSending(true);
    try {
      await authApi.sendSMS({ phone, purpose });
      message.success(t('user.register.codeSent'));
      setSeconds(SMS_COUNTDOWN_S);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={t('user.register.smsCode')} maxLength={6} inputMode="numeric" data-testid="sms-code" />
      <Button onClick={send} loading={sending} disabled={seconds > 0} style={{ minWidth: 110 }} data-testid="sms-send">
        {seconds > 0 ? t('user.register.resend', { seconds }) : t('user.register.getCode')}
      </Button>
    </Space.Compact>
  );
}
