import { useState } from 'react';
import { Button, Descriptions, Drawer, Form, Grid, Input, List, Modal, Popconfirm, Space, Typography, Upload, message } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { PaperClipOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RISK_AREA_ACTION_FROM, RISK_LEVEL_COLORS, type NetworkType, type RiskAreaAction } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { riskAreaApi, type RiskAreaDetail } from '../../api/riskAreas.ts';
import { useActionVisible } from '../../components/Authorized.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { StepModal, useStepSaving } from '../../components/StepModal.tsx';
import { PipeSetList } from '../../components/PipeSetList.tsx';
import { HistoryTimeline, detailLines } from '../../components/HistoryTimeline.tsx';
import { useSession } from '../../stores/session.ts';
import { saveBlob } from '../../utils/download.ts';
import { formatLength } from '../../utils/format.ts';
import { AuditHistory } from '../../components/AuditHistory.tsx';

/** The selected area: the pipes it holds, what it is, its remediation steps, files and history. */
export function AreaDrawer({ area, onClose, onEdit }: { area: RiskAreaDetail | null; onClose: () => void; onEdit: (area: RiskAreaDetail) => void }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canWork = useActionVisible('edit');
  const canDelete = useActionVisible('delete');
  const allowClick = useClickGuard();
  const queryClient = useQueryClient();
  const [stepping, setStepping] = useState<RiskAreaAction | null>(null);
  const { saving, save } = useStepSaving(async () => {
    setStepping(null);
    await refresh();
  });
  const [form] = Form.useForm<{ notes?: string; reason?: string }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['riskAreas', enterpriseID] });
  if (!area) return null;

  const may = (action: RiskAreaAction) => canWork && RISK_AREA_ACTION_FROM[action].includes(area.status);
  const submit = async () => {
    if (!allowClick() || !stepping) return;
    const values = await form.validateFields();
    await save(async () => (await riskAreaApi.step(area.id, stepping, values)).message);
  };
  const addFile = async (file: File) => {
    try {
      await riskAreaApi.addFile(area.id, file);
      await refresh();
    } catch (error) {
      Modal.error({ title: t('riskAreas.actions.addFile'), content: errorMessage(error) });
    }
  };
  const remove = async () => {
    try {
      await riskAreaApi.remove(area.id);
      onClose();
      await refresh();
    } catch (error) {
      message.error(errorMessage(error));
    }
  };
  const p = area.pipes;
  const networks = p ? (Object.keys(p.count) as NetworkType[]) : [];
  return (
    <Drawer open onClose={onClose} width={screens.md ? 500 : '100%'} title={area.name} mask={false} data-testid="area-drawer">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Space wrap>
          <Tag color={RISK_LEVEL_COLORS[area.level]} data-testid="area-level-tag">{area.level}</Tag>
          <Tag>{t(`riskAreas.kind.${area.kind}`)}</Tag>
          <Tag color={area.status === 'remediated' ? 'green' : area.status === 'remediating' ? 'blue' : 'orange'} data-testid="area-status">{t(`riskAreas.status.${area.status}`)}</Tag>
        </Space>
        {canWork && (
          <Space wrap>
            {(['start', 'finish', 'reopen'] as const).filter(may).map((action) => (
              <Button key={action} type={action === 'reopen' ? 'default' : 'primary'} onClick={() => { form.resetFields(); setStepping(action); }} data-testid={`area-${action}`}>
                {t(`riskAreas.actions.${action}`)}
              </Button>
            ))}
            <Button onClick={() => onEdit(area)} data-testid="area-edit">{t('riskAreas.actions.edit')}</Button>
            {canDelete && (
              <Popconfirm title={t('common.delete')} onConfirm={remove} okText={t('common.ok')} cancelText={t('common.cancel')}>
                <Button danger>{t('riskAreas.actions.delete')}</Button>
              </Popconfirm>
            )}
          </Space>
        )}
        <Descriptions size="small" column={1} bordered title={t('riskAreas.detail.pipes', { m: area.bufferM })} data-testid="area-pipes">
          {networks.length === 0 ? (
            <Descriptions.Item label={t('riskAreas.columns.pipes')}>{t('riskAreas.detail.none')}</Descriptions.Item>
          ) : (
            networks.map((n) => (
              <Descriptions.Item key={n} label={t(`network.${n}`)}>
                <span data-testid={`area-pipes-${n}`}>{p!.count[n]} · {formatLength(p!.lengthM[n] ?? 0)}</span>
              </Descriptions.Item>
            ))
          )}
          {p && p.inside > 0 && <Descriptions.Item label={t('riskAreas.detail.area')}>{t('riskAreas.detail.inside', { n: p.inside })}</Descriptions.Item>}
        </Descriptions>
        {networks.length > 0 && (
          <PipeSetList queryKey={['riskAreas', enterpriseID, 'area', area.id, p?.measuredAt]} load={async (page, size) => (await riskAreaApi.pipes(area.id, page, size)).result} testId="area-pipe-list" />
        )}
        <Descriptions size="small" column={1} bordered>
          {area.cause && <Descriptions.Item label={t('riskAreas.detail.cause')}>{area.cause}</Descriptions.Item>}
          {area.triggerRainMm !== null && <Descriptions.Item label={t('riskAreas.detail.trigger')}>{t('riskAreas.trigger', { mm: area.triggerRainMm, hours: area.triggerHours })}</Descriptions.Item>}
          {area.voidAreaM2 !== null && <Descriptions.Item label={t('riskAreas.detail.void')}>{t('riskAreas.detail.voidFigures', { area: area.voidAreaM2, depth: area.burialDepthM ?? '-', height: area.clearHeightM ?? '-' })}</Descriptions.Item>}
          <Descriptions.Item label={t('riskAreas.form.source')}>{t(`riskAreas.source.${area.source}`)}</Descriptions.Item>
          {area.responsibleUnit && <Descriptions.Item label={t('riskAreas.detail.responsible')}>{[area.responsibleUnit, area.responsiblePerson, area.responsiblePhone].filter(Boolean).join(' · ')}</Descriptions.Item>}
          {area.notes && <Descriptions.Item label={t('riskAreas.form.notes')}>{area.notes}</Descriptions.Item>}
        </Descriptions>
        <div>
          <Typography.Title level={5}>{t('riskAreas.detail.files')}</Typography.Title>
          {canWork && (
            <Upload accept="application/pdf,image/jpeg,image/png,image/webp,image/heic" showUploadList={false} beforeUpload={(file) => { void addFile(file); return false; }}>
              <Button icon={<PaperClipOutlined />} style={{ marginBottom: 8 }}>{t('riskAreas.actions.addFile')}</Button>
            </Upload>
          )}
          {area.files.length === 0 ? (
            <div><Typography.Text type="secondary">{t('riskAreas.detail.noFiles')}</Typography.Text></div>
          ) : (
            <List size="small" dataSource={area.files} renderItem={(f) => (
              <List.Item><Typography.Link onClick={() => void riskAreaApi.fileBlob(f.id).then((blob) => saveBlob(blob, f.fileName))}>{f.fileName}</Typography.Link></List.Item>
            )} />
          )}
        </div>
        <div>
          <Typography.Title level={5}>{t('riskAreas.detail.history')}</Typography.Title>
          <HistoryTimeline
            testId="area-history"
            entries={area.history.map((h) => ({
              id: h.id,
              title: t(`riskAreas.events.${h.action}`),
              color: h.toStatus === 'remediated' ? 'green' : h.toStatus === 'remediating' ? 'blue' : 'orange',
              at: h.at,
              userName: h.userName,
              lines: detailLines(h.details, ['reason', 'notes', 'fileName']),
            }))}
          />
        </div>
        <AuditHistory object="risk-areas/areas" objectId={area.id} />
      </Space>
      <StepModal open={stepping !== null} title={stepping ? t('riskAreas.step.title', { action: t(`riskAreas.actions.${stepping}`), name: area.name }) : ''} saving={saving} onCancel={() => setStepping(null)} onSave={submit} saveTestId="area-step-save">
        <Form form={form} layout="vertical" name="area-step">
          {stepping === 'reopen' ? (
            <Form.Item name="reason" label={t('riskAreas.step.reason')} rules={[{ required: true, whitespace: true, message: t('riskAreas.step.required') }]}><Input.TextArea rows={3} maxLength={500} /></Form.Item>
          ) : (
            <Form.Item name="notes" label={t('riskAreas.step.notes')}><Input.TextArea rows={3} maxLength={2000} data-testid="area-step-notes" /></Form.Item>
          )}
        </Form>
      </StepModal>
    </Drawer>
  );
}
