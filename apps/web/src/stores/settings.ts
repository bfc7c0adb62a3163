import { create } from 'zustand';
import { localStore, STORAGE_KEYS } from '../utils/storage.ts';

/** The spec's eight primary colours. */
export const PRIMARY_COLORS = {
  // Daybreak blue a shade darker: white on it and it on white read at 4.5:1 or more (WCAG AA); #1890FF gave 3.2:1.
  default: '#0958D9',
  red: '#F5222D',
  volcano: '#FA541C',
  gold: '#FAAD14',
  cyan: '#13C2C2',
  green: '#52C41A',
  geekblue: '#2F54EB',
  purple: '#722ED1',
} as const;
export type PrimaryColorName = keyof typeof PRIMARY_COLORS;

export interface AppSettings {
  sideCollapsed: boolean;
  isMobile: boolean;
  theme: 'dark' | 'light';
  layout: 'topmenu' | 'sidemenu';
  contentWidth: 'Fluid' | 'Fixed';
  fixedHeader: boolean;
  fixedSidebar: boolean;
  autoHideHeader: boolean;
  primaryColor: PrimaryColorName;
  weak: boolean;
  multiTab: boolean;
}

export const DEFAULT_SETTINGS: AppSettings = {
  sideCollapsed: false,
  isMobile: false,
  theme: 'dark',
  layout: 'topmenu',
  contentWidth: 'Fixed',
  fixedHeader: true,
  fixedSidebar: true,
  autoHideHeader: false,
  primaryColor: 'default',
  weak: false,
  multiTab: true,
};

/** isMobile follows the window, it is not a choice to keep. */
const PERSISTED = (s: AppSettings) => {
  const { isMobile: _, ...rest } = s;
  return rest;
};

function load(): AppSettings {
  const stored = localStore.get<Partial<AppSettings>>(STORAGE_KEYS.settings) ?? {};
  const merged = { ...DEFAULT_SETTINGS, ...stored, isMobile: false };
  if (!(merged.primaryColor in PRIMARY_COLORS)) merged.primaryColor = 'default';
  return merged;
}

interface SettingsStore extends AppSettings {
  update(patch: Partial<AppSettings>): void;
  reset(): void;
}

export const useSettings = create<SettingsStore>((set, get) => ({
  ...load(),
  update(patch) {
    const next = { ...pick(get()), ...patch };
    // Spec section 4: the side menu gives fluid width; the top menu fixed width and no fixed sidebar.
    if (patch.layout === 'sidemenu') next.contentWidth = 'Fluid';
    if (patch.layout === 'topmenu') {
      next.contentWidth = 'Fixed';
      next.fixedSidebar = false;
    }
    localStore.set(STORAGE_KEYS.settings, PERSISTED(next));
    set(next);
  },
  reset() {
    localStore.set(STORAGE_KEYS.settings, PERSISTED(DEFAULT_SETTINGS));
    set({ ...DEFAULT_SETTINGS, isMobile: get().isMobile });
  },
}));

function pick(s: SettingsStore): AppSettings {
  const { update: _u, reset: _r, ...settings } = s;
  return settings;
}
