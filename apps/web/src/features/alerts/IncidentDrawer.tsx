import { useState } from 'react';
import { Button, DatePicker, Descriptions, Drawer, Form, Grid, Image, Input, List, Select, Space, Typography, Upload, message } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { CameraOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { ALERT_PHOTOS_MAX, ALERT_STEP_FROM, RULE_ACTIONS, type AlertAction, type AlertEvent, type AlertSource, type AlertStep, type IncidentDetail } from '@console/contract';
import { alertApi } from '../../api/alerts.ts';
import { enterpriseApi } from '../../api/enterprises.ts';
import { errorMessage } from '../../api/http.ts';
import { useActionVisible, usePermission } from '../../components/Authorized.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { StepModal, useStepSaving } from '../../components/StepModal.tsx';
import { HistoryTimeline } from '../../components/HistoryTimeline.tsx';
import { KeptImage } from '../../components/KeptImage.tsx';
import { PhotoPicker } from '../../components/PhotoPicker.tsx';
import { RiskLevelTag } from '../../components/RiskLevel.tsx';
import { useSession } from '../../stores/session.ts';
import { NOTE_REQUIRED, STATE_TAG_COLOR, alertTitle, alertValue, incidentTitle } from './alertStyle.ts';
import { AuditHistory } from '../../components/AuditHistory.tsx';

/** Where each source's objects are worked in the console. */
const SOURCE_PAGE: Record<Exclude<AlertSource, 'manual'>, string> = {
  settlement: '/settlement',
  construction: '/risk/construction',
  weather: '/weather',
  leak: '/leak',
  pipeRisk: '/enterprise/map',
  sensor: '/risk/sensors',
};
/** Steps in the order their buttons stand. */
const STEPS: AlertStep[] = ['confirm', 'falseAlarm', 'dispatch', 'accept', 'handle', 'close', 'reject', 'reopen', 'supervise', 'note'];
/** Steps whose note is required (a reason, a report). */
const FACT_KEYS = ['datasetName', 'metric', 'pointCount', 'siteName', 'pressure', 'gasPipeId', 'criticality', 'type', 'end', 'foundAt', 'estimatedLeakM3h', 'fromLevel', 'since', 'likelihood', 'consequence'] as const;
const time = (at: string | null) => (at ? dayjs(at).format('YYYY-MM-DD HH:mm') : '-');

/**
 * The selected incident: its cause and its alerts with their figures, the steps its state allows
 * the reader (the assignee accepts and reports; administrators supervise), the deadline, the
 * affected pipes and one timeline with its photos. Full width on a phone.
 */
export function IncidentDrawer({ incident, onClose }: { incident: IncidentDetail | null; onClose: () => void }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const navigate = useNavigate();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canWork = useActionVisible('edit');
  const isAdmin = usePermission()('enterprise', 'edit');
  const allowClick = useClickGuard();
  const queryClient = useQueryClient();
  const [stepping, setStepping] = useState<AlertStep | null>(null);
  const { saving, save } = useStepSaving(async () => {
    setStepping(null);
    await refresh();
  });
  const [photos, setPhotos] = useState<File[]>([]);
  const [form] = Form.useForm<Record<string, unknown>>();
  const members = useQuery({ queryKey: ['members', enterpriseID], queryFn: enterpriseApi.members, enabled: stepping === 'dispatch' });
  const settings = useQuery({ queryKey: ['alerts', enterpriseID, 'settings'], queryFn: alertApi.settings, enabled: stepping === 'dispatch' });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['alerts', enterpriseID] });

  if (!incident) return null;
  // A closed incident's entries take no more photos here (a phone's queued ones still arrive).
  const ended = incident.state === 'closed' || incident.state === 'falseAlarm';
  const may = (step: AlertStep) => {
    if (!canWork || !ALERT_STEP_FROM[step].includes(incident.state)) return false;
    if (step === 'accept' || step === 'handle') return incident.assignedToMe || isAdmin;
    if (step === 'supervise') return isAdmin;
    return true;
  };
  const open = (step: AlertStep) => {
    form.resetFields();
    setPhotos([]);
    if (step === 'dispatch') form.setFieldsValue({ organisation: incident.organisation ?? undefined, assigneeId: incident.assigneeId ?? undefined });
    setStepping(step);
  };
  const submit = async () => {
    if (!allowClick() || !stepping) return;
    const values = await form.validateFields();
    const body: Record<string, unknown> = { ...values };
    if (values.deadline) body.deadline = (values.deadline as Dayjs).toISOString();
    if (stepping === 'supervise') body.supervised = !incident.supervised;
    await save(async () => {
      const response = await alertApi.step(incident.id, stepping, body);
      // The report's photos go on the entry just written.
      const entry = response.result.events.at(-1);
      if (entry) for (const photo of photos) await alertApi.addPhoto(incident.id, entry.id, photo);
      return response.message;
    });
  };
  const addPhoto = async (event: AlertEvent, file: File) => {
    try {
      await alertApi.addPhoto(incident.id, event.id, file);
      await refresh();
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  // The gravest member's figures stand for the incident (the list below has each member's value).
  const lead = incident.members[0];
  const facts = FACT_KEYS.flatMap((key) => {
    const value = lead?.details[key];
    if (value === undefined || value === null || value === '') return [];
    let text = String(value);
    if (key === 'metric') text = t(`alerts.metric.${value}`);
    if (key === 'end' || key === 'foundAt') text = time(String(value));
    if (key === 'criticality') text = t(`alerts.criticality.${value}`);
    if (key === 'type') text = t(`alerts.weatherType.${value}`);
    return [{ key, text }];
  });
  const areaNames = Array.isArray(lead?.details.riskAreas) ? (lead.details.riskAreas as { name: string }[]).map((a) => a.name) : [];
  const required = (label: string) => [{ required: true, whitespace: true, message: t('alerts.form.required') + ': ' + label }];
  const stepLabel = (step: AlertStep) => (step === 'supervise' && incident.supervised ? t('alerts.step.unsupervise') : t(`alerts.step.${step}`));
  const noteLabel = stepping === 'handle' ? t('alerts.form.report') : stepping && ['falseAlarm', 'reject', 'reopen'].includes(stepping) ? t('alerts.form.reason') : t('alerts.form.note');
  return (
    <Drawer open onClose={onClose} width={screens.md ? 540 : '100%'} title={t('alerts.detail.incidentTitle', { code: incident.code })} mask={false} data-testid="alert-drawer">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Space wrap>
          <span data-testid="alert-level"><RiskLevelTag level={incident.level} /></span>
          <Tag color={STATE_TAG_COLOR[incident.state]} data-testid="alert-state">{t(`alerts.state.${incident.state}`)}</Tag>
          {incident.overdue && <Tag color="red" data-testid="alert-overdue">{t('alerts.overdue')}</Tag>}
          {incident.supervised && <Tag color="magenta">{t('alerts.supervised')}</Tag>}
          <Tag>{t(`alerts.source.${incident.source}`)}</Tag>
        </Space>
        <Typography.Title level={5} style={{ margin: 0 }} data-testid="alert-title">{incidentTitle(incident)}</Typography.Title>
        {canWork && (
          <Space wrap>
            {STEPS.filter(may).map((step) => (
              <Button key={step} type={['confirm', 'dispatch', 'accept', 'handle', 'close'].includes(step) ? 'primary' : 'default'} danger={step === 'falseAlarm'} onClick={() => open(step)} data-testid={`alert-${step}`}>
                {stepLabel(step)}
              </Button>
            ))}
          </Space>
        )}
        <Descriptions size="small" column={1} bordered data-testid="alert-facts">
          <Descriptions.Item label={t('alerts.detail.source')}>
            {incident.source === 'manual' ? t('alerts.source.manual') : <Typography.Link onClick={() => navigate(SOURCE_PAGE[incident.source as Exclude<AlertSource, 'manual'>])}>{t('alerts.detail.open', { what: t(`alerts.linkTo.${incident.source}`) })}</Typography.Link>}
          </Descriptions.Item>
          <Descriptions.Item label={t('alerts.detail.pipes')}>
            {incident.pipeIds.length ? <Space wrap size={4}>{incident.pipeIds.slice(0, 12).map((id) => <Tag key={id}>{id}</Tag>)}</Space> : null}
            {incident.pipeCount > Math.min(incident.pipeIds.length, 12) || !incident.pipeIds.length ? <Typography.Text type="secondary">{t('alerts.detail.pipesMore', { n: incident.pipeCount })}</Typography.Text> : null}
          </Descriptions.Item>
          <Descriptions.Item label={t('alerts.detail.raised')}>{time(incident.raisedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('alerts.detail.firstResponse')}>{time(incident.firstResponseAt)}</Descriptions.Item>
          {incident.organisation && <Descriptions.Item label={t('alerts.detail.dispatch')}>{[incident.organisation, incident.assigneeName].filter(Boolean).join(' · ')}</Descriptions.Item>}
          {incident.deadline && (
            <Descriptions.Item label={t('alerts.detail.deadline')}>
              <Typography.Text type={incident.overdue ? 'danger' : undefined} data-testid="alert-deadline">{time(incident.deadline)}</Typography.Text>
            </Descriptions.Item>
          )}
          {incident.handledAt && <Descriptions.Item label={t('alerts.detail.handled')}>{time(incident.handledAt)}</Descriptions.Item>}
          {incident.closedAt && <Descriptions.Item label={t('alerts.detail.closed')}>{time(incident.closedAt)}</Descriptions.Item>}
        </Descriptions>
        <div data-testid="incident-members">
          <Typography.Title level={5}>{t('alerts.detail.members', { count: incident.memberCount })}</Typography.Title>
          <List
            size="small"
            bordered
            dataSource={incident.members}
            style={{ maxHeight: 260, overflow: 'auto' }}
            renderItem={(m) => (
              <List.Item style={{ display: 'block' }}>
                <Space size={4} wrap>
                  <RiskLevelTag level={m.level} />
                  <Typography.Text type="secondary">{m.code}</Typography.Text>
                  <Typography.Text>{alertTitle(t, m)}</Typography.Text>
                  {m.clearedAt && <Tag color="green" data-testid="member-cleared">{t('alerts.detail.cleared', { at: time(m.clearedAt) })}</Tag>}
                </Space>
                {m.value !== null && <div><Typography.Text type="secondary" style={{ fontSize: 12 }}>{alertValue(t, m)}</Typography.Text></div>}
              </List.Item>
            )}
            footer={incident.moreMembers > 0 ? <Typography.Text type="secondary">{t('alerts.detail.moreMembers', { count: incident.moreMembers })}</Typography.Text> : undefined}
          />
        </div>
        {(facts.length > 0 || areaNames.length > 0) && (
          <Descriptions size="small" column={1} bordered title={t('alerts.detail.figuresOf', { code: lead.code })}>
            {facts.map((f) => <Descriptions.Item key={f.key} label={t(`alerts.facts.${f.key}`)}>{f.text}</Descriptions.Item>)}
            {areaNames.length > 0 && <Descriptions.Item label={t('alerts.facts.riskAreas')}>{areaNames.join('、')}</Descriptions.Item>}
          </Descriptions>
        )}
        <div>
          <Typography.Title level={5}>{t('alerts.detail.timeline')}</Typography.Title>
          <HistoryTimeline
            testId="alert-timeline"
            entries={[...incident.events].reverse().map((e) => ({
              id: e.id,
              title: eventTitle(e, t),
              color: e.action === 'clear' ? 'green' : e.action === 'escalate' || e.toState === 'new' ? 'red' : e.toState === 'closed' ? 'green' : e.toState === 'falseAlarm' ? 'gray' : 'blue',
              at: e.at,
              userName: e.userName,
              lines: [
                ...(e.action === 'clear' && e.details ? [t(e.details.cleared ? 'alerts.eventLines.cleared' : 'alerts.eventLines.recurred', { subjects: (e.details.alerts as { subject: string }[]).map((a) => a.subject).join('、') })] : []),
                ...(e.action === 'join' && e.details ? [t('alerts.eventLines.join', { count: e.details.count, subjects: (e.details.alerts as { subject: string }[]).map((a) => a.subject).join('、') })] : []),
                ...(e.action === 'escalate' && e.details ? [t('alerts.eventLines.escalate', { from: e.details.fromLevel, to: e.details.toLevel })] : []),
                ...(e.action === 'escalate' && e.details?.deadline ? [t('alerts.eventLines.deadlineForward', { deadline: time(String(e.details.deadline)) })] : []),
                ...(e.action === 'dispatch' && e.details ? [t('alerts.eventLines.dispatch', { organisation: e.details.organisation, assignee: e.details.assignee, deadline: time(String(e.details.deadline)) })] : []),
                ...(e.action === 'supervise' ? [t(e.details?.supervised ? 'alerts.eventLines.supervisedOn' : 'alerts.eventLines.supervisedOff')] : []),
                ...(e.note ? [e.note] : []),
              ],
              extra: (
                <Space wrap style={{ marginTop: 4 }}>
                  <Image.PreviewGroup>{e.photos.map((p) => <KeptImage key={p.id} id={p.id} fileName={p.fileName} load={alertApi.photoBlob} size={64} testId="alert-photo" />)}</Image.PreviewGroup>
                  {canWork && !ended && (e.byMe || isAdmin) && !(RULE_ACTIONS as readonly AlertAction[]).includes(e.action) && e.photos.length < ALERT_PHOTOS_MAX && (
                    <Upload accept="image/jpeg,image/png,image/webp,image/heic" showUploadList={false} beforeUpload={(file) => { void addPhoto(e, file); return false; }}>
                      <Button size="small" type="text" icon={<CameraOutlined />}>{t('alerts.detail.addPhoto')}</Button>
                    </Upload>
                  )}
                </Space>
              ),
            }))}
          />
        </div>
        <AuditHistory object="alerts/incidents" objectId={incident.id} />
      </Space>
      <StepModal open={stepping !== null} title={stepping ? t('alerts.form.stepTitle', { step: stepLabel(stepping), code: incident.code }) : ''} saving={saving} onCancel={() => setStepping(null)} onSave={submit} saveTestId="alert-step-save">
        <Form form={form} layout="vertical" name="alert-step">
          {stepping === 'dispatch' && (
            <>
              <Form.Item name="organisation" label={t('alerts.form.organisation')} rules={required(t('alerts.form.organisation'))}>
                <Input maxLength={120} data-testid="alert-organisation" />
              </Form.Item>
              <Form.Item name="assigneeId" label={t('alerts.form.assignee')} rules={[{ required: true, message: `${t('alerts.form.required')}: ${t('alerts.form.assignee')}` }]}>
                <Select
                  showSearch
                  optionFilterProp="label"
                  data-testid="alert-assignee"
                  loading={members.isLoading}
                  options={(members.data?.result ?? []).filter((m) => m.status === 'active' && m.role !== 'viewer').map((m) => ({ value: m.userId, label: `${m.realname} (${m.username})` }))}
                />
              </Form.Item>
              <Form.Item
                name="deadline"
                label={t('alerts.form.deadline')}
                extra={settings.data ? t('alerts.form.deadlineHint', { level: incident.level, hours: settings.data.result.deadlineHours[incident.level] }) : undefined}
              >
                <DatePicker showTime style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} />
              </Form.Item>
            </>
          )}
          {stepping && (
            <Form.Item name="note" label={noteLabel} rules={NOTE_REQUIRED.includes(stepping) ? required(noteLabel) : undefined}>
              <Input.TextArea rows={3} maxLength={2000} data-testid="alert-step-note" />
            </Form.Item>
          )}
          {(stepping === 'handle' || stepping === 'note') && (
            <Form.Item label={t('alerts.form.photos')}>
              <PhotoPicker photos={photos} onChange={setPhotos} max={ALERT_PHOTOS_MAX} testId="alert-photos" />
            </Form.Item>
          )}
        </Form>
      </StepModal>
    </Drawer>
  );
}

/** A timeline entry's title: the step, and the state it led to unless the step already says it ("Confirmed", not "Confirmed → Confirmed"). */
function eventTitle(e: { action: string; fromState: string | null; toState: string }, t: TFunction): string {
  const step = t(`alerts.events.${e.action}`);
  const state = t(`alerts.state.${e.toState}`);
  return e.fromState !== e.toState && e.action !== 'raise' && state !== step ? `${step} → ${state}` : step;
}
