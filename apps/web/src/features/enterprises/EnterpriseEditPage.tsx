import { useEffect } from 'react';
import { Alert, Card, Descriptions, Form, Skeleton } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EnterpriseProfileInput } from '@console/contract';
import { enterpriseApi } from '../../api/enterprises.ts';
import { errorMessage } from '../../api/http.ts';
import { useActionVisible } from '../../components/Authorized.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { useChange } from '../../components/useChange.ts';
import { useSession } from '../../stores/session.ts';
import { EnterpriseProfileFields } from './enterpriseFields.tsx';
import { MapSettingsForm } from './MapSettingsForm.tsx';

/** The current enterprise's profile: everyone reads it, those allowed to edit change it. */
export default function EnterpriseEditPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canEdit = useActionVisible('edit');
  const [form] = Form.useForm<EnterpriseProfileInput>();
  const profile = useQuery({ queryKey: ['enterprise', enterpriseID, 'info'], queryFn: enterpriseApi.info });
  const data = profile.data?.result;
  useEffect(() => {
    if (data) form.setFieldsValue({ ...data, description: data.description ?? undefined });
  }, [data, form]);
  // A new name shows in the header too: the enterprise list is loaded again.
  const save = useChange(enterpriseApi.updateInfo, { invalidate: ['enterprise', enterpriseID], onDone: () => void useSession.getState().loadEnterprises() });

  if (profile.isError) return <Alert type="error" showIcon message={errorMessage(profile.error)} />;
  if (!data) return <Skeleton active />;
  return (
    <>
    <Card title={t('menu.enterpriseEdit')} data-testid="enterprise-profile">
      <Descriptions column={{ xs: 1, md: 2 }} style={{ marginBottom: 24 }}>
        <Descriptions.Item label={t('enterprise.field.enterpriseName')}>
          <span data-testid="profile-name">{data.enterpriseName}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('enterprise.field.status')}>
          <Tag color="green">{t(`enterprise.apply.status.${data.status}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('enterprise.field.creditCode')}>{data.creditCode}</Descriptions.Item>
        <Descriptions.Item label={t('enterprise.field.contact')}>
          {data.contact} {data.contactPhone}
        </Descriptions.Item>
        <Descriptions.Item label={t('enterprise.field.address')}>{data.address}</Descriptions.Item>
      </Descriptions>
      {canEdit && (
        <Form form={form} layout="vertical" style={{ maxWidth: 560 }} onFinish={(values) => save.mutate(values)} data-testid="profile-form">
          <EnterpriseProfileFields />
          <GuardedButton type="primary" htmlType="submit" loading={save.isPending} data-testid="profile-save">
            {t('common.save')}
          </GuardedButton>
        </Form>
      )}
    </Card>
    {/* Map settings are the admins' (edit on the enterprise). */}
    {canEdit && <MapSettingsForm />}
    </>
  );
}
