import { loadNamespace } from '../../locales/index.ts';

/** Leak detection's messages (POI statuses and priorities, shown by other screens too): a module that shows them imports this one, so they are in before it renders. */
await loadNamespace('leak', { 'zh-CN': () => import('../../locales/leak/zh-CN.ts'), 'en-US': () => import('../../locales/leak/en-US.ts') });
