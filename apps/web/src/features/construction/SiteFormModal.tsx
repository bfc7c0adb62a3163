import { useCallback, useEffect, useState } from 'react';
import { Col, DatePicker, Form, Grid, Input, InputNumber, Modal, Row, Segmented, Select, Space, Typography, message } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { BUILD_STATES, BUILD_TYPES, SITE_SOURCES, type AreaGeometry, type MapSettings } from '@console/contract';
import { constructionApi, type Site } from '../../api/construction.ts';
import { errorMessage } from '../../api/http.ts';
import { projectApi } from '../../api/projects.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { PlacePicker } from '../../components/PlacePicker.tsx';
import { useSession } from '../../stores/session.ts';
import { formatDistance } from './siteStyle.ts';
import '../leaks/leakMessages.ts';

const DATE_FIELDS = ['plannedStart', 'plannedEnd', 'actualStart', 'actualEnd', 'detectedAt'] as const;
const TEXT_FIELDS = ['address', 'district', 'constructionUnit', 'constructionContact', 'constructionPhone', 'supervisingUnit', 'supervisingContact', 'supervisingPhone', 'changeType'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Values = Record<string, any>;

/**
 * Recording or editing a site: its place drawn on the map (an area, or a point with a radius
 * placed by a click), what is built and by whom, and when. Saved, it is measured against the pipes
 * at once and the answer says how close the nearest pipe is.
 */
export function SiteFormModal({ open, site, settings, onClose, onSaved }: { open: boolean; site: Site | null; settings: MapSettings; onClose: () => void; onSaved: (site: Site) => void }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const allowClick = useClickGuard();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [shape, setShape] = useState<'area' | 'point'>('area');
  const [area, setArea] = useState<AreaGeometry | null>(null);
  const [saving, setSaving] = useState(false);
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}), enabled: open });
  const lon = Form.useWatch('lon', form), lat = Form.useWatch('lat', form), radius = Form.useWatch('radiusM', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const isPoint = Boolean(site?.radiusM);
    setShape(site ? (isPoint ? 'point' : 'area') : 'area');
    setArea(site && !isPoint ? site.geometry : null);
    if (site) {
      const values: Values = { ...site, projectId: site.projectId ?? undefined, radiusM: site.radiusM ?? 20 };
      for (const f of DATE_FIELDS) values[f] = site[f] ? dayjs(site[f]) : undefined;
      if (isPoint) Object.assign(values, { lon: site.centerLon, lat: site.centerLat, radiusM: site.radiusM });
      form.setFieldsValue(values);
    } else form.setFieldsValue({ buildType: 'road', source: 'manual', buildState: 'notStarted', radiusM: 20 });
  }, [open, site, form]);

  const onPoint = useCallback((p: [number, number]) => form.setFieldsValue({ lon: p[0], lat: p[1] }), [form]);
  const point: [number, number] | null = typeof lon === 'number' && typeof lat === 'number' ? [lon, lat] : null;

  const save = async () => {
    if (!allowClick()) return;
    const values = await form.validateFields();
    if (shape === 'area' && !area) return void message.warning(t('construction.form.areaRequired'));
    const body: Record<string, unknown> = { ...values };
    for (const f of DATE_FIELDS) body[f] = values[f] ? (values[f] as Dayjs).format('YYYY-MM-DD') : '';
    delete body.lon, delete body.lat;
    if (shape === 'area') Object.assign(body, { geometry: area, radiusM: '' });
    else body.point = [values.lon, values.lat];
    setSaving(true);
    try {
      const response = await constructionApi.save(body, site?.id);
      const saved = response.result;
      if (saved.merged) message.info(t('construction.form.merged', { siteNo: saved.siteNo }));
      else message.success(t('construction.form.saved', { nearest: formatDistance(saved.nearestM) }));
      void queryClient.invalidateQueries({ queryKey: ['construction', enterpriseID] });
      onSaved(saved);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const text = (name: (typeof TEXT_FIELDS)[number], label: string, max = 120) => (
    <Form.Item name={name} label={label} style={{ marginBottom: 8 }}>
      <Input maxLength={max} data-testid={`site-${name}`} />
    </Form.Item>
  );
  const date = (name: (typeof DATE_FIELDS)[number]) => (
    <Form.Item name={name} label={t(`construction.form.${name}`)} style={{ marginBottom: 8 }}>
      <DatePicker style={{ width: '100%' }} />
    </Form.Item>
  );
  return (
    <Modal
      open={open}
      title={site ? t('construction.form.titleEdit', { siteNo: site.siteNo }) : t('construction.form.titleNew')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={save}
      confirmLoading={saving}
      onCancel={onClose}
      width={screens.lg ? 1080 : '100%'}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'site-save' } as never}
    >
      <Row gutter={16}>
        <Col xs={24} lg={11}>
          <Form form={form} layout="vertical" name="site" size="small">
            <Row gutter={8}>
              <Col span={10}>
                <Form.Item name="siteNo" label={t('construction.form.siteNo')} tooltip={t('construction.form.siteNoHint')} style={{ marginBottom: 8 }}>
                  <Input maxLength={40} disabled={Boolean(site)} data-testid="site-no" />
                </Form.Item>
              </Col>
              <Col span={14}>
                <Form.Item name="name" label={t('construction.form.name')} rules={[{ required: true, whitespace: true, message: t('construction.form.nameRequired') }]} style={{ marginBottom: 8 }}>
                  <Input maxLength={100} data-testid="site-name" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="buildType" label={t('construction.columns.buildType')} style={{ marginBottom: 8 }}>
                  <Select options={BUILD_TYPES.map((b) => ({ value: b, label: t(`construction.buildType.${b}`) }))} data-testid="site-build-type" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="buildState" label={t('construction.form.buildState')} style={{ marginBottom: 8 }}>
                  <Select options={BUILD_STATES.map((b) => ({ value: b, label: t(`construction.buildState.${b}`) }))} />
                </Form.Item>
              </Col>
              <Col span={24}>
                <Form.Item label={t('construction.form.shape')} style={{ marginBottom: 8 }}>
                  <Segmented
                    value={shape}
                    onChange={(v) => setShape(v as 'area' | 'point')}
                    options={[{ value: 'area', label: t('construction.form.shapeArea') }, { value: 'point', label: <span data-testid="site-shape-point">{t('construction.form.shapePoint')}</span> }]}
                  />
                  <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
                    {shape === 'area' ? t('construction.form.drawHint') : t('construction.form.pointHint')}
                  </Typography.Paragraph>
                </Form.Item>
              </Col>
              {shape === 'point' && (
                <>
                  <Col span={9}>
                    <Form.Item name="lon" label={t('construction.form.lon')} rules={[{ required: true, message: t('construction.form.pointRequired') }]} style={{ marginBottom: 8 }}>
                      <InputNumber min={-180} max={180} step={0.0001} style={{ width: '100%' }} data-testid="site-lon" />
                    </Form.Item>
                  </Col>
                  <Col span={9}>
                    <Form.Item name="lat" label={t('construction.form.lat')} rules={[{ required: true, message: t('construction.form.pointRequired') }]} style={{ marginBottom: 8 }}>
                      <InputNumber min={-90} max={90} step={0.0001} style={{ width: '100%' }} data-testid="site-lat" />
                    </Form.Item>
                  </Col>
                  <Col span={6}>
                    <Form.Item name="radiusM" label={t('construction.form.radius')} rules={[{ required: true, message: t('construction.form.pointRequired') }]} style={{ marginBottom: 8 }}>
                      <InputNumber min={1} max={2000} addonAfter="m" style={{ width: '100%' }} data-testid="site-radius" />
                    </Form.Item>
                  </Col>
                </>
              )}
              <Col span={14}>{text('address', t('construction.form.address'), 200)}</Col>
              <Col span={10}>{text('district', t('construction.form.district'), 60)}</Col>
              <Col span={12}>{date('plannedStart')}</Col>
              <Col span={12}>{date('plannedEnd')}</Col>
              <Col span={12}>{date('actualStart')}</Col>
              <Col span={12}>{date('actualEnd')}</Col>
              <Col span={24}>{text('constructionUnit', t('construction.form.constructionUnit'))}</Col>
              <Col span={12}>{text('constructionContact', t('construction.form.contact'), 40)}</Col>
              <Col span={12}>{text('constructionPhone', t('construction.form.phone'), 30)}</Col>
              <Col span={24}>{text('supervisingUnit', t('construction.form.supervisingUnit'))}</Col>
              <Col span={12}>{text('supervisingContact', t('construction.form.contact'), 40)}</Col>
              <Col span={12}>{text('supervisingPhone', t('construction.form.phone'), 30)}</Col>
              <Col span={12}>
                <Form.Item name="source" label={t('construction.form.source')} style={{ marginBottom: 8 }}>
                  <Select options={SITE_SOURCES.map((s) => ({ value: s, label: t(`construction.source.${s}`) }))} />
                </Form.Item>
              </Col>
              <Col span={12}>{date('detectedAt')}</Col>
              <Col span={12}>{text('changeType', t('construction.form.changeType'), 60)}</Col>
              <Col span={12}>
                <Form.Item name="projectId" label={t('leak.project')} style={{ marginBottom: 8 }}>
                  <Select allowClear options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} />
                </Form.Item>
              </Col>
            </Row>
          </Form>
        </Col>
        <Col xs={24} lg={13}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <div data-testid="site-form-map">
              <PlacePicker
                settings={settings}
                mode={shape}
                area={area}
                onArea={setArea}
                point={point}
                radiusM={typeof radius === 'number' ? radius : undefined}
                onPoint={onPoint}
                focus={site ? [site.minx, site.miny, site.maxx, site.maxy] : null}
                height={screens.lg ? 620 : 320}
              />
            </div>
          </Space>
        </Col>
      </Row>
    </Modal>
  );
}
