import { useState } from 'react';
import { Button, DatePicker, Descriptions, Drawer, Form, Grid, Image, Input, List, Modal, Popconfirm, Radio, Select, Space, Typography, Upload, message } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { PaperClipOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { CASE_ACTION_FROM, WATCH_PHOTOS_MAX, type CaseAction, type MeasuredPipe, type NetworkType } from '@console/contract';
import { constructionApi, type SiteDetail, type SiteFile } from '../../api/construction.ts';
import { errorMessage } from '../../api/http.ts';
import { useActionVisible } from '../../components/Authorized.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { StepModal, useStepSaving } from '../../components/StepModal.tsx';
import { PipeSetList } from '../../components/PipeSetList.tsx';
import { HistoryTimeline, detailLines } from '../../components/HistoryTimeline.tsx';
import { KeptImage } from '../../components/KeptImage.tsx';
import { PhotoPicker } from '../../components/PhotoPicker.tsx';
import { useSession } from '../../stores/session.ts';
import { saveBlob } from '../../utils/download.ts';
import { CRITICALITY_COLOR, STATUS_TAG_COLOR, formatDistance } from './siteStyle.ts';
import { AuditHistory } from '../../components/AuditHistory.tsx';

type StepAction = Exclude<CaseAction, 'watch'> | 'watch';

/**
 * The selected site: how close it comes to each network and which pipes lie in its corridor, what
 * it is, the case actions its state allows, the watch log, its files and its history. Full width
 * on a phone: the guard writes the watch log on site.
 */
/** The drawer's width from a tablet up (the map fits the site beside it). */
export const SITE_DRAWER_WIDTH = 520;

export function SiteDrawer({ site, onClose, onEdit }: { site: SiteDetail | null; onClose: () => void; onEdit: (site: SiteDetail) => void }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canWork = useActionVisible('edit');
  const canDelete = useActionVisible('delete');
  const allowClick = useClickGuard();
  const queryClient = useQueryClient();
  const [stepping, setStepping] = useState<StepAction | null>(null);
  const { saving, save } = useStepSaving(async () => {
    setStepping(null);
    await refresh();
  });
  const [photos, setPhotos] = useState<File[]>([]);
  const [fileKind, setFileKind] = useState<SiteFile['kind']>('plan');
  const [form] = Form.useForm<Record<string, unknown>>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['construction', enterpriseID] });

  if (!site) return null;
  const may = (action: CaseAction) => canWork && CASE_ACTION_FROM[action].includes(site.status);
  const open = (action: StepAction) => {
    form.resetFields();
    setPhotos([]);
    if (action === 'judge') form.setFieldsValue({ result: 'threat' });
    if (action === 'watch') form.setFieldsValue({ person: site.guard ?? undefined, at: dayjs() });
    if (action === 'brief') form.setFieldsValue({ briefedAt: dayjs() });
    setStepping(action);
  };
  const submit = async () => {
    if (!allowClick() || !stepping) return;
    const values = await form.validateFields();
    const at = (name: string) => (values[name] ? (values[name] as Dayjs).toISOString() : undefined);
    await save(async () => {
      if (stepping !== 'watch') return (await constructionApi.step(site.id, stepping, { ...values, briefedAt: at('briefedAt') })).message;
      const response = await constructionApi.watch(site.id, { person: String(values.person), remark: String(values.remark), at: at('at') });
      for (const photo of photos) await constructionApi.addWatchPhoto(site.id, response.result.logId, photo);
      return response.message;
    });
  };
  const addFile = async (file: File) => {
    try {
      await constructionApi.addFile(site.id, fileKind, file);
      await refresh();
    } catch (error) {
      Modal.error({ title: t('construction.actions.addFile'), content: errorMessage(error) });
    }
  };
  const openFile = async (file: SiteFile) => saveBlob(await constructionApi.fileBlob(file.id), file.fileName);
  const remove = async () => {
    try {
      await constructionApi.remove(site.id);
      onClose();
      await refresh();
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  const m = site.measure;
  const nearest = m ? (Object.entries(m.nearest) as [NetworkType, MeasuredPipe][]) : [];
  const siteFiles = site.files.filter((f) => f.watchLogId === null);
  const stepTitle = stepping ? t(`construction.step.${stepping === 'judge' ? 'judgeTitle' : stepping === 'brief' ? 'briefTitle' : stepping === 'guard' ? 'guardTitle' : stepping === 'watch' ? 'watchTitle' : stepping === 'close' ? 'closeTitle' : 'reopenTitle'}`, { siteNo: site.siteNo }) : '';
  const required = [{ required: true, whitespace: true, message: t('construction.step.required') }];
  return (
    <Drawer open onClose={onClose} width={screens.md ? SITE_DRAWER_WIDTH : '100%'} title={t('construction.detail.title', { siteNo: site.siteNo })} mask={false} data-testid="site-drawer">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Space wrap>
          <Tag color={STATUS_TAG_COLOR[site.status]} data-testid="site-status">{t(`construction.status.${site.status}`)}</Tag>
          <Tag color={CRITICALITY_COLOR[site.criticality]} data-testid="site-criticality">{t(`construction.criticality.${site.criticality}`)}</Tag>
          <Tag>{t(`construction.buildType.${site.buildType}`)}</Tag>
          {m?.gas && (
            <Tag color={m.gas.zone === 'protection' ? 'red' : 'orange'} data-testid="site-gas">
              {t(`construction.gasZone.${m.gas.zone}`, { range: m.gas.rangeM, pressure: t(`construction.pressure.${m.gas.pressure}`) })}
            </Tag>
          )}
        </Space>
        {canWork && (
          <Space wrap>
            {may('judge') && <Button type="primary" onClick={() => open('judge')} data-testid="site-judge">{t('construction.actions.judge')}</Button>}
            {may('brief') && <Button type="primary" onClick={() => open('brief')} data-testid="site-brief">{t('construction.actions.brief')}</Button>}
            {may('guard') && <Button type="primary" onClick={() => open('guard')} data-testid="site-guard">{t('construction.actions.guard')}</Button>}
            {may('watch') && <Button type="primary" onClick={() => open('watch')} data-testid="site-watch">{t('construction.actions.watch')}</Button>}
            {may('close') && <Button onClick={() => open('close')} data-testid="site-close">{t('construction.actions.close')}</Button>}
            {may('reopen') && <Button onClick={() => open('reopen')} data-testid="site-reopen">{t('construction.actions.reopen')}</Button>}
            <Button onClick={() => onEdit(site)} data-testid="site-edit">{t('construction.actions.edit')}</Button>
            {canDelete && (
              <Popconfirm title={t('common.delete')} onConfirm={remove} okText={t('common.ok')} cancelText={t('common.cancel')}>
                <Button danger>{t('construction.actions.delete')}</Button>
              </Popconfirm>
            )}
          </Space>
        )}
        <Descriptions size="small" column={1} bordered title={t('construction.detail.measured')} data-testid="site-measure">
          {nearest.length === 0 && <Descriptions.Item label={t('construction.columns.nearest')}>{t('construction.none', { m: 100 })}</Descriptions.Item>}
          {nearest.map(([network, pipe]) => (
            <Descriptions.Item key={network} label={t('construction.detail.nearest', { network: t(`network.${network}`) })}>
              <Typography.Text strong data-testid={`site-nearest-${network}`}>{formatDistance(pipe.distanceM)}</Typography.Text> · {pipe.pipeId}
              {pipe.pressureClass ? ` · ${pipe.pressureClass}` : ''}
              {pipe.diameterMm ? ` · DN${pipe.diameterMm}` : ''}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('construction.detail.corridor', { m: m?.corridorM ?? 30 })}>
            {m && Object.keys(m.corridorCount).length ? (
              <Space wrap size={4} data-testid="site-corridor">
                {(Object.entries(m.corridorCount) as [NetworkType, number][]).map(([network, n]) => <Tag key={network}>{t(`network.${network}`)} {n}</Tag>)}
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('construction.detail.corridorNone')}</Typography.Text>
            )}
          </Descriptions.Item>
        </Descriptions>
        {m && Object.keys(m.corridorCount).length > 0 && (
          <PipeSetList queryKey={['construction', enterpriseID, 'site', site.id, m.measuredAt]} load={async (page, size) => (await constructionApi.pipes(site.id, page, size)).result} testId="site-pipe-list" />
        )}
        <Descriptions size="small" column={1} bordered title={t('construction.detail.site')}>
          <Descriptions.Item label={t('construction.form.name')}>{site.name}</Descriptions.Item>
          {site.address && <Descriptions.Item label={t('construction.form.address')}>{[site.district, site.address].filter(Boolean).join(' ')}</Descriptions.Item>}
          <Descriptions.Item label={t('construction.form.source')}>
            {t(`construction.source.${site.source}`)}
            {site.detectedAt ? ` · ${t('construction.detail.detected', { date: site.detectedAt })}` : ''}
            {site.changeType ? ` · ${site.changeType}` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('construction.form.buildState')}>{t(`construction.buildState.${site.buildState}`)}</Descriptions.Item>
          {(site.plannedStart || site.plannedEnd) && <Descriptions.Item label={t('construction.detail.planned')}>{site.plannedStart ?? '?'} ~ {site.plannedEnd ?? '?'}</Descriptions.Item>}
          {(site.actualStart || site.actualEnd) && <Descriptions.Item label={t('construction.detail.actual')}>{site.actualStart ?? '?'} ~ {site.actualEnd ?? '?'}</Descriptions.Item>}
          {site.constructionUnit && <Descriptions.Item label={t('construction.detail.construction')}>{[site.constructionUnit, site.constructionContact, site.constructionPhone].filter(Boolean).join(' · ')}</Descriptions.Item>}
          {site.supervisingUnit && <Descriptions.Item label={t('construction.detail.supervising')}>{[site.supervisingUnit, site.supervisingContact, site.supervisingPhone].filter(Boolean).join(' · ')}</Descriptions.Item>}
          {site.briefedBy && <Descriptions.Item label={t('construction.status.briefed')}>{t('construction.detail.briefing', { who: site.briefedBy, at: dayjs(site.briefedAt).format('YYYY-MM-DD HH:mm') })}</Descriptions.Item>}
          {site.guard && <Descriptions.Item label={t('construction.status.guarded')}>{t('construction.detail.guard', { who: site.guard })}</Descriptions.Item>}
        </Descriptions>
        <div>
          <Typography.Title level={5}>{t('construction.detail.watchLog')}</Typography.Title>
          {site.watchLog.length === 0 ? (
            <Typography.Text type="secondary">{t('construction.detail.noWatch')}</Typography.Text>
          ) : (
            <List
              size="small"
              data-testid="site-watch-log"
              dataSource={site.watchLog}
              renderItem={(entry) => (
                <List.Item>
                  <Space direction="vertical" size={4} style={{ width: '100%' }}>
                    <Typography.Text type="secondary">{dayjs(entry.at).format('YYYY-MM-DD HH:mm')} · {entry.person}</Typography.Text>
                    <span>{entry.remark}</span>
                    <Image.PreviewGroup>
                      <Space wrap>{site.files.filter((f) => f.watchLogId === entry.id).map((f) => <KeptImage key={f.id} id={f.id} fileName={f.fileName} load={constructionApi.fileBlob} size={72} testId="site-photo" />)}</Space>
                    </Image.PreviewGroup>
                  </Space>
                </List.Item>
              )}
            />
          )}
        </div>
        <div>
          <Typography.Title level={5}>{t('construction.detail.files')}</Typography.Title>
          {canWork && (
            <Space.Compact style={{ marginBottom: 8 }}>
              <Select value={fileKind} onChange={setFileKind} style={{ width: 140 }} options={(['plan', 'agreement', 'photo'] as const).map((k) => ({ value: k, label: t(`construction.fileKind.${k}`) }))} />
              <Upload accept="application/pdf,image/jpeg,image/png,image/webp,image/heic" showUploadList={false} beforeUpload={(file) => { void addFile(file); return false; }}>
                <Button icon={<PaperClipOutlined />} data-testid="site-file-add">{t('construction.actions.addFile')}</Button>
              </Upload>
            </Space.Compact>
          )}
          {siteFiles.length === 0 ? (
            <div><Typography.Text type="secondary">{t('construction.detail.noFiles')}</Typography.Text></div>
          ) : (
            <List size="small" dataSource={siteFiles} renderItem={(f) => (
              <List.Item>
                <Typography.Link onClick={() => void openFile(f)}>{t(`construction.fileKind.${f.kind}`)} · {f.fileName}</Typography.Link>
              </List.Item>
            )} />
          )}
        </div>
        <div>
          <Typography.Title level={5}>{t('construction.detail.history')}</Typography.Title>
          <HistoryTimeline
            testId="site-history"
            entries={site.history.map((h) => ({
              id: h.id,
              title: t(`construction.events.${h.action}`) + (h.action === 'judge' && typeof h.details?.result === 'string' ? ` · ${t(`construction.status.${h.details.result}`)}` : ''),
              color: h.toStatus === 'closed' ? 'gray' : h.toStatus === 'review' ? 'gold' : h.toStatus === 'noThreat' ? 'green' : 'red',
              at: h.at,
              userName: h.userName,
              lines: detailLines(h.details, ['reason', 'notes', 'remark', 'briefedBy', 'guard', 'fileName']),
            }))}
          />
        </div>
        <AuditHistory object="construction/sites" objectId={site.id} />
      </Space>
      <StepModal open={stepping !== null} title={stepTitle} saving={saving} onCancel={() => setStepping(null)} onSave={submit} saveTestId="step-save">
        <Form form={form} layout="vertical" name="site-step">
          {stepping === 'judge' && (
            <Form.Item name="result" label={t('construction.step.result')}>
              <Radio.Group optionType="button" options={[{ value: 'threat', label: t('construction.actions.threat') }, { value: 'noThreat', label: t('construction.actions.noThreat') }]} data-testid="step-result" />
            </Form.Item>
          )}
          {stepping === 'brief' && (
            <>
              <Form.Item name="briefedBy" label={t('construction.step.briefedBy')} rules={required}><Input maxLength={40} data-testid="step-briefed-by" /></Form.Item>
              <Form.Item name="briefedAt" label={t('construction.step.briefedAt')}><DatePicker showTime style={{ width: '100%' }} /></Form.Item>
            </>
          )}
          {stepping === 'guard' && <Form.Item name="guard" label={t('construction.step.guardName')} rules={required}><Input maxLength={40} data-testid="step-guard" /></Form.Item>}
          {stepping === 'watch' && (
            <>
              <Form.Item name="at" label={t('construction.step.at')}><DatePicker showTime style={{ width: '100%' }} /></Form.Item>
              <Form.Item name="person" label={t('construction.step.person')} rules={required}><Input maxLength={40} data-testid="step-person" /></Form.Item>
              <Form.Item name="remark" label={t('construction.step.remark')} rules={required}><Input.TextArea rows={3} maxLength={2000} data-testid="step-remark" /></Form.Item>
              <Form.Item label={t('construction.step.photos')}>
                <PhotoPicker photos={photos} onChange={setPhotos} max={WATCH_PHOTOS_MAX} testId="step-photos" />
              </Form.Item>
            </>
          )}
          {stepping === 'reopen' ? (
            <Form.Item name="reason" label={t('construction.step.reason')} rules={required}><Input.TextArea rows={3} maxLength={500} data-testid="step-reason" /></Form.Item>
          ) : (
            stepping !== 'watch' && <Form.Item name="notes" label={t('construction.step.notes')}><Input.TextArea rows={3} maxLength={2000} data-testid="step-notes" /></Form.Item>
          )}
        </Form>
      </StepModal>
    </Drawer>
  );
}
