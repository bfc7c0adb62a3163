import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { localStore, STORAGE_KEYS } from '../utils/storage.ts';
import type { CrewMessages } from '../locales/crew/en-US.ts';

type Language = 'zh-CN' | 'en-US';

/** The console's stored choice, else the phone's language (zh* is Chinese). */
export const language = (): Language => {
  const stored = localStore.get<string>(STORAGE_KEYS.language);
  if (stored === 'zh-CN' || stored === 'en-US') return stored;
  return /^zh/i.test(navigator.language) ? 'zh-CN' : 'en-US';
};

const MESSAGES: Record<Language, () => Promise<{ default: CrewMessages }>> = {
  'zh-CN': () => import('../locales/crew/zh-CN.ts'),
  'en-US': () => import('../locales/crew/en-US.ts'),
};

/** Only the phone view's messages, in the one language it shows. */
export async function startI18n() {
  const lang = language();
  document.documentElement.lang = lang;
  await i18n.use(initReactI18next).init({ resources: { [lang]: { translation: (await MESSAGES[lang]()).default } }, lng: lang, interpolation: { escapeValue: false } });
}
