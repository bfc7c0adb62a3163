import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Popconfirm, Result, Segmented, Space, Table, Typography } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { errorMessage } from '../../api/http.ts';
import { platformApi, type EnterpriseStatus, type RegisteredEnterprise } from '../../api/platform.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';

const STATUS_COLOR: Record<EnterpriseStatus, string> = { pending: 'gold', verified: 'green', rejected: 'red' };

/** The platform administrator verifies or rejects the enterprises users have registered. */
export default function EnterpriseReviewPage() {
  const { t } = useTranslation();
  const isPlatformAdmin = useSession((s) => s.isPlatformAdmin);
  const [status, setStatus] = useState<EnterpriseStatus | 'all'>('pending');
  const [rejecting, setRejecting] = useState<RegisteredEnterprise | null>(null);
  const [form] = Form.useForm<{ reason?: string }>();
  const allowClick = useClickGuard();
  const list = useQuery({ queryKey: ['platform', 'enterprises', status], queryFn: () => platformApi.enterprises(status), enabled: isPlatformAdmin });
  const after = { invalidate: ['platform', 'enterprises'], success: t('review.done') };
  const verify = useChange((id: number) => platformApi.verify(id), after);
  const reject = useChange(({ id, reason }: { id: number; reason?: string }) => platformApi.reject(id, reason), { ...after, onDone: () => setRejecting(null) });

  if (!isPlatformAdmin) return <Result status="403" title="403" subTitle={t('review.onlyPlatformAdmin')} />;
  if (list.isError) return <Alert type="error" showIcon message={errorMessage(list.error)} />;
  return (
    <Card
      title={t('menu.enterpriseReview')}
      extra={
        <Segmented
          value={status}
          onChange={(value) => setStatus(value as EnterpriseStatus | 'all')}
          options={(['pending', 'verified', 'rejected', 'all'] as const).map((s) => ({ value: s, label: t(`review.status.${s}`) }))}
          data-testid="review-status"
        />
      }
    >
      <Table<RegisteredEnterprise>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        dataSource={list.data?.result ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: 1000 }}
        data-testid="review-table"
        columns={[
          { title: t('enterprise.field.enterpriseName'), dataIndex: 'enterpriseName' },
          { title: t('enterprise.field.creditCode'), dataIndex: 'creditCode', render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
          { title: t('enterprise.field.contact'), dataIndex: 'contact', render: (v: string, e) => `${v} ${e.contactPhone}` },
          { title: t('enterprise.field.address'), dataIndex: 'address', ellipsis: true },
          { title: t('review.registrant'), dataIndex: 'registrant', render: (v: string | null) => v ?? '-' },
          { title: t('review.registeredAt'), dataIndex: 'createdAt', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
          {
            title: t('review.statusTitle'),
            dataIndex: 'status',
            render: (s: EnterpriseStatus, e) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATUS_COLOR[s]}>{t(`review.status.${s}`)}</Tag>
                {e.rejectReason && <Typography.Text type="secondary">{e.rejectReason}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, e) =>
              e.status === 'pending' && (
                <Space>
                  <Popconfirm title={t('review.verifyConfirm', { name: e.enterpriseName })} onConfirm={() => verify.mutate(e.id)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                    <Button type="link" size="small" data-testid={`verify-${e.id}`}>
                      {t('review.verify')}
                    </Button>
                  </Popconfirm>
                  <Button
                    type="link"
                    danger
                    size="small"
                    onClick={() => {
                      form.resetFields();
                      setRejecting(e);
                    }}
                    data-testid={`reject-${e.id}`}
                  >
                    {t('review.reject')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      <Modal
        open={rejecting !== null}
        title={t('review.rejectTitle', { name: rejecting?.enterpriseName ?? '' })}
        okText={t('review.reject')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        confirmLoading={reject.isPending}
        onCancel={() => setRejecting(null)}
        onOk={async () => {
          if (!allowClick()) return;
          const { reason } = await form.validateFields();
          reject.mutate({ id: rejecting!.id, reason: reason?.trim() || undefined });
        }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" name="reject">
          <Form.Item name="reason" label={t('review.reason')} extra={t('review.reasonHint')}>
            <Input.TextArea rows={3} maxLength={500} data-testid="reject-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
