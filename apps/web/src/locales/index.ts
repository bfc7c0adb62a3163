import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { toLanguage, type Language } from '@console/contract';
import { localStore, STORAGE_KEYS } from '../utils/storage.ts';
import type { Messages } from './en-US.ts';

/** Stored choice first; otherwise the browser's language (zh* -> zh-CN, anything else en-US). */
export function initialLanguage(): Language {
  const stored = localStore.get<string>(STORAGE_KEYS.language);
  if (stored === 'zh-CN' || stored === 'en-US') return stored;
  return toLanguage(navigator.language);
}

const DAYJS_LOCALES: Record<Language, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

/** Each language's messages are a chunk of their own: a page loads only the language it shows. */
const MESSAGES: Record<Language, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('./zh-CN.ts'),
  'en-US': () => import('./en-US.ts'),
};

async function loadMessages(lang: Language) {
  if (!i18n.hasResourceBundle(lang, 'translation')) i18n.addResourceBundle(lang, 'translation', (await MESSAGES[lang]()).default);
  await Promise.all([...namespaces.keys()].map((name) => loadNamespaceIn(lang, name)));
}

type NamespaceLoaders = Record<Language, () => Promise<{ default: object }>>;
/** A domain's messages (keys under its name), loaded with its pages rather than with the sign-in page. */
const namespaces = new Map<string, NamespaceLoaders>();
const loadedNamespaces = new Set<string>();

async function loadNamespaceIn(lang: Language, name: string) {
  if (loadedNamespaces.has(`${lang}:${name}`)) return;
  const messages = (await namespaces.get(name)![lang]()).default;
  i18n.addResourceBundle(lang, 'translation', { [name]: messages }, true, true);
  loadedNamespaces.add(`${lang}:${name}`);
}

/** Loads a domain's messages in the current language (and in any language switched to later). */
export async function loadNamespace(name: string, loaders: NamespaceLoaders) {
  namespaces.set(name, loaders);
  await loadNamespaceIn(i18n.language as Language, name);
}

const firstLanguage = initialLanguage();
void i18n.use(initReactI18next).init({
  resources: {},
  lng: firstLanguage,
  interpolation: { escapeValue: false },
});

/** Settled when the first language's messages are in: the console renders after it. */
export const messagesReady = loadMessages(firstLanguage);

function applyLanguage(lang: Language) {
  document.documentElement.lang = lang;
  dayjs.locale(DAYJS_LOCALES[lang]);
}
applyLanguage(i18n.language as Language);

/** Switches the language everywhere (once its messages are in) and keeps the choice in app_language. */
export async function setLanguage(lang: Language) {
  localStore.set(STORAGE_KEYS.language, lang);
  await loadMessages(lang);
  applyLanguage(lang);
  await i18n.changeLanguage(lang);
}

export const currentLanguage = () => i18n.language as Language;

export default i18n;
