import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Dropdown, Spin } from 'antd';
import { Tag } from './Tag.tsx';
import { BankOutlined, CheckOutlined, DownOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UserEnterprise } from '@console/contract';
import { useSession } from '../stores/session.ts';

/** The spec's header loads this long after it mounts. */
export const ENTERPRISE_HEADER_DELAY_MS = 500;

/** Switching enterprise: on /project/info back to the list, elsewhere the page reloads its data. */
export function useSwitchEnterprise() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  return async (enterprise: UserEnterprise) => {
    const session = useSession.getState();
    session.selectEnterprise(enterprise);
    // Nothing of the previous enterprise may stay on screen or in the cache.
    queryClient.removeQueries();
    try {
      await session.getInfo();
    } catch {
      // The guard handles a failing permission call on the next navigation.
    }
    if (location.pathname === '/project/info') navigate('/project/list');
  };
}

export function EnterpriseDropdown() {
  const { t } = useTranslation();
  const [ready, setReady] = useState(false);
  const enterprises = useSession((s) => s.enterprises);
  const enterpriseID = useSession((s) => s.enterpriseID);
  const switchEnterprise = useSwitchEnterprise();

  useEffect(() => {
    const timer = setTimeout(() => setReady(true), ENTERPRISE_HEADER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  if (!ready || enterprises === null) {
    return (
      <span data-testid="enterprise-header" style={{ padding: '0 8px' }}>
        <Spin size="small" /> {t('header.enterpriseLoading')}
      </span>
    );
  }
  if (enterpriseID === null || enterprises.length === 0) {
    return (
      <span data-testid="enterprise-header" style={{ padding: '0 8px' }}>
        <BankOutlined /> {t('header.notJoined')}
      </span>
    );
  }
  const current = enterprises.find((e) => e.id === enterpriseID) ?? enterprises[0];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [String(current.id)],
        items: enterprises.map((e) => ({
          key: String(e.id),
          label: (
            <span data-testid={`enterprise-option-${e.id}`}>
              {e.enterpriseName} <Tag style={{ marginLeft: 8 }}>{t(`header.role.${e.userType}`)}</Tag>
              {e.id === current.id && <CheckOutlined />}
            </span>
          ),
        })),
        onClick: ({ key }) => {
          const chosen = enterprises.find((e) => String(e.id) === key);
          if (chosen && chosen.id !== current.id) void switchEnterprise(chosen);
        },
      }}
    >
      <span data-testid="enterprise-header" role="button" title={`${current.enterpriseName} · ${t('header.switchEnterprise')}`} style={{ cursor: 'pointer', padding: '0 8px' }}>
        <BankOutlined /> {current.enterpriseName} <DownOutlined style={{ fontSize: 10 }} />
      </span>
    </Dropdown>
  );
}
