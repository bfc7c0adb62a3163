import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { toLanguage, type Language } from '@console/contract';
import { localStore, STORAGE_KEYS } from '../utils/storage.ts';
import zhCN from './zh-CN.ts';
import enUS from './en-US.ts';

/** Stored choice first; otherwise the browser's language (zh* -> zh-CN, anything else en-US). */
export function initialLanguage(): Language {
  const stored = localStore.get<string>(STORAGE_KEYS.language);
  if (stored === 'zh-CN' || stored === 'en-US') return stored;
  return toLanguage(navigator.language);
}

const DAYJS_LOCALES: Record<Language, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: initialLanguage(),
  fallbackLng: 'en-US',
  interpolation: { escapeValue: false },
});

function applyLanguage(lang: Language) {
  document.documentElement.lang = lang;
  dayjs.locale(DAYJS_LOCALES[lang]);
}
applyLanguage(i18n.language as Language);

/** Switches the language everywhere and keeps the choice in app_language. */
export function setLanguage(lang: Language) {
  localStore.set(STORAGE_KEYS.language, lang);
  applyLanguage(lang);
  void i18n.changeLanguage(lang);
}

export const currentLanguage = () => i18n.language as Language;

export default i18n;
