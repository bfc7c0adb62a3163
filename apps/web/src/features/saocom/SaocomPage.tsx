import { useMemo, useState } from 'react';
import { AutoComplete, Button, Card, Col, DatePicker, Form, Input, Modal, Progress, Row, Select, Skeleton, Space, Table, Typography } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { AcquisitionImportModal } from './AcquisitionImportModal.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { TwoLineCell } from '../../components/TwoLineCell.tsx';
import { ACQUISITION_MODES, ACQUISITION_STATUSES, ORBIT_DIRECTIONS, POLARISATIONS, SATELLITES, type AreaGeometry, type BBox } from '@console/contract';
import { leakApi, type Acquisition } from '../../api/leaks.ts';
import { mapApi } from '../../api/map.ts';
import { projectApi } from '../../api/projects.ts';
import { Authorized, useActionVisible } from '../../components/Authorized.tsx';
import { Chart } from '../../components/Chart.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { MapView } from '../../components/MapView.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import { ACQUISITION_STATUS_COLOR, footprintFeatures } from './footprints.ts';
import '../projects/projectMessages.ts';
import './saocomMessages.ts';


type FormValues = Omit<Acquisition, 'id' | 'projects' | 'acquiredAt' | 'footprint'> & { acquiredAt: Dayjs; footprint?: AreaGeometry };

