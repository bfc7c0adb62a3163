import { useEffect, useState } from 'react';
import { Alert, Button, Divider, Form, InputNumber, Modal, Select, Space, Typography, message } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isMessageKey, settlementBandsBody, translate, type SettlementBands, type SettlementThresholds } from '@console/contract';
import { currentLanguage } from '../../locales/index.ts';
import { errorMessage } from '../../api/http.ts';
import { settlementApi } from '../../api/settlement.ts';
import { useSession } from '../../stores/session.ts';

/** A contract check's refusal as the server would word it: the field, then why, in the user's language. */
const issueText = (issue: { path: PropertyKey[]; message: string }) => `${issue.path.join('.')}: ${isMessageKey(issue.message) ? translate(issue.message, currentLanguage()) : issue.message}`;

/**
 * The enterprise's velocity bands and, per project, the thresholds the pipe analysis judges by
 * (admins). The server checks both again and names any field it refuses.
 */
export function SettingsModal({ open, onClose, bands, projects, projectId }: { open: boolean; onClose(): void; bands: SettlementBands; projects: { id: number; name: string }[]; projectId: number | null }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<SettlementBands>(bands);
  const [scope, setScope] = useState<number>(projectId ?? 0);
  const [form] = Form.useForm<SettlementThresholds>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const thresholds = useQuery({ queryKey: ['settlement', enterpriseID, 'thresholds', scope], queryFn: () => settlementApi.thresholds(scope), enabled: open });

  useEffect(() => {
    if (open) setDraft(bands), setScope(projectId ?? 0), setError(null);
  }, [open, bands, projectId]);
  useEffect(() => {
    if (thresholds.data) form.setFieldsValue(thresholds.data.result);
  }, [thresholds.data, form]);

  const setBreak = (i: number, value: number | null) => setDraft((d) => ({ ...d, breaks: d.breaks.map((b, k) => (k === i ? (value ?? b) : b)) }));
  const setColour = (i: number, value: string) => setDraft((d) => ({ ...d, colors: d.colors.map((c, k) => (k === i ? value : c)) }));
  const addBreak = () => setDraft((d) => ({ breaks: [...d.breaks, (d.breaks[d.breaks.length - 1] ?? 0) + 5], colors: [...d.colors, '#313695'] }));
  const removeBreak = (i: number) => setDraft((d) => ({ breaks: d.breaks.filter((_, k) => k !== i), colors: d.colors.filter((_, k) => k !== i + 1) }));
  const bandsCheck = settlementBandsBody.safeParse(draft);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    setError(null);
    try {
      await settlementApi.saveBands(draft);
      await settlementApi.saveThresholds({ ...values, projectId: scope });
      await queryClient.invalidateQueries({ queryKey: ['settlement', enterpriseID] });
      message.success(t('settlement.settingsForm.saved'));
      onClose();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  const number = (name: keyof SettlementThresholds, min: number, max: number, step = 1) => (
    <Form.Item name={name} label={t(`settlement.settingsForm.${name}`)} rules={[{ required: true, type: 'number', min, max, message: `${min} … ${max}` }]} style={{ marginBottom: 8 }}>
      <InputNumber min={min} max={max} step={step} style={{ width: 160 }} />
    </Form.Item>
  );
  return (
    <Modal open={open} onCancel={onClose} onOk={save} confirmLoading={saving} okButtonProps={{ disabled: !bandsCheck.success }} title={t('settlement.settings')} width={560} destroyOnHidden>
      <Typography.Text strong>{t('settlement.settingsForm.bands')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>{t('settlement.settingsForm.bandsHint')}</Typography.Paragraph>
      <Space direction="vertical" data-testid="bands-editor">
        {draft.colors.map((colour, i) => (
          <Space key={i}>
            <input type="color" value={colour} onChange={(e) => setColour(i, e.target.value)} aria-label={`colour ${i + 1}`} style={{ width: 36, height: 26, border: 'none', background: 'none' }} />
            {i < draft.breaks.length ? (
              <>
                <span style={{ width: 16, display: 'inline-block' }}>&lt;</span>
                <InputNumber value={draft.breaks[i]} onChange={(v) => setBreak(i, v)} step={1} style={{ width: 100 }} />
                <Button type="text" size="small" icon={<DeleteOutlined />} disabled={draft.breaks.length <= 1} onClick={() => removeBreak(i)} />
              </>
            ) : (
              <span>≥ {draft.breaks[draft.breaks.length - 1]}</span>
            )}
          </Space>
        ))}
        <Button size="small" icon={<PlusOutlined />} onClick={addBreak} disabled={draft.breaks.length >= 12}>
          {t('settlement.settingsForm.addBreak')}
        </Button>
        {!bandsCheck.success && <Alert type="error" showIcon data-testid="bands-error" message={issueText(bandsCheck.error.issues[0])} />}
      </Space>
      <Divider />
      <Typography.Text strong>{t('settlement.settingsForm.thresholds')}</Typography.Text>
      <Form form={form} layout="horizontal" labelCol={{ span: 13 }} style={{ marginTop: 8 }}>
        <Form.Item label={t('settlement.settingsForm.scope')} style={{ marginBottom: 8 }}>
          <Select value={scope} onChange={setScope} options={[{ value: 0, label: t('settlement.settingsForm.enterprise') }, ...projects.map((p) => ({ value: p.id, label: p.name }))]} style={{ width: 220 }} />
        </Form.Item>
        {number('velocityAlarm', -500, -0.1)}
        {number('cumulativeAlarm', -5000, -0.1)}
        {number('differentialAlarm', 0.1, 500, 0.5)}
        {number('warnRatio', 0.1, 1, 0.05)}
        {number('bufferM', 1, 200)}
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}
