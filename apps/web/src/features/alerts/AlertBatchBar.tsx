import { useState } from 'react';
import { Button, Form, Input, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ALERT_BATCH_STEPS, type AlertBatchStep } from '@console/contract';
import { alertApi } from '../../api/alerts.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { StepModal, useStepSaving } from '../../components/StepModal.tsx';
import { NOTE_REQUIRED } from './alertStyle.ts';
import { useSession } from '../../stores/session.ts';

/**
 * The alerts ticked in the list, confirmed or dismissed together (a burst of alerts from one
 * delivery): one note for all, all or none on the server.
 */
export function AlertBatchBar({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const allowClick = useClickGuard();
  const [form] = Form.useForm<{ note?: string }>();
  const [stepping, setStepping] = useState<AlertBatchStep | null>(null);
  const { saving, save } = useStepSaving(async () => {
    setStepping(null);
    onDone();
    await queryClient.invalidateQueries({ queryKey: ['alerts', enterpriseID] });
  });
  if (ids.length === 0) return null;
  const open = (step: AlertBatchStep) => {
    form.resetFields();
    setStepping(step);
  };
  const submit = async () => {
    if (!allowClick() || !stepping) return;
    const { note } = await form.validateFields();
    await save(async () => {
      const response = await alertApi.batch(stepping, ids, note);
      return t('alerts.batch.done', { count: response.result.count });
    });
  };
  const noteLabel = stepping && NOTE_REQUIRED.includes(stepping) ? t('alerts.form.reason') : t('alerts.form.note');
  return (
    <Space wrap style={{ marginBottom: 8 }} data-testid="alerts-batch">
      <Typography.Text strong>{t('alerts.batch.selected', { count: ids.length })}</Typography.Text>
      {ALERT_BATCH_STEPS.map((step) => (
        <Button key={step} size="small" danger={step === 'falseAlarm'} type={step === 'confirm' ? 'primary' : 'default'} onClick={() => open(step)} data-testid={`alerts-batch-${step}`}>
          {t(`alerts.step.${step}`)}
        </Button>
      ))}
      <Button size="small" type="link" onClick={onDone}>{t('alerts.batch.clear')}</Button>
      <StepModal
        open={stepping !== null}
        title={stepping ? t('alerts.batch.title', { step: t(`alerts.step.${stepping}`), count: ids.length }) : ''}
        saving={saving}
        onCancel={() => setStepping(null)}
        onSave={submit}
        saveTestId="alerts-batch-save"
      >
        <Form form={form} layout="vertical" name="alert-batch">
          <Form.Item
            name="note"
            label={noteLabel}
            rules={stepping && NOTE_REQUIRED.includes(stepping) ? [{ required: true, whitespace: true, message: `${t('alerts.form.required')}: ${noteLabel}` }] : undefined}
          >
            <Input.TextArea rows={3} maxLength={2000} data-testid="alerts-batch-note" />
          </Form.Item>
        </Form>
      </StepModal>
    </Space>
  );
}
