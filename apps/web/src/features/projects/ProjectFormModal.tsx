import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Col, DatePicker, Form, Input, InputNumber, Modal, Radio, Row, Select, Skeleton, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { areaGeometry, NETWORK_TYPES, PROJECT_STATUSES, type AreaGeometry, type ProjectInput } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { mapApi } from '../../api/map.ts';
import { projectApi, type Project } from '../../api/projects.ts';
import { MapView } from '../../components/MapView.tsx';
import { useSession } from '../../stores/session.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useChange } from '../../components/useChange.ts';
import './projectMessages.ts';

interface Values {
  name: string;
  code: string;
  city: string;
  district?: string;
  networkTypes: ProjectInput['networkTypes'];
  status: ProjectInput['status'];
  period?: [Dayjs | null, Dayjs | null];
  description?: string;
  areaMode: 'draw' | 'rect' | 'geojson';
  rect?: { minLon?: number; minLat?: number; maxLon?: number; maxLat?: number };
  geojson?: string;
}

const rectangle = (r: Required<NonNullable<Values['rect']>>): AreaGeometry => ({
  type: 'Polygon',
  coordinates: [[[r.minLon, r.minLat], [r.maxLon, r.minLat], [r.maxLon, r.maxLat], [r.minLon, r.maxLat], [r.minLon, r.minLat]]],
});

/** The area drawn on the enterprise's map; the form keeps it as GeoJSON text. */
function AreaDrawField({ value, onChange }: { value?: string; onChange?: (value: string | undefined) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  let area: AreaGeometry | null = null;
  try {
    area = value ? (JSON.parse(value) as AreaGeometry) : null;
  } catch {
    area = null;
  }
  if (settings.isError) return <Alert type="error" showIcon message={errorMessage(settings.error)} />;
  if (!settings.data) return <Skeleton active />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <div data-testid="project-draw-map">
        <MapView settings={settings.data.result} height={320} drawArea={{ value: area, onChange: (next) => onChange?.(next ? JSON.stringify(next) : undefined) }} />
      </div>
      <Space>
        <Typography.Text type="secondary">{area ? t('project.drawDone') : t('project.drawHint')}</Typography.Text>
        {area && (
          <Button size="small" onClick={() => onChange?.(undefined)} data-testid="project-draw-clear">
            {t('project.drawClear')}
          </Button>
        )}
      </Space>
    </Space>
  );
}

