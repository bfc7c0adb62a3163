import { create } from 'zustand';

export interface Tab {
  /** pathname + search: the tab's address. */
  key: string;
  /** i18n key of the page title. */
  title: string;
}

interface TabsState {
  tabs: Tab[];
  open(tab: Tab): void;
  /** Removes tabs by key; returns the remaining list. */
  remove(keys: string[]): Tab[];
  clear(): void;
}

/** Pages opened in this browser tab (the multi-tab bar). */
export const useTabs = create<TabsState>((set, get) => ({
  tabs: [],
  open(tab) {
    const tabs = get().tabs;
    const existing = tabs.findIndex((t) => t.key === tab.key);
    if (existing === -1) set({ tabs: [...tabs, tab] });
    else if (tabs[existing].title !== tab.title) set({ tabs: tabs.map((t, i) => (i === existing ? tab : t)) });
  },
  remove(keys) {
    const tabs = get().tabs.filter((t) => !keys.includes(t.key));
    set({ tabs });
    return tabs;
  },
  clear() {
    set({ tabs: [] });
  },
}));
