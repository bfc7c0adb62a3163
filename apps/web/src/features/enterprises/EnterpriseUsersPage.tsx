import { useState } from 'react';
import { Alert, Badge, Button, Card, Form, Input, Modal, Popconfirm, Select, Space, Table, Tabs, Typography } from 'antd';
import { usePhone } from '../../components/usePhone.ts';
import { Tag } from '../../components/Tag.tsx';
import { UserAddOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { ROLES } from '@console/contract';
import { enterpriseApi, type Member } from '../../api/enterprises.ts';
import { errorMessage } from '../../api/http.ts';
import { useActionVisible } from '../../components/Authorized.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';

const ROLE_COLOR = { admin: 'red', member: 'blue', viewer: 'default' } as const;

/** Members of the current enterprise, their roles, and pending join requests. */
export default function EnterpriseUsersPage() {
  const { t } = useTranslation();
  // On a phone the table is as wide as its key columns (the others are hidden there).
  const phone = usePhone();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canEdit = useActionVisible('edit');
  const canDelete = useActionVisible('delete');
  const members = useQuery({ queryKey: ['enterprise', enterpriseID, 'members'], queryFn: enterpriseApi.members });
  const requests = useQuery({ queryKey: ['enterprise', enterpriseID, 'joinRequests'], queryFn: enterpriseApi.joinRequests });
  const after = { success: t('users.done'), invalidate: ['enterprise', enterpriseID] };
  const changeRole = useChange(({ userId, role }: { userId: number; role: Member['role'] }) => enterpriseApi.changeRole(userId, role), after);
  const remove = useChange((userId: number) => enterpriseApi.removeMember(userId), after);
  const approve = useChange(({ id, role }: { id: number; role: Member['role'] }) => enterpriseApi.approve(id, role), after);
  const reject = useChange((id: number) => enterpriseApi.reject(id), after);
  const canAdd = useActionVisible('add');
  const [inviting, setInviting] = useState(false);
  const [inviteForm] = Form.useForm<{ account: string; role: Member['role'] }>();
  const allowClick = useClickGuard();
  // The server's message names who joined.
  const invite = useChange(({ account, role }: { account: string; role: Member['role'] }) => enterpriseApi.invite(account, role), {
    invalidate: ['enterprise', enterpriseID],
    onDone: () => setInviting(false),
  });
  const submitInvite = async () => {
    if (!allowClick()) return;
    const values = await inviteForm.validateFields();
    invite.mutate(values);
  };

  if (members.isError) return <Alert type="error" showIcon message={errorMessage(members.error)} />;
  const roleOptions = ROLES.map((r) => ({ value: r, label: t(`header.role.${r}`) }));
  const pending = requests.data?.result ?? [];
  return (
    <Card
      title={t('menu.enterpriseUsers')}
      extra={
        canAdd && (
          <Button
            type="primary"
            icon={<UserAddOutlined />}
            onClick={() => {
              inviteForm.resetFields();
              setInviting(true);
            }}
            data-testid="member-invite"
          >
            {t('users.invite')}
          </Button>
        )
      }
    >
      <Modal open={inviting} title={t('users.invite')} onOk={() => void submitInvite()} confirmLoading={invite.isPending} onCancel={() => setInviting(false)} okText={t('users.inviteOk')} cancelText={t('common.cancel')} destroyOnHidden>
        <Form form={inviteForm} layout="vertical" initialValues={{ role: 'member' }} name="invite">
          <Form.Item name="account" label={t('users.account')} extra={t('users.accountHint')} rules={[{ required: true, whitespace: true, message: t('users.accountRequired') }]}>
            <Input maxLength={50} data-testid="invite-account" />
          </Form.Item>
          <Form.Item name="role" label={t('enterprise.members.role')}>
            <Select options={roleOptions} data-testid="invite-role" />
          </Form.Item>
        </Form>
      </Modal>
      <Tabs
        items={[
          {
            key: 'members',
            label: t('users.members'),
            children: (
              <Table<Member>
                data-testid="members-table"
                rowKey="id"
                loading={members.isLoading}
                dataSource={members.data?.result ?? []}
                pagination={false}
                scroll={{ x: phone ? 'max-content' : 700 }}
                columns={[
                  { title: t('enterprise.members.username'), dataIndex: 'username' },
                  { title: t('enterprise.members.realname'), dataIndex: 'realname' },
                  { title: t('enterprise.members.phone'), dataIndex: 'phone', responsive: ['md'] },
                  {
                    title: t('enterprise.members.role'),
                    dataIndex: 'role',
                    render: (role: Member['role'], m) =>
                      canEdit ? (
                        <Select size="small" aria-label={`${t('enterprise.members.role')}: ${m.username}`} value={role} options={roleOptions} style={{ width: 120 }} onChange={(next) => changeRole.mutate({ userId: m.userId, role: next })} data-testid={`role-${m.username}`} />
                      ) : (
                        <Tag color={ROLE_COLOR[role]}>{t(`header.role.${role}`)}</Tag>
                      ),
                  },
                  { title: t('enterprise.members.joinedAt'), dataIndex: 'createdAt', responsive: ['md'], render: (v: string) => dayjs(v).format('YYYY-MM-DD') },
                  ...(canDelete
                    ? [
                        {
                          title: t('common.actions'),
                          render: (_: unknown, m: Member) => (
                            <Popconfirm title={t('users.removeConfirm', { name: m.realname })} onConfirm={() => remove.mutate(m.userId)} okText={t('common.ok')} cancelText={t('common.cancel')}>
                              <Typography.Link type="danger" data-testid={`remove-${m.username}`}>
                                {t('users.remove')}
                              </Typography.Link>
                            </Popconfirm>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            ),
          },
          {
            key: 'requests',
            label: (
              <Space>
                {t('users.requests')}
                <Badge count={pending.length} size="small" />
              </Space>
            ),
            children: (
              <Table<Member>
                data-testid="requests-table"
                rowKey="id"
                loading={requests.isLoading}
                dataSource={pending}
                pagination={false}
                locale={{ emptyText: t('users.noRequests') }}
                columns={[
                  { title: t('enterprise.members.username'), dataIndex: 'username' },
                  { title: t('enterprise.members.realname'), dataIndex: 'realname' },
                  { title: t('users.message'), dataIndex: 'message', responsive: ['md'] },
                  { title: t('enterprise.apply.appliedAt'), dataIndex: 'createdAt', responsive: ['md'], render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
                  ...(canEdit
                    ? [
                        {
                          title: t('common.actions'),
                          render: (_: unknown, r: Member) => (
                            <Space>
                              <Typography.Link onClick={() => approve.mutate({ id: r.id, role: 'member' })} data-testid={`approve-${r.username}`}>
                                {t('users.approveMember')}
                              </Typography.Link>
                              <Typography.Link onClick={() => approve.mutate({ id: r.id, role: 'viewer' })}>{t('users.approveViewer')}</Typography.Link>
                              <Typography.Link type="danger" onClick={() => reject.mutate(r.id)} data-testid={`reject-${r.username}`}>
                                {t('users.reject')}
                              </Typography.Link>
                            </Space>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
