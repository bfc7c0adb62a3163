import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Modal, Popconfirm, Select, Space, Table, Typography, message } from 'antd';
import { ApiOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { PERSONAL_TOKEN_DAYS, type PersonalTokenCreate, type PersonalTokenItem } from '@console/contract';
import { openDataApi } from '../../api/openData.ts';
import { errorMessage } from '../../api/http.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';

await loadNamespace('openData', { 'zh-CN': () => import('../../locales/openData/zh-CN.ts'), 'en-US': () => import('../../locales/openData/en-US.ts') });

const time = (at: string | null) => (at ? dayjs(at).format('YYYY-MM-DD HH:mm') : '-');

/** The user's account: who they are, their personal access tokens, and how a desktop GIS connects with one. */
export default function AccountPage() {
  const { t } = useTranslation();
  const info = useSession((s) => s.info);
  const enterprises = useSession((s) => s.enterprises) ?? [];
  const currentEnterprise = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: ['openData', 'tokens'], queryFn: openDataApi.tokens });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const origin = window.location.origin;

  const revoke = async (item: PersonalTokenItem) => {
    try {
      await openDataApi.revoke(item.id);
      message.success(t('openData.revoked'));
      void queryClient.invalidateQueries({ queryKey: ['openData', 'tokens'] });
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  const code = (text: string) => (
    <Typography.Paragraph copyable={{ text }} code style={{ marginBottom: 8, wordBreak: 'break-all' }}>
      {text}
    </Typography.Paragraph>
  );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="account-page">
      <Card title={t('openData.profile')}>
        <Descriptions size="small" column={{ xs: 1, sm: 3 }}>
          <Descriptions.Item label={t('openData.username')}>{info?.username ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('openData.realname')}>{info?.realname ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('openData.enterprises')}>{enterprises.map((e) => e.enterpriseName).join('、') || '-'}</Descriptions.Item>
        </Descriptions>
      </Card>

      <Card
        title={
          <Space>
            <KeyOutlined />
            {t('openData.tokens')}
          </Space>
        }
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} disabled={!enterprises.length} data-testid="token-new">
            {t('openData.newToken')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('openData.tokensLead')}</Typography.Paragraph>
        <Table<PersonalTokenItem>
          rowKey="id"
          size="middle"
          loading={tokens.isLoading}
          dataSource={tokens.data?.result ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('openData.empty')} /> }}
          data-testid="token-table"
          columns={[
            { title: t('openData.name'), dataIndex: 'name' },
            { title: t('openData.enterprise'), dataIndex: 'enterpriseName', responsive: ['md'] },
            { title: t('openData.token'), dataIndex: 'prefix', render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text> },
            { title: t('openData.created'), dataIndex: 'createdAt', responsive: ['md'], render: time },
            { title: t('openData.lastUsed'), dataIndex: 'lastUsedAt', responsive: ['md'], render: (v: string | null) => (v ? time(v) : <Typography.Text type="secondary">{t('openData.neverUsed')}</Typography.Text>) },
            { title: t('openData.expires'), dataIndex: 'expiresAt', render: (v: string | null) => (v ? time(v) : t('openData.never')) },
            {
              title: '',
              key: 'revoke',
              align: 'right',
              render: (_, item) => (
                <Popconfirm title={t('openData.revokeConfirm', { name: item.name })} okText={t('openData.revoke')} cancelText={t('common.cancel')} onConfirm={() => revoke(item)} okButtonProps={{ danger: true }}>
                  <Button danger size="small" data-testid={`token-revoke-${item.id}`}>
                    {t('openData.revoke')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>

      <Card
        title={
          <Space>
            <ApiOutlined />
            {t('openData.connect')}
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">{t('openData.connectLead')}</Typography.Paragraph>
        <Typography.Text strong>{t('openData.qgisFeatures')}</Typography.Text>
        {code(`${origin}/api/ogc?key=${t('openData.yourToken')}`)}
        <Typography.Text strong>{t('openData.qgisTiles')}</Typography.Text>
        {code(`${origin}/api/tiles/pipes/3857/{z}/{x}/{y}.pbf?key=${t('openData.yourToken')}`)}
        {code(`${origin}/api/tiles/pipes/style.json?key=${t('openData.yourToken')}`)}
        <Typography.Text strong>{t('openData.gdal')}</Typography.Text>
        {code(`ogrinfo --config GDAL_HTTP_HEADERS "Authorization: Bearer ${t('openData.yourToken')}" OAPIF:${origin}/api/ogc`)}
        <Descriptions size="small" column={1} title={t('openData.services')} style={{ marginTop: 8 }}>
          <Descriptions.Item label={t('openData.featuresUrl')}>{`${origin}/api/ogc`}</Descriptions.Item>
          <Descriptions.Item label={t('openData.pipesTileJson')}>{`${origin}/api/tiles/pipes.json`}</Descriptions.Item>
          <Descriptions.Item label={t('openData.pipesStyle')}>{`${origin}/api/tiles/pipes/style.json`}</Descriptions.Item>
          <Descriptions.Item label={t('openData.basemapStyle')}>{`${origin}/api/tiles/basemap/style.json`}</Descriptions.Item>
        </Descriptions>
      </Card>

      <NewTokenModal
        open={creating}
        defaultEnterprise={currentEnterprise ?? enterprises[0]?.id}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
          void queryClient.invalidateQueries({ queryKey: ['openData', 'tokens'] });
        }}
      />
      <Modal
        open={created !== null}
        title={t('openData.createdTitle')}
        closable={false}
        maskClosable={false}
        footer={
          <Button type="primary" onClick={() => setCreated(null)} data-testid="token-done">
            {t('openData.done')}
          </Button>
        }
      >
        <Alert type="warning" showIcon message={t('openData.createdWarning')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable={{ text: created ?? '', tooltips: [t('openData.copy'), t('openData.copied')] }} code data-testid="token-created" style={{ wordBreak: 'break-all' }}>
          {created}
        </Typography.Paragraph>
      </Modal>
    </Space>
  );
}

function NewTokenModal({ open, defaultEnterprise, onClose, onCreated }: { open: boolean; defaultEnterprise: number | undefined; onClose: () => void; onCreated: (token: string) => void }) {
  const { t } = useTranslation();
  const enterprises = useSession((s) => s.enterprises) ?? [];
  const allowClick = useClickGuard();
  const [form] = Form.useForm<PersonalTokenCreate>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = await form.validateFields();
    // Guarded once the form is good: a click that only showed what is missing does not hold the next one back.
    if (!allowClick()) return;
    setSaving(true);
    try {
      onCreated((await openDataApi.create(values)).result.token);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={open} title={t('openData.newToken')} onOk={save} onCancel={onClose} okText={t('common.ok')} cancelText={t('common.cancel')} confirmLoading={saving} destroyOnHidden>
      <Form form={form} layout="vertical" name="new-token" initialValues={{ enterpriseId: defaultEnterprise, days: 90 }}>
        <Form.Item name="name" label={t('openData.name')} rules={[{ required: true, whitespace: true, message: t('openData.nameRequired') }, { max: 60 }]}>
          <Input placeholder={t('openData.namePlaceholder')} maxLength={60} data-testid="token-name" />
        </Form.Item>
        <Form.Item name="enterpriseId" label={t('openData.enterprise')} rules={[{ required: true }]}>
          <Select options={enterprises.map((e) => ({ value: e.id, label: e.enterpriseName }))} />
        </Form.Item>
        <Form.Item name="days" label={t('openData.expires')}>
          <Select options={PERSONAL_TOKEN_DAYS.map((days) => ({ value: days, label: days ? t('openData.days', { count: days }) : t('openData.never') }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
