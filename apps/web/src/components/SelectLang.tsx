import { useEffect, useRef, useState } from 'react';
import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Language } from '@console/contract';
import { setLanguage } from '../locales/index.ts';

const LABELS: Record<Language, string> = { 'zh-CN': '简体中文', 'en-US': 'English' };
const FLAGS: Record<Language, string> = { 'zh-CN': '🇨🇳', 'en-US': '🇺🇸' };

/**
 * The language selector of the header and the login layout: two entries under the globe, opened
 * by hover or click. Drawn here rather than with antd's Dropdown or Popover, whose menu and
 * positioning code would be a large share of what the sign-in page loads.
 */
export function SelectLang({ className }: { className?: string }) {
  const { i18n, t } = useTranslation();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Opened by a click, it stays open when the pointer leaves; a click on a menu hover opened keeps
  // it open (a mouse user who clicks first must not close what the hover just showed).
  const pinned = useRef(false);
  const show = () => {
    clearTimeout(closeTimer.current);
    setOpen(true);
  };
  const hide = () => {
    clearTimeout(closeTimer.current);
    if (!pinned.current) closeTimer.current = setTimeout(() => setOpen(false), 150);
  };
  const close = () => {
    pinned.current = false;
    setOpen(false);
  };
  const click = () => {
    clearTimeout(closeTimer.current);
    if (open && !pinned.current) pinned.current = true;
    else if (open) close();
    else {
      pinned.current = true;
      setOpen(true);
    }
  };
  // A click or Escape anywhere else closes it.
  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => !root.current?.contains(e.target as Node) && close();
    const escape = (e: KeyboardEvent) => e.key === 'Escape' && close();
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  const choose = (lang: Language) => {
    close();
    void setLanguage(lang);
  };
  const list = (
    <ul className="select-lang-list" role="menu">
      {(Object.keys(LABELS) as Language[]).map((lang) => (
        <li
          key={lang}
          role="menuitemradio"
          aria-checked={i18n.language === lang}
          tabIndex={0}
          className={i18n.language === lang ? 'select-lang-item select-lang-item-selected' : 'select-lang-item'}
          onClick={() => choose(lang)}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && choose(lang)}
          data-testid={`lang-${lang}`}
        >
          <span>
            {FLAGS[lang]} {LABELS[lang]}
          </span>
          {i18n.language === lang && <CheckOutlined />}
        </li>
      ))}
    </ul>
  );
  return (
    // The header styles its actions' outer element: the padding lives there, as on other actions.
    <span ref={root} className="select-lang" style={{ padding: '0 8px' }} onMouseEnter={show} onMouseLeave={hide}>
      <span
        className={className}
        role="button"
        tabIndex={0}
        aria-haspopup="menu"
        aria-expanded={open}
        // The accessible name holds the visible text (WCAG 2.5.3), then what the button is for.
        aria-label={`${LABELS[i18n.language as Language]} (${t('header.language')})`}
        data-testid="select-lang"
        style={{ cursor: 'pointer' }}
        onClick={click}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          if (open) close();
          else {
            pinned.current = true;
            setOpen(true);
          }
        }}
      >
        <GlobalOutlined /> <span className="select-lang-label">{LABELS[i18n.language as Language]}</span>
      </span>
      {open && <div className="select-lang-popup">{list}</div>}
    </span>
  );
}
