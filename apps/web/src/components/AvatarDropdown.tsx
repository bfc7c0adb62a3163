import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, Dropdown, Modal } from 'antd';
import { AuditOutlined, FileSearchOutlined, InfoCircleOutlined, KeyOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSession } from '../stores/session.ts';
import { later, useOpenedOnce } from './later.tsx';

// The password form (and antd's Form) loads when first asked for, not with every page's header.
const ChangePasswordModal = later(() => import('./ChangePasswordModal.tsx').then((m) => m.ChangePasswordModal));

/** Avatar menu: account settings (access tokens), change password, production introduction, audit trail (enterprise and platform administrators), enterprise review (platform administrators), logout (with confirmation). */
export function AvatarDropdown() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = useSession((s) => s.name || s.info?.realname || '');
  const avatar = useSession((s) => s.avatar);
  const isPlatformAdmin = useSession((s) => s.isPlatformAdmin);
  const role = useSession((s) => s.enterpriseRole);
  const [changing, setChanging] = useState(false);
  const changeOpened = useOpenedOnce(changing);

  const confirmLogout = () =>
    Modal.confirm({
      title: t('header.logoutTitle'),
      content: t('header.logoutContent'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await useSession.getState().logout();
        navigate('/user/login');
      },
    });

  return (
    <>
      <Dropdown
        placement="bottomRight"
        menu={{
          items: [
            { key: 'account', icon: <SettingOutlined />, label: <span data-testid="menu-account">{t('menu.account.settings')}</span> },
            { key: 'password', icon: <KeyOutlined />, label: <span data-testid="menu-change-password">{t('menu.account.changePassword')}</span> },
            { key: 'intro', icon: <InfoCircleOutlined />, label: <span data-testid="menu-intro">{t('menu.productionIntroduction')}</span> },
            ...(isPlatformAdmin || role === 'admin' ? [{ key: 'audit', icon: <FileSearchOutlined />, label: <span data-testid="menu-audit">{t('menu.audit')}</span> }] : []),
            ...(isPlatformAdmin ? [{ key: 'review', icon: <AuditOutlined />, label: <span data-testid="menu-review">{t('menu.enterpriseReview')}</span> }] : []),
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="menu-logout">{t('menu.account.logout')}</span> },
          ],
          onClick: ({ key }) => {
            if (key === 'account') navigate('/system/account');
            if (key === 'password') setChanging(true);
            if (key === 'intro') navigate('/system/productionIntroduction');
            if (key === 'review') navigate('/system/enterpriseReview');
            if (key === 'audit') navigate('/system/audit');
            if (key === 'logout') confirmLogout();
          },
        }}
      >
        <span data-testid="avatar-menu" style={{ cursor: 'pointer', padding: '0 8px', display: 'inline-flex', alignItems: 'center', gap: 8 }}>
          <Avatar size="small" src={avatar || undefined} icon={<UserOutlined />} />
          <span data-testid="header-realname">{name}</span>
        </span>
      </Dropdown>
      {changeOpened && <ChangePasswordModal open={changing} onClose={() => setChanging(false)} />}
    </>
  );
}
