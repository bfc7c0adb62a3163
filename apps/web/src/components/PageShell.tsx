import type { ReactNode } from 'react';
import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteMeta } from '../routing/routeMeta.ts';
import { useSession } from '../stores/session.ts';

/**
 * The frame of a domain screen: its title, what it is for, and the context it works in (current
 * enterprise, role, project). Domain content goes in `children`.
 */
export function PageShell({ description, children }: { description: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const meta = useRouteMeta();
  const enterprise = useSession((s) => s.enterprises?.find((e) => e.id === s.enterpriseID));
  const role = useSession((s) => s.enterpriseRole);
  const projectID = useSession((s) => s.projectID);
  return (
    <div data-testid="page-shell">
      <Card style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="page-title">
          {meta?.title ? t(meta.title) : ''}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>
        <Descriptions size="small" column={{ xs: 1, sm: 3 }}>
          <Descriptions.Item label={t('page.currentEnterprise')}>
            <span data-testid="shell-enterprise">{enterprise?.enterpriseName ?? t('page.none')}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('page.currentRole')}>{role ? t(`header.role.${role}`) : t('page.none')}</Descriptions.Item>
          <Descriptions.Item label={t('page.currentProject')}>{projectID ?? t('page.none')}</Descriptions.Item>
        </Descriptions>
      </Card>
      {children ?? (
        <Card>
          <Typography.Text type="secondary">{t('page.shellHint')}</Typography.Text>
        </Card>
      )}
    </div>
  );
}
