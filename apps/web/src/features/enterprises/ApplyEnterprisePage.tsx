import { useState } from 'react';
import { Alert, Card, Empty, Form, Input, List, message, Result, Table, Tabs } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { EnterpriseProfileInput } from '@console/contract';
import { enterpriseApi, type Application } from '../../api/enterprises.ts';
import { errorMessage } from '../../api/http.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import { EnterpriseProfileFields } from './enterpriseFields.tsx';

const STATUS_COLOR = { pending: 'gold', active: 'green', rejected: 'red' } as const;

function JoinEnterprise() {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const results = useQuery({ queryKey: ['enterprise-search', name], queryFn: () => enterpriseApi.search(name), enabled: name.length > 0 });
  const apply = useChange((id: number) => enterpriseApi.apply(id), { invalidate: ['my-applications'] });
  return (
    <>
      <Alert type="info" showIcon message={t('enterprise.apply.searchHint')} style={{ marginBottom: 16 }} />
      <Input.Search placeholder={t('enterprise.apply.searchPlaceholder')} enterButton={t('common.search')} onSearch={(v) => setName(v.trim())} allowClear data-testid="apply-search" />
      {name && (
        <List
          style={{ marginTop: 16 }}
          loading={results.isLoading}
          locale={{ emptyText: <Empty description={t('enterprise.apply.noResult')} /> }}
          dataSource={results.data?.result ?? []}
          renderItem={(e) => (
            <List.Item
              actions={[
                <GuardedButton key="apply" type="primary" size="small" loading={apply.isPending && apply.variables === e.id} onClick={() => apply.mutate(e.id)} data-testid={`apply-${e.id}`}>
                  {t('enterprise.apply.apply')}
                </GuardedButton>,
              ]}
            >
              <List.Item.Meta title={e.enterpriseName} description={e.address} />
            </List.Item>
          )}
        />
      )}
    </>
  );
}

function RegisterEnterprise() {
  const { t } = useTranslation();
  const [form] = Form.useForm<EnterpriseProfileInput>();
  const [done, setDone] = useState<string | null>(null);
  const register = useMutation({
    mutationFn: enterpriseApi.register,
    onSuccess: async (response) => {
      setDone(response.result.enterpriseName);
      await useSession.getState().loadEnterprises();
    },
    onError: (error) => message.error(errorMessage(error)),
  });
  if (done)
    return (
      <div data-testid="register-enterprise-done">
        <Result status="success" title={done} subTitle={t('enterprise.apply.registered')} />
      </div>
    );
  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 560 }} onFinish={(values) => register.mutate(values)}>
      <EnterpriseProfileFields />
      <GuardedButton type="primary" htmlType="submit" loading={register.isPending} data-testid="register-enterprise-submit">
        {t('common.submit')}
      </GuardedButton>
    </Form>
  );
}

function MyApplications() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['my-applications'], queryFn: enterpriseApi.applications });
  return (
    <Table<Application>
      rowKey="id"
      loading={list.isLoading}
      dataSource={list.data?.result ?? []}
      pagination={false}
      columns={[
        { title: t('enterprise.field.enterpriseName'), dataIndex: 'enterpriseName' },
        { title: t('enterprise.field.status'), dataIndex: 'status', render: (s: Application['status']) => <Tag color={STATUS_COLOR[s]}>{t(`enterprise.apply.status.${s}`)}</Tag> },
        { title: t('enterprise.apply.appliedAt'), dataIndex: 'createdAt', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
        { title: t('enterprise.apply.decidedAt'), dataIndex: 'decidedAt', render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '-') },
      ]}
    />
  );
}

/** Apply to join an enterprise or register a new one. */
export default function ApplyEnterprisePage() {
  const { t } = useTranslation();
  return (
    <Card title={t('enterprise.apply.title')} data-testid="apply-page">
      <Tabs
        items={[
          { key: 'join', label: t('enterprise.apply.joinTab'), children: <JoinEnterprise /> },
          { key: 'register', label: t('enterprise.apply.registerTab'), children: <RegisterEnterprise /> },
          { key: 'mine', label: t('enterprise.apply.mineTab'), children: <MyApplications /> },
        ]}
      />
    </Card>
  );
}
