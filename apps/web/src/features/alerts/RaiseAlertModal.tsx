import { useState } from 'react';
import { Form, Grid, Input, Modal, Radio, Select, Space, Typography, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { RISK_LEVELS, type AreaGeometry, type MapSettings } from '@console/contract';
import { alertApi } from '../../api/alerts.ts';
import type { IncidentDetail } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { PlacePicker } from '../../components/PlacePicker.tsx';

/** An alert raised by hand (a citizen's report, a patrol's find): what, how grave, where on the map. */
export function RaiseAlertModal({ open, settings, onClose, onRaised }: { open: boolean; settings: MapSettings; onClose: () => void; onRaised: (incident: IncidentDetail) => void }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const allowClick = useClickGuard();
  const [form] = Form.useForm<{ title: string; level: string; note?: string }>();
  const [mode, setMode] = useState<'point' | 'area'>('point');
  const [point, setPoint] = useState<[number, number] | null>(null);
  const [area, setArea] = useState<AreaGeometry | null>(null);
  const [placeError, setPlaceError] = useState(false);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!allowClick()) return;
    const values = await form.validateFields();
    const place = mode === 'point' ? point && { point } : area && { geometry: area };
    if (!place) return setPlaceError(true);
    setSaving(true);
    try {
      const response = await alertApi.raise({ ...values, level: values.level as never, ...place });
      message.success(response.message);
      form.resetFields();
      setPoint(null);
      setArea(null);
      onRaised(response.result);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={open} title={t('alerts.form.raiseTitle')} onOk={save} onCancel={onClose} confirmLoading={saving} okText={t('common.save')} cancelText={t('common.cancel')} width={screens.md ? 760 : '100%'} destroyOnHidden okButtonProps={{ 'data-testid': 'raise-save' } as never}>
      <Form form={form} layout="vertical" name="raise-alert" initialValues={{ level: 'III' }}>
        <Form.Item name="title" label={t('alerts.form.title')} rules={[{ required: true, whitespace: true, message: `${t('alerts.form.required')}: ${t('alerts.form.title')}` }]}>
          <Input maxLength={120} data-testid="raise-title" />
        </Form.Item>
        <Form.Item name="level" label={t('alerts.form.level')}>
          <Select style={{ width: 200 }} options={RISK_LEVELS.map((l) => ({ value: l, label: `${l} · ${t(`alerts.levelName.${l}`)}` }))} />
        </Form.Item>
        <Form.Item label={t('alerts.form.place')} required validateStatus={placeError ? 'error' : undefined} help={placeError ? t('alerts.form.placeRequired') : t('alerts.form.placeHint')}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} optionType="button" options={[{ value: 'point', label: t('alerts.form.point') }, { value: 'area', label: t('alerts.form.area') }]} />
            <PlacePicker
              settings={settings}
              mode={mode}
              area={area}
              onArea={(a) => { setArea(a); setPlaceError(false); }}
              point={point}
              onPoint={(p) => { setPoint(p); setPlaceError(false); }}
              height={320}
            />
            {point && mode === 'point' && <Typography.Text type="secondary" data-testid="raise-point">{point[0].toFixed(6)}, {point[1].toFixed(6)}</Typography.Text>}
          </Space>
        </Form.Item>
        <Form.Item name="note" label={t('alerts.form.note')}>
          <Input.TextArea rows={2} maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
