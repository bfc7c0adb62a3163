import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import { useTranslation } from 'react-i18next';
import { PRIMARY_COLORS, useSettings } from '../stores/settings.ts';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

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
  return (
    <ConfigProvider locale={i18n.language === 'zh-CN' ? zhCN : enUS} theme={{ token: { colorPrimary: primaryColor } }}>
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}
