import { useState } from 'react';
import { Modal, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api/auth.ts';

type Dialog = 'notice' | 'about' | 'contact';

/** Links to user notice, about and contact (each a dialog with its text) and the ICP filing number. */
export function GlobalFooter() {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const settings = useQuery({ queryKey: ['public-settings'], queryFn: authApi.settings, staleTime: Infinity });
  const links: Dialog[] = ['notice', 'about', 'contact'];
  return (
    <footer data-testid="global-footer" style={{ textAlign: 'center', padding: '16px 0 24px', color: 'rgba(0,0,0,0.62)' }}>
      <Space split="|" wrap style={{ justifyContent: 'center' }}>
        {links.map((key) => (
          <Typography.Link key={key} data-testid={`footer-${key}`} onClick={() => setDialog(key)} style={{ color: 'inherit' }}>
            {t(`footer.${key}`)}
          </Typography.Link>
        ))}
      </Space>
      <div style={{ marginTop: 8 }}>
        <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer" data-testid="footer-icp" style={{ color: 'inherit' }}>
          {settings.data?.result.icpNumber ?? ''}
        </a>
        <span style={{ marginLeft: 12 }}>© {new Date().getFullYear()} {t('app.title')}</span>
      </div>
      <Modal open={dialog !== null} title={dialog ? t(`footer.${dialog}`) : ''} footer={null} onCancel={() => setDialog(null)}>
        <Typography.Paragraph data-testid="footer-dialog-text">{dialog ? t(`footer.${dialog}Text`) : ''}</Typography.Paragraph>
      </Modal>
    </footer>
  );
}
