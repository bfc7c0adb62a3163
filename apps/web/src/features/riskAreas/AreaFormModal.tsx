import { useCallback, useEffect, useState } from 'react';
import { Col, Form, Grid, Input, InputNumber, Modal, Row, Segmented, Select, Typography, message } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_RISK_BUFFER_M, RISK_AREA_KINDS, RISK_AREA_SOURCES, RISK_LEVELS, type AreaGeometry, type MapSettings } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { riskAreaApi, type RiskArea, type RiskAreaDetail } from '../../api/riskAreas.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { PlacePicker } from '../../components/PlacePicker.tsx';
import { useSession } from '../../stores/session.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Values = Record<string, any>;

/** Recording or editing a risk-prone area: its point or polygon on the map, kind, level, trigger and who answers for it. */
export function AreaFormModal({ open, area, settings, onClose, onSaved }: { open: boolean; area: RiskArea | null; settings: MapSettings; onClose: () => void; onSaved: (area: RiskAreaDetail) => void }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const allowClick = useClickGuard();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [shape, setShape] = useState<'area' | 'point'>('point');
  const [polygon, setPolygon] = useState<AreaGeometry | null>(null);
  const [saving, setSaving] = useState(false);
  const kind = Form.useWatch('kind', form), lon = Form.useWatch('lon', form), lat = Form.useWatch('lat', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (area) {
      const isPoint = area.geometry.type === 'Point';
      setShape(isPoint ? 'point' : 'area');
      setPolygon(isPoint ? null : (area.geometry as AreaGeometry));
      form.setFieldsValue({ ...area, ...(isPoint ? { lon: area.geometry.coordinates[0], lat: area.geometry.coordinates[1] } : {}) });
    } else {
      setShape('point');
      setPolygon(null);
      form.setFieldsValue({ kind: 'waterlogging', level: 'III', source: 'manual', bufferM: DEFAULT_RISK_BUFFER_M });
    }
  }, [open, area, form]);
  const onPoint = useCallback((p: [number, number]) => form.setFieldsValue({ lon: p[0], lat: p[1] }), [form]);

  const save = async () => {
    if (!allowClick()) return;
    const values = await form.validateFields();
    if (shape === 'area' && !polygon) return void message.warning(t('riskAreas.form.areaRequired'));
    const { lon: x, lat: y, ...rest } = values;
    const body: Values = { ...rest, ...(shape === 'area' ? { geometry: polygon } : { point: [x, y] }) };
    for (const key of Object.keys(body)) if (body[key] === null) body[key] = '';
    setSaving(true);
    try {
      const saved = (await riskAreaApi.save(body, area?.id)).result;
      const count = Object.values(saved.pipes?.count ?? {}).reduce((a, b) => a + (b ?? 0), 0);
      message.success(t('riskAreas.form.saved', { count, m: saved.bufferM }));
      void queryClient.invalidateQueries({ queryKey: ['riskAreas', enterpriseID] });
      onSaved(saved);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const item = (name: string, label: string, node: React.ReactNode, span = 12, rules?: object[]) => (
    <Col span={span}>
      <Form.Item name={name} label={label} rules={rules as never} style={{ marginBottom: 8 }}>
        {node}
      </Form.Item>
    </Col>
  );
  const pointRule = [{ required: true, message: t('riskAreas.form.pointRequired') }];
  return (
    <Modal
      open={open}
      title={area ? t('riskAreas.form.titleEdit', { name: area.name }) : t('riskAreas.form.titleNew')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={save}
      confirmLoading={saving}
      onCancel={onClose}
      width={screens.lg ? 1040 : '100%'}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'area-save' } as never}
    >
      <Row gutter={16}>
        <Col xs={24} lg={11}>
          <Form form={form} layout="vertical" name="risk-area" size="small">
            <Row gutter={8}>
              {item('name', t('riskAreas.form.name'), <Input maxLength={100} data-testid="area-name" />, 24, [{ required: true, whitespace: true, message: t('riskAreas.form.nameRequired') }])}
              {item('kind', t('riskAreas.columns.kind'), <Select options={RISK_AREA_KINDS.map((k) => ({ value: k, label: t(`riskAreas.kind.${k}`) }))} data-testid="area-kind" />)}
              {item('level', t('riskAreas.columns.level'), <Select options={RISK_LEVELS.map((l) => ({ value: l, label: l }))} data-testid="area-level" />, 6)}
              {item('bufferM', t('riskAreas.form.buffer'), <InputNumber min={0} max={500} addonAfter="m" style={{ width: '100%' }} />, 6)}
              <Col span={24}>
                <Form.Item style={{ marginBottom: 8 }}>
                  <Segmented
                    value={shape}
                    onChange={(v) => setShape(v as 'area' | 'point')}
                    options={[{ value: 'point', label: t('riskAreas.form.shapePoint') }, { value: 'area', label: <span data-testid="area-shape-area">{t('riskAreas.form.shapeArea')}</span> }]}
                  />
                  <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>{shape === 'area' ? t('riskAreas.form.drawHint') : t('riskAreas.form.pointHint')}</Typography.Paragraph>
                </Form.Item>
              </Col>
              {shape === 'point' && item('lon', t('riskAreas.form.lon'), <InputNumber min={-180} max={180} step={0.0001} style={{ width: '100%' }} data-testid="area-lon" />, 12, pointRule)}
              {shape === 'point' && item('lat', t('riskAreas.form.lat'), <InputNumber min={-90} max={90} step={0.0001} style={{ width: '100%' }} data-testid="area-lat" />, 12, pointRule)}
              {item('cause', t('riskAreas.detail.cause'), <Input.TextArea rows={2} maxLength={500} />, 24)}
              {kind === 'waterlogging' && item('triggerRainMm', t('riskAreas.form.rain'), <InputNumber min={1} max={1000} style={{ width: '100%' }} />)}
              {kind === 'waterlogging' && item('triggerHours', t('riskAreas.form.hours'), <InputNumber min={1} max={72} style={{ width: '100%' }} />)}
              {kind === 'void' && item('voidAreaM2', t('riskAreas.form.voidArea'), <InputNumber min={0.1} max={100000} style={{ width: '100%' }} />, 8)}
              {kind === 'void' && item('burialDepthM', t('riskAreas.form.depth'), <InputNumber min={0} max={100} step={0.1} style={{ width: '100%' }} />, 8)}
              {kind === 'void' && item('clearHeightM', t('riskAreas.form.height'), <InputNumber min={0.1} max={50} step={0.1} style={{ width: '100%' }} />, 8)}
              {item('source', t('riskAreas.form.source'), <Select options={RISK_AREA_SOURCES.map((s) => ({ value: s, label: t(`riskAreas.source.${s}`) }))} />)}
              {item('responsibleUnit', t('riskAreas.form.unit'), <Input maxLength={120} />)}
              {item('responsiblePerson', t('riskAreas.form.person'), <Input maxLength={40} />)}
              {item('responsiblePhone', t('riskAreas.form.phone'), <Input maxLength={30} />)}
              {item('notes', t('riskAreas.form.notes'), <Input.TextArea rows={2} maxLength={2000} />, 24)}
            </Row>
          </Form>
        </Col>
        <Col xs={24} lg={13}>
          <div data-testid="area-form-map">
            <PlacePicker
              settings={settings}
              mode={shape}
              area={polygon}
              onArea={setPolygon}
              point={typeof lon === 'number' && typeof lat === 'number' ? [lon, lat] : null}
              onPoint={onPoint}
              focus={area ? [area.minx - 0.001, area.miny - 0.001, area.maxx + 0.001, area.maxy + 0.001] : null}
              height={screens.lg ? 600 : 320}
            />
          </div>
        </Col>
      </Row>
    </Modal>
  );
}
