import { useEffect } from 'react';
import { Col, Form, Input, InputNumber, Modal, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SENSOR_THRESHOLDS, SENSOR_KINDS, SENSOR_UNITS, type SensorInput, type SensorKind, type SensorThresholds } from '@console/contract';
import { sensorApi, type Sensor } from '../../api/sensors.ts';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import './sensorState.ts';

const THRESHOLD_FIELDS = ['aboveWarning', 'aboveAlarm', 'belowWarning', 'belowAlarm', 'hysteresis', 'dropPerMinute'] as const;

type Values = Omit<SensorInput, 'thresholds'> & { thresholds: SensorThresholds };

/** Adds a device or changes one; a new kind starts from its kind's default thresholds. */
export function SensorFormModal({ open, sensor, onClose, onSaved }: { open: boolean; sensor?: Sensor; onClose: () => void; onSaved: (device: Sensor) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) as SensorKind | undefined;
  const save = useChange((values: SensorInput) => (sensor ? sensorApi.update(sensor.id, values) : sensorApi.create(values)), { invalidate: ['sensors', enterpriseID], onDone: (r) => onSaved(r.result) });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(sensor ? { code: sensor.code, name: sensor.name, kind: sensor.kind, lon: sensor.lon, lat: sensor.lat, pipeId: sensor.pipeId ?? undefined, gateway: sensor.gateway ?? undefined, intervalSeconds: sensor.intervalSeconds, thresholds: sensor.thresholds } : { kind: 'gas', intervalSeconds: 60, thresholds: DEFAULT_SENSOR_THRESHOLDS.gas });
  }, [open, sensor, form]);

  const submit = async () => {
    const values = await form.validateFields();
    // Empty threshold boxes are bounds not set.
    const thresholds = Object.fromEntries(Object.entries(values.thresholds ?? {}).filter(([, v]) => v !== null && v !== undefined)) as SensorThresholds;
    save.mutate({ ...values, pipeId: values.pipeId || undefined, gateway: values.gateway || undefined, thresholds });
  };
  const required = [{ required: true, message: t('sensors.form.required') }];
  return (
    <Modal open={open} title={sensor ? t('sensors.form.editTitle', { code: sensor.code }) : t('sensors.form.addTitle')} okText={t('common.save')} cancelText={t('common.cancel')} onOk={() => void submit()} confirmLoading={save.isPending} onCancel={onClose} width={640} destroyOnHidden data-testid="sensor-form">
      <Form form={form} layout="vertical" name="sensor">
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="code" label={t('sensors.form.code')} extra={t('sensors.form.codeHelp')} rules={[...required, { pattern: /^[A-Za-z0-9._-]+$/, message: t('sensors.form.codeHelp') }]}>
              <Input maxLength={64} data-testid="sensor-form-code" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('sensors.form.name')} rules={required}>
              <Input maxLength={120} data-testid="sensor-form-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="kind" label={t('sensors.form.kind')} rules={required}>
              <Select
                options={SENSOR_KINDS.map((k) => ({ value: k, label: t(`sensors.kind.${k}`) }))}
                onChange={(k: SensorKind) => form.setFieldsValue({ thresholds: { ...Object.fromEntries(THRESHOLD_FIELDS.map((f) => [f, undefined])), ...DEFAULT_SENSOR_THRESHOLDS[k] } })}
                data-testid="sensor-form-kind"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="intervalSeconds" label={t('sensors.form.intervalSeconds')} rules={required}>
              <InputNumber min={1} max={86_400} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item name="lon" label={t('sensors.form.lon')} rules={required}>
              <InputNumber min={-180} max={180} step={0.0001} style={{ width: '100%' }} data-testid="sensor-form-lon" />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item name="lat" label={t('sensors.form.lat')} rules={required}>
              <InputNumber min={-90} max={90} step={0.0001} style={{ width: '100%' }} data-testid="sensor-form-lat" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="pipeId" label={t('sensors.form.pipeId')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="gateway" label={t('sensors.form.gateway')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
        </Row>
        <div style={{ marginBottom: 8 }}>{t('sensors.form.thresholds', { unit: SENSOR_UNITS[kind ?? 'gas'] })}</div>
        <Row gutter={12}>
          {THRESHOLD_FIELDS.map((field) => (
            <Col xs={12} sm={8} key={field}>
              <Form.Item name={['thresholds', field]} label={t(`sensors.drawer.${field}`)}>
                <InputNumber style={{ width: '100%' }} min={field === 'hysteresis' ? 0 : undefined} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Form>
    </Modal>
  );
}
