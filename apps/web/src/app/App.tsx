import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import { useTranslation } from 'react-i18next';
import { PRIMARY_COLORS, useSettings } from '../stores/settings.ts';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

/**
 * antd's grey texts (secondary, descriptions, tertiary) at 45 % black read 3.4:1 on white, below
 * WCAG AA's 4.5:1: darker greys that still read as secondary.
 */
const READABLE_TEXT = { colorTextSecondary: 'rgba(0, 0, 0, 0.62)', colorTextDescription: 'rgba(0, 0, 0, 0.62)', colorTextTertiary: 'rgba(0, 0, 0, 0.6)', colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)' };
/** antd's red (#ff4d4f, 3.3:1 on white) is the text of every Delete link and danger button: a red at 5.6:1. */
const READABLE_ERROR = { colorError: '#cf1322' };

export function App() {
  const { i18n } = useTranslation();
  const primaryColor = useSettings((s) => PRIMARY_COLORS[s.primaryColor]);
  const weak = useSettings((s) => s.weak);
  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', weak);
  }, [weak]);
  // Plain links and the few controls drawn without antd take the primary colour from here.
  useEffect(() => {
    document.documentElement.style.setProperty('--console-primary', primaryColor);
  }, [primaryColor]);
  const locale = i18n.language === 'zh-CN' ? zhCN : enUS;
  const theme = { token: { colorPrimary: primaryColor, colorLink: primaryColor, ...READABLE_TEXT, ...READABLE_ERROR } };
  // Notices and messages opened by antd's static methods render outside this tree: they get the same theme and language.
  useEffect(() => {
    ConfigProvider.config({ holderRender: (children) => <ConfigProvider locale={locale} theme={theme}>{children}</ConfigProvider> });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale, primaryColor]);
  return (
    <ConfigProvider locale={locale} theme={theme}>
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}