/** The SAOCOM platform: scenes over the enterprise's projects, their processing, and each project's coverage. */
export default function SaocomPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canEdit = useActionVisible('edit');
  const allowClick = useClickGuard();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [focus, setFocus] = useState<BBox | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [form] = Form.useForm<FormValues>();
  const acquisitions = useQuery({ queryKey: ['saocom', enterpriseID, 'acquisitions'], queryFn: () => leakApi.acquisitions() });
  const coverage = useQuery({ queryKey: ['saocom', enterpriseID, 'coverage'], queryFn: leakApi.coverage });
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}) });
  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const list = useMemo(() => acquisitions.data?.result ?? [], [acquisitions.data]);
  const save = useChange(({ input, id }: { input: Record<string, unknown>; id?: number }) => leakApi.saveAcquisition(input, id), {
    invalidate: ['saocom', enterpriseID],
    onDone: () => setAdding(false),
  });
  const setStatus = (a: Acquisition, status: Acquisition['status']) => {
    const { id, projects: _, ...rest } = a;
    save.mutate({ input: { ...rest, status }, id });
  };

  const areas = useMemo(() => (projects.data?.result ?? []).map((p) => ({ id: p.id, name: p.name, area: p.area })), [projects.data]);
  const overlays = useMemo(() => [{ key: 'footprints', features: footprintFeatures(list, t, selected), onClick: setSelected }], [list, selected, t]);
  // Scenes per month, stacked by status: the acquisition calendar at a glance.
  const timeline = useMemo(() => {
    const months = [...new Set(list.map((a) => dayjs(a.acquiredAt).format('YYYY-MM')))].sort();
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 36, bottom: 24 },
      xAxis: { type: 'category', data: months },
      yAxis: { type: 'value', minInterval: 1 },
      series: ACQUISITION_STATUSES.map((status) => ({
        name: t(`saocom.status.${status}`),
        type: 'bar',
        stack: 'scenes',
        itemStyle: { color: ACQUISITION_STATUS_COLOR[status] },
        data: months.map((m) => list.filter((a) => a.status === status && dayjs(a.acquiredAt).format('YYYY-MM') === m).length),
      })),
    };
  }, [list, t]);

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="saocom-page">
      <Row gutter={[12, 12]}>
        {(coverage.data?.result ?? []).map((c) => (
          <Col key={c.projectId} xs={24} md={12} xl={8}>
            <Card size="small" title={c.name} data-testid={`coverage-${c.code}`}>
              <Space align="center" size="large">
                <Progress type="circle" size={72} percent={Math.round(c.coveredShare * 100)} aria-label={t('saocom.coveredShare')} />
                <Space direction="vertical" size={2}>
                  <Typography.Text>{t('saocom.scenes', { count: c.acquisitions })}</Typography.Text>
                  <Typography.Text type="secondary">{t('saocom.last')}: {c.last ? `${dayjs(c.last.acquiredAt).format('YYYY-MM-DD')} ${c.last.satellite}` : '-'}</Typography.Text>
                  <Typography.Text type="secondary">{t('saocom.next')}: {c.next ? `${dayjs(c.next.acquiredAt).format('YYYY-MM-DD')} ${c.next.satellite}` : '-'}</Typography.Text>
                </Space>
              </Space>
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={t('saocom.footprints')}>
            {settings.data ? <MapView settings={settings.data.result} areas={areas} overlays={overlays} fitAreas focus={focus} height={420} /> : <Skeleton active />}
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title={t('saocom.calendar')}>
            <Chart option={timeline} height={420} />
          </Card>
        </Col>
      </Row>
      <Card
        size="small"
        title={t('saocom.acquisitions')}
        extra={
          <Space>
          <Authorized action="import">
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="acquisition-import">
              {t('saocom.import.button')}
            </Button>
          </Authorized>
          <Authorized action="add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => { form.resetFields(); form.setFieldsValue({ satellite: 'SAOCOM-1A', orbitDirection: 'descending', mode: 'StripMap', polarisation: 'quad', status: 'planned' }); setAdding(true); }} data-testid="acquisition-add">
              {t('saocom.add')}
            </Button>
          </Authorized>
          </Space>
        }
      >
        <Table<Acquisition>
          rowKey="id"
          size="small"
          loading={acquisitions.isLoading}
          dataSource={[...list].reverse()}
          pagination={{ pageSize: 10, size: 'small' }}
          scroll={{ x: 'max-content' }}
          onRow={(a) => ({ onClick: () => setSelected(a.id), style: { cursor: 'pointer' } })}
          rowClassName={(a) => (a.id === selected ? 'ant-table-row-selected' : '')}
          data-testid="acquisition-table"
          columns={[
            { title: t('saocom.acquiredAt'), dataIndex: 'acquiredAt', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
            // The scene's orbit, mode and polarisation under its satellite: the table fits at 1280.
            { title: t('saocom.satellite'), dataIndex: 'satellite', render: (v: string, a) => <TwoLineCell main={v} sub={`${t(`saocom.orbits.${a.orbitDirection}`)} · ${a.mode} · ${t(`saocom.polarisations.${a.polarisation}`)}`} maxWidth={220} /> },
            // Product ids run to 50 characters: cut, whole on hover.
            { title: t('saocom.productId'), dataIndex: 'productId', responsive: ['md'], render: (id: string) => <Typography.Text ellipsis={{ tooltip: id }} style={{ display: 'block', maxWidth: 200 }}>{id}</Typography.Text> },
            {
              title: t('saocom.statusTitle'),
              dataIndex: 'status',
              render: (status: Acquisition['status'], a) =>
                canEdit ? (
                  <Select size="small" aria-label={`${t('saocom.statusTitle')}: ${a.productId}`} value={status} style={{ width: 120 }} onClick={(e) => e.stopPropagation()} onChange={(next) => setStatus(a, next)} options={ACQUISITION_STATUSES.map((s) => ({ value: s, label: t(`saocom.status.${s}`) }))} />
                ) : (
                  <Tag color={ACQUISITION_STATUS_COLOR[status]}>{t(`saocom.status.${status}`)}</Tag>
                ),
            },
            { title: t('saocom.projects'), dataIndex: 'projects', responsive: ['md'], render: (ps: Acquisition['projects']) => <Space size={4} wrap style={{ maxWidth: 280 }}>{ps.map((p) => <Tag key={p.id} style={{ marginInlineEnd: 0 }}>{p.name}</Tag>)}</Space> },
          ]}
        />
      </Card>
      <Modal
        open={adding}
        title={t('saocom.add')}
        width={760}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={save.isPending}
        onCancel={() => setAdding(false)}
        onOk={async () => {
          if (!allowClick()) return;
          const v = await form.validateFields();
          save.mutate({ input: { ...v, acquiredAt: v.acquiredAt.toISOString() } });
        }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" name="acquisition">
          <Row gutter={12}>
            <Col span={8}>
              <Form.Item name="satellite" label={t('saocom.satellite')} rules={[{ required: true, whitespace: true, message: t('saocom.required') }]}>
                <AutoComplete options={SATELLITES.map((s) => ({ value: s }))} />
              </Form.Item>
            </Col>
            <Col span={16}>
              <Form.Item name="productId" label={t('saocom.productId')} rules={[{ required: true, whitespace: true, message: t('saocom.required') }]}>
                <Input maxLength={120} data-testid="acquisition-product" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="acquiredAt" label={t('saocom.acquiredAt')} rules={[{ required: true, message: t('saocom.required') }]}>
                <DatePicker showTime style={{ width: '100%' }} data-testid="acquisition-time" />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item name="orbitDirection" label={t('saocom.orbit')}>
                <Select options={ORBIT_DIRECTIONS.map((o) => ({ value: o, label: t(`saocom.orbits.${o}`) }))} />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item name="mode" label={t('saocom.mode')}>
                <Select options={ACQUISITION_MODES.map((m) => ({ value: m, label: m }))} />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item name="polarisation" label={t('saocom.polarisation')}>
                <Select options={POLARISATIONS.map((p) => ({ value: p, label: t(`saocom.polarisations.${p}`) }))} />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item name="status" label={t('saocom.statusTitle')}>
                <Select options={ACQUISITION_STATUSES.map((s) => ({ value: s, label: t(`saocom.status.${s}`) }))} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="footprint" label={t('saocom.footprint')} extra={t('project.drawHint')} rules={[{ required: true, message: t('saocom.footprintRequired') }]} valuePropName="value">
            <FootprintField />
          </Form.Item>
        </Form>
      </Modal>
      <AcquisitionImportModal open={importing} onClose={() => setImporting(false)} onImported={(job) => { setImporting(false); setFocus(job.result?.extent ?? null); }} />
    </Space>
  );
}

/** The footprint drawn on the enterprise's map. */
function FootprintField({ value, onChange }: { value?: AreaGeometry; onChange?: (area: AreaGeometry | undefined) => void }) {
  const enterpriseID = useSession((s) => s.enterpriseID);
  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  if (!settings.data) return <Skeleton active />;
  return (
    <div data-testid="footprint-map">
      <MapView settings={settings.data.result} height={300} drawArea={{ value: value ?? null, onChange: (area) => onChange?.(area ?? undefined) }} />
    </div>
  );
}
