import { Alert, Card, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { enterpriseApi, type Member } from '../../api/enterprises.ts';
import { errorMessage } from '../../api/http.ts';
import { useSession } from '../../stores/session.ts';

const ROLE_COLOR = { admin: 'red', member: 'blue', viewer: 'default' } as const;

/** Members of the current enterprise and their roles. */
export default function EnterpriseUsersPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const members = useQuery({ queryKey: ['enterprise', enterpriseID, 'members'], queryFn: enterpriseApi.members });
  if (members.isError) return <Alert type="error" showIcon message={errorMessage(members.error)} />;
  return (
    <Card title={t('menu.enterpriseUsers')}>
      <Table<Member>
        data-testid="members-table"
        rowKey="id"
        loading={members.isLoading}
        dataSource={members.data?.result ?? []}
        pagination={false}
        scroll={{ x: 600 }}
        columns={[
          { title: t('enterprise.members.username'), dataIndex: 'username' },
          { title: t('enterprise.members.realname'), dataIndex: 'realname' },
          { title: t('enterprise.members.phone'), dataIndex: 'phone' },
          { title: t('enterprise.members.role'), dataIndex: 'role', render: (role: Member['role']) => <Tag color={ROLE_COLOR[role]}>{t(`header.role.${role}`)}</Tag> },
          { title: t('enterprise.members.joinedAt'), dataIndex: 'createdAt', render: (v: string) => dayjs(v).format('YYYY-MM-DD') },
        ]}
      />
    </Card>
  );
}
