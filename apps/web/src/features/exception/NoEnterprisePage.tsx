import { useNavigate } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';

/** Shown when the user has no verified enterprise: explains and leads to the apply page. */
export default function NoEnterprisePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pendingName = useSession((s) => s.unVerifiedEnterpriseName);
  const isPlatformAdmin = useSession((s) => s.isPlatformAdmin);
  return (
    <div data-testid="no-enterprise">
    <Result
      status="403"
      title={t('exception.noEnterpriseTitle')}
      subTitle={
        <>
          <div>{t('exception.noEnterpriseDescription')}</div>
          {pendingName && <div style={{ marginTop: 8 }}>{t('exception.pendingDescription', { name: pendingName })}</div>}
        </>
      }
      extra={[
        ...(isPlatformAdmin
          ? [
              <Button key="review" type="primary" onClick={() => navigate('/system/enterpriseReview')} data-testid="to-review">
                {t('review.open')}
              </Button>,
            ]
          : []),
        <Button key="apply" type={isPlatformAdmin ? 'default' : 'primary'} onClick={() => navigate('/enterprise/applyEnterprise')} data-testid="to-apply">
          {t('exception.toApply')}
        </Button>,
        <Button
          key="logout"
          onClick={async () => {
            await useSession.getState().logout();
            navigate('/user/login');
          }}
        >
          {t('menu.account.logout')}
        </Button>,
      ]}
    />
    </div>
  );
}
