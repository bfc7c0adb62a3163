import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PRIMARY_COLORS, useSettings } from '../stores/settings.ts';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

export function App() {
  const { i18n } = useTranslation();
  const primaryColor = useSettings((s) => PRIMARY_COLORS[s.primaryColor]);
  const weak = useSettings((s) => s.weak);
  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', weak);
  }, [weak]);
  return (
    <ConfigProvider locale={i18n.language === 'zh-CN' ? zhCN : enUS} theme={{ token: { colorPrimary: primaryColor } }}>
      <AntdApp>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
