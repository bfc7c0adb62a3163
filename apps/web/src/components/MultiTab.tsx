import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Dropdown, message, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteMeta } from '../routing/routeMeta.ts';
import { useTabs } from '../stores/tabs.ts';

type TabAction = 'closeCurrent' | 'closeRight' | 'closeLeft' | 'closeAll';

/**
 * Open pages become tabs. Right-click a tab: close it, the tabs to its right or left, or all
 * others (spec section 2 and 8 messages).
 */
export function MultiTab() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const meta = useRouteMeta();
  const { tabs, open, remove } = useTabs();
  const activeKey = location.pathname + location.search;

  useEffect(() => {
    if (meta?.title) open({ key: activeKey, title: meta.title });
  }, [activeKey, meta?.title, open]);

  const closeKeys = (keys: string[]) => {
    const remaining = remove(keys);
    if (keys.includes(activeKey) && remaining.length > 0) {
      const index = tabs.findIndex((tab) => tab.key === activeKey);
      navigate(remaining[Math.min(index, remaining.length - 1)].key);
    }
  };

  const act = (action: TabAction, key: string) => {
    const index = tabs.findIndex((tab) => tab.key === key);
    if (action === 'closeCurrent') {
      if (tabs.length === 1) return void message.info(t('tabs.lastTab'));
      return closeKeys([key]);
    }
    if (action === 'closeLeft') {
      if (index <= 0) return void message.info(t('tabs.noLeft'));
      closeKeys(tabs.slice(0, index).map((tab) => tab.key));
      if (key !== activeKey) navigate(key);
      return;
    }
    if (action === 'closeRight') {
      if (index >= tabs.length - 1) return void message.info(t('tabs.noRight'));
      closeKeys(tabs.slice(index + 1).map((tab) => tab.key));
      if (key !== activeKey) navigate(key);
      return;
    }
    closeKeys(tabs.filter((tab) => tab.key !== key).map((tab) => tab.key));
    if (key !== activeKey) navigate(key);
  };

  const actions: TabAction[] = ['closeCurrent', 'closeRight', 'closeLeft', 'closeAll'];

  return (
    <Tabs
      className="multi-tab"
      data-testid="multi-tab"
      type="editable-card"
      hideAdd
      size="small"
      activeKey={activeKey}
      onChange={(key) => navigate(key)}
      onEdit={(key, action) => action === 'remove' && act('closeCurrent', String(key))}
      tabBarStyle={{ margin: 0 }}
      items={tabs.map((tab) => ({
        key: tab.key,
        closable: true,
        label: (
          <Dropdown
            trigger={['contextMenu']}
            menu={{
              items: actions.map((action) => ({ key: action, label: <span data-testid={`tab-${action}`} data-key={tab.key}>{t(`tabs.${action}`)}</span> })),
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                act(key as TabAction, tab.key);
              },
            }}
          >
            <span data-testid="tab-label" data-key={tab.key} style={{ userSelect: 'none' }}>
              {t(tab.title)}
            </span>
          </Dropdown>
        ),
      }))}
    />
  );
}
