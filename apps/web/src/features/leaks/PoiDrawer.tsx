import { useState } from 'react';
import { Button, Descriptions, Drawer, Empty, Form, Grid, Image, Input, InputNumber, Modal, Radio, Select, Space, Switch, Timeline, Typography, Upload } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { CameraOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { LEAK_TYPES, POI_ACTION_FROM, type FindingInput } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { leakApi, type Poi } from '../../api/leaks.ts';
import { useActionVisible } from '../../components/Authorized.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { MaterialSelect } from '../../components/MaterialSelect.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import { formatLength, materialLabel } from '../../utils/format.ts';
import { POI_STATUS_COLOR } from './poiStatus.ts';
import { KeptImage } from '../../components/KeptImage.tsx';
import './leakMessages.ts';

/**
 * The current leak: its pipes, finding, photos and history, and the workflow actions its status
 * allows. Full width on a phone: crews record findings on site.
 */
export function PoiDrawer({ poi, onClose, onAssign }: { poi: Poi | null; onClose: () => void; onAssign?: (poi: Poi) => void }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canWork = useActionVisible('edit');
  const allowClick = useClickGuard();
  const queryClient = useQueryClient();
  const [findingOpen, setFindingOpen] = useState(false);
  const [form] = Form.useForm<FindingInput>();
  const result = Form.useWatch('result', form);
  const detail = useQuery({ queryKey: ['leaks', enterpriseID, 'poi', poi?.id], queryFn: () => leakApi.poi(poi!.id), enabled: poi !== null });
  const photos = useQuery({ queryKey: ['leaks', enterpriseID, 'photos', poi?.id], queryFn: () => leakApi.photos(poi!.id), enabled: poi !== null });
  const current = detail.data?.result ?? poi;
  const after = { invalidate: ['leaks', enterpriseID] };
  const start = useChange(() => leakApi.start(current!.id), after);
  const record = useChange((input: FindingInput) => leakApi.finding(current!.id, input), { ...after, onDone: () => setFindingOpen(false) });
  const repair = useChange(() => leakApi.repair(current!.id), after);
  const reopen = useChange((reason: string) => leakApi.reopen(current!.id, reason), after);

  const may = (action: keyof typeof POI_ACTION_FROM) => canWork && current !== null && POI_ACTION_FROM[action].includes(current.status);
  const guarded = (run: () => void) => () => allowClick() && run();
  const askReason = () => {
    let reason = '';
    Modal.confirm({
      title: t('leak.reopenTitle', { poiNo: current!.poiNo }),
      content: <Input.TextArea rows={3} maxLength={500} onChange={(e) => (reason = e.target.value)} data-testid="reopen-reason" />,
      okText: t('leak.actions.reopen'),
      cancelText: t('common.cancel'),
      onOk: () => (reason.trim() ? reopen.mutateAsync(reason.trim()) : Promise.reject(new Error(t('leak.reasonRequired')))),
    });
  };
  const upload = async (file: File) => {
    try {
      await leakApi.addPhoto(current!.id, file);
      void queryClient.invalidateQueries({ queryKey: ['leaks', enterpriseID] });
    } catch (error) {
      Modal.error({ title: t('leak.photoFailed'), content: errorMessage(error) });
    }
  };

  if (!current) return null;
  const f = current.finding;
  return (
    <Drawer open={poi !== null} onClose={onClose} width={screens.md ? 480 : '100%'} title={`${t('leak.poi')} ${current.poiNo}`} mask={false} data-testid="poi-drawer">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Space wrap>
          <Tag color={POI_STATUS_COLOR[current.status]} data-testid="poi-status">
            {t(`leak.status.${current.status}`)}
          </Tag>
          <Tag>{t(`leak.priority.${current.priority}`)}</Tag>
          {current.assigneeName && <Tag>{t('leak.assignee')}: {current.assigneeName}</Tag>}
          {current.dueDate && <Tag>{t('leak.due')}: {current.dueDate}</Tag>}
        </Space>
        {canWork && (
          <Space wrap>
            {may('assign') && onAssign && <Button onClick={() => onAssign(current)} data-testid="poi-assign">{t('leak.actions.assign')}</Button>}
            {may('start') && <Button type="primary" loading={start.isPending} onClick={guarded(() => start.mutate(undefined))} data-testid="poi-start">{t('leak.actions.start')}</Button>}
            {may('finding') && (
              <Button type="primary" onClick={() => { form.resetFields(); form.setFieldsValue({ result: 'leakFound', surfacing: false }); setFindingOpen(true); }} data-testid="poi-finding">
                {t('leak.actions.finding')}
              </Button>
            )}
            {may('repair') && <Button type="primary" loading={repair.isPending} onClick={guarded(() => repair.mutate(undefined))} data-testid="poi-repair">{t('leak.actions.repair')}</Button>}
            {may('reopen') && <Button onClick={askReason} data-testid="poi-reopen">{t('leak.actions.reopen')}</Button>}
            <Upload accept="image/jpeg,image/png,image/webp,image/heic" showUploadList={false} beforeUpload={(file) => { void upload(file); return false; }}>
              <Button icon={<CameraOutlined />} data-testid="poi-photo-add">{t('leak.addPhoto')}</Button>
            </Upload>
          </Space>
        )}
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('leak.centre')}>{current.centerLon.toFixed(6)}, {current.centerLat.toFixed(6)}{current.radiusM ? ` · r ${current.radiusM} m` : ''}</Descriptions.Item>
          <Descriptions.Item label={t('leak.estimatedLeak')}>{current.estimatedLeakM3h ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('leak.pipesInside')}>
            <Space wrap data-testid="poi-pipes">
              {Object.entries(current.pipes.lengthM).map(([type, m]) => <Tag key={type}>{t(`network.${type}`)} {formatLength(m)}</Tag>)}
              <Typography.Text type="secondary">{t('leak.pipeCount', { count: current.pipes.count })}</Typography.Text>
            </Space>
          </Descriptions.Item>
        </Descriptions>
        {f && (current.status === 'leakFound' || current.status === 'repaired' || current.status === 'noLeak') && (
          <Descriptions size="small" column={screens.md ? 2 : 1} bordered title={t('leak.finding')} data-testid="poi-finding-detail">
            {f.leakType && <Descriptions.Item label={t('leak.leakType')}>{t(`leak.leakTypes.${f.leakType}`)}</Descriptions.Item>}
            {f.surfacing !== undefined && <Descriptions.Item label={t('leak.surfacing')}>{f.surfacing ? t('leak.yes') : t('leak.no')}</Descriptions.Item>}
            {f.pipeMaterial && <Descriptions.Item label={t('pipeline.material')}>{materialLabel(t, f.pipeMaterial)}</Descriptions.Item>}
            {f.pipeDiameterMm && <Descriptions.Item label={t('pipeline.diameter')}>{f.pipeDiameterMm}</Descriptions.Item>}
            {f.flowM3h !== undefined && <Descriptions.Item label={t('leak.flow')}>{f.flowM3h}</Descriptions.Item>}
            {f.depthM !== undefined && <Descriptions.Item label={t('pipeline.depth')}>{f.depthM}</Descriptions.Item>}
            {f.notes && <Descriptions.Item label={t('leak.notes')} span={2}>{f.notes}</Descriptions.Item>}
          </Descriptions>
        )}
        <div>
          <Typography.Title level={5}>{t('leak.photos')}</Typography.Title>
          {(photos.data?.result.length ?? 0) === 0 ? (
            <Typography.Text type="secondary">{t('leak.noPhotos')}</Typography.Text>
          ) : (
            <Image.PreviewGroup>
              <Space wrap>{photos.data!.result.map((p) => <KeptImage key={p.id} id={p.id} fileName={p.fileName} load={leakApi.photoBlob} size={96} testId="poi-photo" />)}</Space>
            </Image.PreviewGroup>
          )}
        </div>
        <div>
          <Typography.Title level={5}>{t('leak.history')}</Typography.Title>
          {current.history?.length ? (
            <Timeline
              data-testid="poi-history"
              items={current.history.map((h) => ({
                color: POI_STATUS_COLOR[h.toStatus],
                children: (
                  <>
                    <Typography.Text strong>{t(`leak.events.${h.action}`)}</Typography.Text> <Typography.Text type="secondary">{dayjs(h.at).format('YYYY-MM-DD HH:mm')} {h.userName ?? ''}</Typography.Text>
                    {typeof h.details?.reason === 'string' && <div>{h.details.reason}</div>}
                    {typeof h.details?.assignee === 'string' && <div>{t('leak.assignee')}: {h.details.assignee}</div>}
                  </>
                ),
              }))}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
          )}
        </div>
      </Space>
      <Modal
        open={findingOpen}
        title={t('leak.findingTitle', { poiNo: current.poiNo })}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={record.isPending}
        width={screens.md ? 560 : '100%'}
        onCancel={() => setFindingOpen(false)}
        onOk={async () => {
          if (!allowClick()) return;
          record.mutate(await form.validateFields());
        }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" name="finding">
          <Form.Item name="result" label={t('leak.result')}>
            <Radio.Group optionType="button" options={[{ value: 'leakFound', label: t('leak.status.leakFound') }, { value: 'noLeak', label: t('leak.status.noLeak') }]} data-testid="finding-result" />
          </Form.Item>
          {result !== 'noLeak' && (
            <>
              <Form.Item name="leakType" label={t('leak.leakType')} rules={[{ required: true, message: t('leak.leakTypeRequired') }]}>
                <Select options={LEAK_TYPES.map((type) => ({ value: type, label: t(`leak.leakTypes.${type}`) }))} data-testid="finding-type" />
              </Form.Item>
              <Form.Item name="surfacing" label={t('leak.surfacing')} valuePropName="checked">
                <Switch />
              </Form.Item>
              <Space wrap>
                <Form.Item name="pipeMaterial" label={t('pipeline.material')}>
                  <MaterialSelect withKnown style={{ width: 150 }} data-testid="finding-material" />
                </Form.Item>
                <Form.Item name="pipeDiameterMm" label={t('pipeline.diameter')}>
                  <InputNumber min={1} max={5000} style={{ width: 120 }} />
                </Form.Item>
                <Form.Item name="flowM3h" label={t('leak.flow')}>
                  <InputNumber min={0} max={10000} step={0.1} style={{ width: 120 }} data-testid="finding-flow" />
                </Form.Item>
                <Form.Item name="depthM" label={t('pipeline.depth')}>
                  <InputNumber min={0} max={100} step={0.1} style={{ width: 100 }} />
                </Form.Item>
              </Space>
            </>
          )}
          <Form.Item name="notes" label={t('leak.notes')}>
            <Input.TextArea rows={3} maxLength={2000} />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
