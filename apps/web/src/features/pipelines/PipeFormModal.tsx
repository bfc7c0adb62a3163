import { useEffect } from 'react';
import { Col, Form, Input, InputNumber, Modal, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { NETWORK_TYPES, type LineGeometry, type PipeInput } from '@console/contract';
import { pipelineApi, type Pipe } from '../../api/pipelines.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useChange } from '../../components/useChange.ts';

/** "lon,lat; lon,lat" <-> a LineString. */
export const lineToText = (geometry: LineGeometry) =>
  (geometry.type === 'LineString' ? geometry.coordinates : geometry.coordinates[0]).map((p) => `${p[0]},${p[1]}`).join('; ');

export function textToLine(text: string): LineGeometry | null {
  const positions = text
    .split(';')
    .map((pair) => pair.split(',').map((v) => Number(v.trim())))
    .filter((p) => p.length === 2 && p.every(Number.isFinite));
  return positions.length >= 2 ? { type: 'LineString', coordinates: positions } : null;
}

type Values = Omit<PipeInput, 'geometry'> & { coordinates: string };

export function PipeFormModal({ pipe, open, onClose, onSaved }: { pipe: Pipe | null; open: boolean; onClose: () => void; onSaved?: (pipe: Pipe) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const allowClick = useClickGuard();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (pipe) form.setFieldsValue({ ...pipe, material: pipe.material ?? undefined, pressureClass: pipe.pressureClass ?? undefined, owner: pipe.owner ?? undefined, diameterMm: pipe.diameterMm ?? undefined, installYear: pipe.installYear ?? undefined, depthM: pipe.depthM ?? undefined, coordinates: lineToText(pipe.geometry) });
    else form.setFieldsValue({ networkType: 'water' });
  }, [open, pipe, form]);

  const save = useChange((input: PipeInput) => (pipe ? pipelineApi.update(pipe.id, input) : pipelineApi.create(input)), {
    success: t('pipeline.saved'),
    invalidate: ['pipelines'],
    onDone: (response) => {
      onSaved?.(response.result);
      onClose();
    },
  });

  const submit = async () => {
    if (!allowClick()) return;
    const { coordinates, ...values } = await form.validateFields();
    save.mutate({ ...values, geometry: textToLine(coordinates)! });
  };

  return (
    <Modal open={open} title={pipe ? t('pipeline.edit') : t('pipeline.add')} width={620} okText={t('common.save')} cancelText={t('common.cancel')} onOk={submit} confirmLoading={save.isPending} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" name="pipe">
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="pipeId" label={t('pipeline.pipeId')} rules={[{ required: true, whitespace: true, message: t('enterprise.field.required', { field: t('pipeline.pipeId') }) }]}>
              <Input maxLength={60} data-testid="pipe-id" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="networkType" label={t('pipeline.networkType')}>
              <Select options={NETWORK_TYPES.map((n) => ({ value: n, label: t(`network.${n}`) }))} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="material" label={t('pipeline.material')}>
              <Input maxLength={40} data-testid="pipe-material" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="diameterMm" label={t('pipeline.diameter')}>
              <InputNumber min={1} max={5000} style={{ width: '100%' }} data-testid="pipe-diameter" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="pressureClass" label={t('pipeline.pressureClass')}>
              <Input maxLength={20} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="installYear" label={t('pipeline.installYear')}>
              <InputNumber min={1850} max={2100} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="depthM" label={t('pipeline.depth')}>
              <InputNumber min={0} max={100} step={0.1} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="owner" label={t('pipeline.owner')}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="coordinates"
          label={t('pipeline.geometry')}
          extra={t('pipeline.geometryHint')}
          rules={[{ validator: (_, text?: string) => (text && textToLine(text) ? Promise.resolve() : Promise.reject(new Error(t('pipeline.geometryInvalid')))) }]}
        >
          <Input.TextArea rows={2} data-testid="pipe-coordinates" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
