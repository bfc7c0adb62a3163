import { Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Language } from '@console/contract';
import { setLanguage } from '../locales/index.ts';

const LABELS: Record<Language, string> = { 'zh-CN': '简体中文', 'en-US': 'English' };
const FLAGS: Record<Language, string> = { 'zh-CN': '🇨🇳', 'en-US': '🇺🇸' };

/** The language selector of the header and the login layout. */
export function SelectLang({ className }: { className?: string }) {
  const { i18n, t } = useTranslation();
  return (
    <Dropdown
      menu={{
        selectedKeys: [i18n.language],
        items: (Object.keys(LABELS) as Language[]).map((lang) => ({
          key: lang,
          label: (
            <span data-testid={`lang-${lang}`}>
              {FLAGS[lang]} {LABELS[lang]}
            </span>
          ),
        })),
        onClick: ({ key }) => setLanguage(key as Language),
      }}
      placement="bottomRight"
    >
      <span className={className} role="button" aria-label={t('header.language')} data-testid="select-lang" style={{ cursor: 'pointer', padding: '0 8px' }}>
        <GlobalOutlined /> <span className="select-lang-label">{LABELS[i18n.language as Language]}</span>
      </span>
    </Dropdown>
  );
}
