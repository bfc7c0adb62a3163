import { Button, Divider, Drawer, List, Radio, Select, Switch, Tooltip } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Language } from '@console/contract';
import { setLanguage } from '../locales/index.ts';
import { PRIMARY_COLORS, useSettings, type PrimaryColorName } from '../stores/settings.ts';

/**
 * Page settings, kept in localStorage: menu theme, primary colour, navigation mode, content
 * width, fixed header and sidebar, auto-hiding header, weak colour mode, multi-tab, language.
 */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const s = useSettings();
  const row = (key: string, title: string, action: React.ReactNode, disabled?: string) => (
    <List.Item key={key} actions={[action]}>
      <Tooltip title={disabled}>
        <span style={{ opacity: disabled ? 0.5 : 1 }}>{title}</span>
      </Tooltip>
    </List.Item>
  );
  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} width={320} data-testid="settings-drawer">
      <h4>{t('settings.theme')}</h4>
      <Radio.Group value={s.theme} onChange={(e) => s.update({ theme: e.target.value })} data-testid="setting-theme">
        <Radio.Button value="dark">{t('settings.themeDark')}</Radio.Button>
        <Radio.Button value="light">{t('settings.themeLight')}</Radio.Button>
      </Radio.Group>

      <h4 style={{ marginTop: 24 }}>{t('settings.primaryColor')}</h4>
      <div style={{ display: 'flex', gap: 8 }} data-testid="setting-colors">
        {(Object.keys(PRIMARY_COLORS) as PrimaryColorName[]).map((name) => (
          <Tooltip key={name} title={t(`settings.colors.${name}`)}>
            <button
              type="button"
              aria-label={t(`settings.colors.${name}`)}
              data-testid={`color-${name}`}
              onClick={() => s.update({ primaryColor: name })}
              style={{
                width: 22,
                height: 22,
                borderRadius: 4,
                border: 'none',
                cursor: 'pointer',
                background: PRIMARY_COLORS[name],
                color: '#fff',
                padding: 0,
              }}
            >
              {s.primaryColor === name && <CheckOutlined />}
            </button>
          </Tooltip>
        ))}
      </div>

      <Divider />
      <h4>{t('settings.layout')}</h4>
      <Radio.Group value={s.layout} onChange={(e) => s.update({ layout: e.target.value })} data-testid="setting-layout">
        <Radio.Button value="sidemenu">{t('settings.sidemenu')}</Radio.Button>
        <Radio.Button value="topmenu">{t('settings.topmenu')}</Radio.Button>
      </Radio.Group>
      <List split={false} style={{ marginTop: 12 }}>
        {row(
          'contentWidth',
          t('settings.contentWidth'),
          <Select
            size="small"
            aria-label={t('settings.contentWidth')}
            style={{ width: 90 }}
            value={s.contentWidth}
            onChange={(contentWidth) => s.update({ contentWidth })}
            data-testid="setting-content-width"
            options={[
              { value: 'Fixed', label: t('settings.fixed'), disabled: s.layout === 'sidemenu' },
              { value: 'Fluid', label: t('settings.fluid') },
            ]}
          />,
          s.layout === 'sidemenu' ? t('settings.fixedWidthTopOnly') : undefined,
        )}
        {row('fixedHeader', t('settings.fixedHeader'), <Switch size="small" checked={s.fixedHeader} onChange={(fixedHeader) => s.update({ fixedHeader })} data-testid="setting-fixed-header" />)}
        {row(
          'autoHideHeader',
          t('settings.autoHideHeader'),
          <Switch size="small" disabled={!s.fixedHeader} checked={s.autoHideHeader} onChange={(autoHideHeader) => s.update({ autoHideHeader })} data-testid="setting-auto-hide" />,
        )}
        {row(
          'fixedSidebar',
          t('settings.fixedSidebar'),
          <Switch size="small" disabled={s.layout === 'topmenu'} checked={s.fixedSidebar} onChange={(fixedSidebar) => s.update({ fixedSidebar })} data-testid="setting-fixed-sidebar" />,
          s.layout === 'topmenu' ? t('settings.fixedSidebarSideOnly') : undefined,
        )}
      </List>

      <Divider />
      <h4>{t('settings.other')}</h4>
      <List split={false}>
        {row('weak', t('settings.weak'), <Switch size="small" checked={s.weak} onChange={(weak) => s.update({ weak })} data-testid="setting-weak" />)}
        {row('multiTab', t('settings.multiTab'), <Switch size="small" checked={s.multiTab} onChange={(multiTab) => s.update({ multiTab })} data-testid="setting-multitab" />)}
        {row(
          'language',
          t('settings.language'),
          <Select
            size="small"
            aria-label={t('settings.language')}
            style={{ width: 110 }}
            value={i18n.language}
            onChange={(lang) => void setLanguage(lang as Language)}
            data-testid="setting-language"
            options={[
              { value: 'zh-CN', label: '简体中文' },
              { value: 'en-US', label: 'English' },
            ]}
          />,
        )}
      </List>
      <Divider />
      <Button block onClick={s.reset} data-testid="setting-reset">
        {t('settings.reset')}
      </Button>
    </Drawer>
  );
}
