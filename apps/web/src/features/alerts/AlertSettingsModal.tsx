import { useEffect } from 'react';
import { Form, InputNumber, Modal, Select, message } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RISK_LEVELS, type AlertSettings } from '@console/contract';
import { alertApi } from '../../api/alerts.ts';
import { errorMessage } from '../../api/http.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useSession } from '../../stores/session.ts';

/** The zones the browser knows (every IANA zone), the enterprise's own first. */
const TIME_ZONES: string[] = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['Asia/Shanghai', 'UTC'];

/** The enterprise's deadlines by level and the days a found leak may wait for repair (admins). */
export function AlertSettingsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const allowClick = useClickGuard();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AlertSettings>();
  const current = useQuery({ queryKey: ['alerts', enterpriseID, 'settings'], queryFn: alertApi.settings, enabled: open });
  useEffect(() => {
    if (open && current.data) form.setFieldsValue(current.data.result);
  }, [open, current.data, form]);
  const save = async () => {
    if (!allowClick()) return;
    const values = await form.validateFields();
    try {
      message.success((await alertApi.saveSettings(values)).message);
      void queryClient.invalidateQueries({ queryKey: ['alerts', enterpriseID] });
      onClose();
    } catch (error) {
      message.error(errorMessage(error));
    }
  };
  return (
    <Modal open={open} title={t('alerts.settingsForm.title')} onOk={save} onCancel={onClose} okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" name="alert-settings">
        {RISK_LEVELS.map((level) => (
          <Form.Item key={level} name={['deadlineHours', level]} label={t('alerts.settingsForm.hours', { level })} rules={[{ required: true, message: t('alerts.form.required') }]}>
            <InputNumber min={0.5} max={2160} step={1} style={{ width: 160 }} />
          </Form.Item>
        ))}
        <Form.Item name="leakRepairDays" label={t('alerts.settingsForm.leakDays')} rules={[{ required: true, message: t('alerts.form.required') }]}>
          <InputNumber min={1} max={365} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="bowlGapM" label={t('alerts.settingsForm.bowlGap')} extra={t('alerts.settingsForm.bowlGapHint')} rules={[{ required: true, message: t('alerts.form.required') }]}>
          <InputNumber min={0} max={1000} style={{ width: 160 }} data-testid="alerts-bowl-gap" />
        </Form.Item>
        {/* Messages out (SMS, robots, mail) go to people who did not choose the console's language. */}
        <Form.Item name="messageLanguage" label={t('alerts.settingsForm.messageLanguage')} extra={t('alerts.settingsForm.messageLanguageHint')}>
          <Select style={{ width: 200 }} options={[{ value: 'zh-CN', label: '简体中文' }, { value: 'en-US', label: 'English' }]} data-testid="alerts-message-language" />
        </Form.Item>
        <Form.Item name="timeZone" label={t('alerts.settingsForm.timeZone')} extra={t('alerts.settingsForm.timeZoneHint')}>
          <Select showSearch style={{ width: 260 }} options={TIME_ZONES.map((zone) => ({ value: zone, label: zone }))} data-testid="alerts-time-zone" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
