import { useState } from 'react';
import { Button, Checkbox, Form, Input, Modal, Popconfirm, Select, Space, Switch, Table, Typography, message } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { CHANNEL_KINDS, RISK_LEVELS, type ChannelInput, type ChannelRow, type ChannelSend, type SendState } from '@console/contract';
import { channelApi } from '../../api/alerts.ts';
import { errorMessage } from '../../api/http.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useSession } from '../../stores/session.ts';

const SEND_COLOR: Record<SendState, string> = { pending: 'gold', sent: 'green', failed: 'red' };

/**
 * The enterprise's channels (administrators): the DingTalk and WeCom group robots and the mail
 * boxes that hear of incidents of the levels each takes, with a test message and the record of
 * every send and its outcome.
 */
export function ChannelsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const allowClick = useClickGuard();
  const channels = useQuery({ queryKey: ['channels', enterpriseID], queryFn: channelApi.list, enabled: open });
  const sends = useQuery({ queryKey: ['channels', enterpriseID, 'sends'], queryFn: channelApi.sends, enabled: open, refetchInterval: open ? 5_000 : false });
  const [editing, setEditing] = useState<ChannelRow | 'new' | null>(null);
  const [form] = Form.useForm<ChannelInput>();
  const kind = Form.useWatch('kind', form);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['channels', enterpriseID] });

  const edit = (row: ChannelRow | 'new') => {
    form.resetFields();
    // Credentials are never sent back: an empty webhook or secret keeps the one the channel has.
    form.setFieldsValue(row === 'new' ? { kind: 'dingtalk', levels: ['I', 'II'], enabled: true, reports: false, recipients: [] } : { ...row, webhook: undefined, secret: undefined });
    setEditing(row);
  };
  const save = async () => {
    if (!allowClick()) return;
    const values = await form.validateFields();
    try {
      const response = editing === 'new' ? await channelApi.create(values) : await channelApi.update((editing as ChannelRow).id, values);
      message.success(response.message);
      setEditing(null);
      await refresh();
    } catch (error) {
      message.error(errorMessage(error));
    }
  };
  const act = async (run: () => Promise<{ message: string }>) => {
    try {
      message.success((await run()).message);
    } catch (error) {
      message.error(errorMessage(error));
    }
    await refresh();
  };
  const outcome = (s: { state: SendState; error?: string | null; lastError?: string | null } | null) =>
    s ? (
      <Space size={4}>
        <Tag color={SEND_COLOR[s.state]}>{t(`alerts.channels.send.${s.state}`)}</Tag>
        {(s.error ?? s.lastError) && <Typography.Text type="danger" style={{ fontSize: 12 }}>{s.error ?? s.lastError}</Typography.Text>}
      </Space>
    ) : (
      '-'
    );

  return (
    <Modal open={open} title={t('alerts.channels.title')} onCancel={onClose} footer={null} width={880} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('alerts.channels.intro')}</Typography.Text>
        <Button icon={<PlusOutlined />} onClick={() => edit('new')} data-testid="channels-add">{t('alerts.channels.add')}</Button>
        <Table<ChannelRow>
          rowKey="id"
          size="small"
          data-testid="channels-list"
          loading={channels.isFetching}
          dataSource={channels.data?.result ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('alerts.channels.name'), dataIndex: 'name' },
            { title: t('alerts.channels.kind'), dataIndex: 'kind', render: (v: ChannelRow['kind']) => t(`alerts.channels.kinds.${v}`) },
            { title: t('alerts.channels.levels'), dataIndex: 'levels', render: (v: string[]) => v.join(' / ') },
            { title: t('alerts.channels.reports'), dataIndex: 'reports', render: (v: boolean) => (v ? t('alerts.channels.on') : t('alerts.channels.off')) },
            { title: t('alerts.channels.enabled'), dataIndex: 'enabled', render: (v: boolean) => (v ? t('alerts.channels.on') : t('alerts.channels.off')) },
            { title: t('alerts.channels.last'), key: 'last', render: (_: unknown, c: ChannelRow) => outcome(c.lastSend) },
            {
              title: '',
              key: 'actions',
              render: (_: unknown, c: ChannelRow) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => void act(async () => { const r = await channelApi.test(c.id); return { message: t(`alerts.channels.tested.${r.result.state}`) }; })} data-testid={`channel-test-${c.id}`}>{t('alerts.channels.test')}</Button>
                  <Button type="link" size="small" onClick={() => edit(c)}>{t('common.edit')}</Button>
                  <Popconfirm title={t('alerts.channels.confirmDelete', { name: c.name })} onConfirm={() => void act(() => channelApi.remove(c.id))}>
                    <Button type="link" size="small" danger>{t('common.delete')}</Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
        <Typography.Title level={5} style={{ margin: 0 }}>{t('alerts.channels.sends')}</Typography.Title>
        <Table<ChannelSend>
          rowKey="id"
          size="small"
          data-testid="channels-sends"
          dataSource={sends.data?.result ?? []}
          pagination={{ pageSize: 5, size: 'small' }}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('alerts.channels.at'), dataIndex: 'createdAt', render: (v: string) => dayjs(v).format('MM-DD HH:mm:ss') },
            { title: t('alerts.channels.name'), dataIndex: 'channelName' },
            { title: t('alerts.channels.event'), dataIndex: 'event', render: (v: string, s: ChannelSend) => `${t(`alerts.channels.events.${v}`)}${s.incidentCode ? ` · ${s.incidentCode}` : ''}` },
            { title: t('alerts.channels.outcome'), key: 'outcome', render: (_: unknown, s: ChannelSend) => outcome(s) },
            { title: t('alerts.channels.attempts'), dataIndex: 'attempts', align: 'right' as const },
          ]}
        />
      </Space>
      <Modal open={editing !== null} title={editing === 'new' ? t('alerts.channels.add') : t('common.edit')} onOk={save} onCancel={() => setEditing(null)} okText={t('common.save')} cancelText={t('common.cancel')} okButtonProps={{ 'data-testid': 'channel-save' } as never} forceRender>
        <Form form={form} layout="vertical" name="channel">
          <Form.Item name="kind" label={t('alerts.channels.kind')} rules={[{ required: true }]}>
            <Select data-testid="channel-kind" options={CHANNEL_KINDS.map((k) => ({ value: k, label: t(`alerts.channels.kinds.${k}`) }))} />
          </Form.Item>
          <Form.Item name="name" label={t('alerts.channels.name')} rules={[{ required: true, whitespace: true, message: `${t('alerts.form.required')}: ${t('alerts.channels.name')}` }]}>
            <Input maxLength={60} data-testid="channel-name" />
          </Form.Item>
          {kind !== 'email' ? (
            <>
              <Form.Item
                name="webhook"
                label={t('alerts.channels.webhook')}
                extra={editing !== 'new' && editing?.webhook ? t('alerts.channels.webhookKept', { webhook: editing.webhook }) : t(`alerts.channels.webhookHint.${kind ?? 'dingtalk'}`)}
                rules={editing === 'new' ? [{ required: true, message: `${t('alerts.form.required')}: ${t('alerts.channels.webhook')}` }] : undefined}
              >
                <Input maxLength={500} data-testid="channel-webhook" />
              </Form.Item>
              {kind === 'dingtalk' && (
                <Form.Item name="secret" label={t('alerts.channels.secret')} extra={editing !== 'new' && editing?.hasSecret ? t('alerts.channels.secretKept') : t('alerts.channels.secretHint')}>
                  <Input.Password maxLength={200} autoComplete="new-password" data-testid="channel-secret" />
                </Form.Item>
              )}
            </>
          ) : (
            <Form.Item name="recipients" label={t('alerts.channels.recipients')} rules={[{ required: true, message: `${t('alerts.form.required')}: ${t('alerts.channels.recipients')}` }]}>
              <Select mode="tags" tokenSeparators={[',', ';', ' ']} open={false} data-testid="channel-recipients" />
            </Form.Item>
          )}
          <Form.Item name="levels" label={t('alerts.channels.levels')} rules={[{ required: true, message: `${t('alerts.form.required')}: ${t('alerts.channels.levels')}` }]}>
            <Checkbox.Group options={RISK_LEVELS.map((l) => ({ value: l, label: t(`alerts.levelName.${l}`) }))} />
          </Form.Item>
          <Form.Item name="reports" label={t('alerts.channels.reports')} valuePropName="checked" extra={t('alerts.channels.reportsHint')}>
            <Switch data-testid="channel-reports" />
          </Form.Item>
          <Form.Item name="enabled" label={t('alerts.channels.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Modal>
  );
}