/** Create or edit a project. The area is drawn on the map, typed as a rectangle, or pasted as GeoJSON. */
export function ProjectFormModal({ project, open, onClose }: { project: Project | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [mode, setMode] = useState<Values['areaMode']>('draw');
  const allowClick = useClickGuard();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const bbox = project?.bbox;
    setMode('draw');
    form.setFieldsValue(
      project
        ? {
            ...project,
            district: project.district ?? undefined,
            description: project.description ?? undefined,
            period: [project.startDate ? dayjs(project.startDate) : null, project.endDate ? dayjs(project.endDate) : null],
            areaMode: 'draw',
            rect: bbox ? { minLon: bbox[0], minLat: bbox[1], maxLon: bbox[2], maxLat: bbox[3] } : undefined,
            geojson: JSON.stringify(project.area),
          }
        : { status: 'planned', networkTypes: ['water'], areaMode: 'draw', city: '' },
    );
  }, [open, project, form]);

  const save = useChange((input: ProjectInput) => (project ? projectApi.update(project.id, input) : projectApi.create(input)), {
    success: t('project.saved'),
    invalidate: ['projects'],
    onDone: onClose,
  });

  const submit = async () => {
    if (!allowClick()) return;
    const v = await form.validateFields();
    const area = v.areaMode === 'rect' ? rectangle(v.rect as Required<NonNullable<Values['rect']>>) : (JSON.parse(v.geojson!) as AreaGeometry);
    save.mutate({
      name: v.name,
      code: v.code,
      city: v.city,
      district: v.district,
      networkTypes: v.networkTypes,
      status: v.status,
      startDate: v.period?.[0]?.format('YYYY-MM-DD'),
      endDate: v.period?.[1]?.format('YYYY-MM-DD'),
      description: v.description,
      area,
    });
  };

  const required = (label: string) => ({ required: true, whitespace: true, message: t('enterprise.field.required', { field: label }) });
  /** One edge of the rectangle; a max edge must be greater than its min edge. */
  const coordinate = (name: 'minLon' | 'minLat' | 'maxLon' | 'maxLat', max: number, above?: 'minLon' | 'minLat') => (
    <Col span={12}>
      <Form.Item
        name={['rect', name]}
        label={t(`project.${name}`)}
        dependencies={above ? [['rect', above]] : undefined}
        rules={[
          { required: true, message: t('enterprise.field.required', { field: t(`project.${name}`) }) },
          ({ getFieldValue }) => ({
            validator: (_, value?: number) => {
              const low = above ? getFieldValue(['rect', above]) : undefined;
              return value === undefined || low === undefined || value > low ? Promise.resolve() : Promise.reject(new Error(t('project.rectInvalid')));
            },
          }),
        ]}
      >
        <InputNumber min={-max} max={max} step={0.001} style={{ width: '100%' }} data-testid={`project-${name}`} />
      </Form.Item>
    </Col>
  );

  return (
    <Modal
      open={open}
      title={project ? t('project.edit') : t('project.new')}
      width={mode === 'draw' ? 760 : 640}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={submit}
      confirmLoading={save.isPending}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="project">
        <Row gutter={16}>
          <Col span={14}>
            <Form.Item name="name" label={t('project.name')} rules={[required(t('project.name'))]}>
              <Input maxLength={100} data-testid="project-name" />
            </Form.Item>
          </Col>
          <Col span={10}>
            <Form.Item name="code" label={t('project.code')} rules={[required(t('project.code')), { pattern: /^[A-Za-z0-9_-]{1,40}$/, message: t('project.code') }]}>
              <Input maxLength={40} data-testid="project-code" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="city" label={t('project.city')} rules={[required(t('project.city'))]}>
              <Input maxLength={50} data-testid="project-city" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="district" label={t('project.district')}>
              <Input maxLength={50} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="networkTypes" label={t('project.networkTypes')} rules={[{ required: true, message: t('enterprise.field.required', { field: t('project.networkTypes') }) }]}>
          <Checkbox.Group options={NETWORK_TYPES.map((n) => ({ value: n, label: t(`network.${n}`) }))} />
        </Form.Item>
        <Row gutter={16}>
          <Col span={10}>
            <Form.Item name="status" label={t('project.status')}>
              <Select options={PROJECT_STATUSES.map((s) => ({ value: s, label: t(`project.statuses.${s}`) }))} />
            </Form.Item>
          </Col>
          <Col span={14}>
            <Form.Item name="period" label={t('project.period')}>
              <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="areaMode" label={t('project.area')} extra={t('project.areaHint')}>
          <Radio.Group onChange={(e) => setMode(e.target.value)} optionType="button" options={(['draw', 'rect', 'geojson'] as const).map((m) => ({ value: m, label: t(`project.areaMode.${m}`) }))} data-testid="project-area-mode" />
        </Form.Item>
        {mode === 'draw' ? (
          <Form.Item name="geojson" rules={[{ required: true, message: t('project.drawRequired') }]}>
            <AreaDrawField />
          </Form.Item>
        ) : mode === 'rect' ? (
          <Row gutter={16}>
            {coordinate('minLon', 180)}
            {coordinate('minLat', 90)}
            {coordinate('maxLon', 180, 'minLon')}
            {coordinate('maxLat', 90, 'minLat')}
          </Row>
        ) : (
          <Form.Item
            name="geojson"
            rules={[
              {
                validator: (_, text: string) => {
                  try {
                    return areaGeometry.safeParse(JSON.parse(text)).success ? Promise.resolve() : Promise.reject(new Error(t('project.geojsonInvalid')));
                  } catch {
                    return Promise.reject(new Error(t('project.geojsonInvalid')));
                  }
                },
              },
            ]}
          >
            <Input.TextArea rows={4} placeholder='{"type":"Polygon","coordinates":[[[120.1,30.1],[120.2,30.1],[120.2,30.2],[120.1,30.1]]]}' data-testid="project-geojson" />
          </Form.Item>
        )}
        <Form.Item name="description" label={t('project.description')}>
          <Input.TextArea rows={2} maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
