import { loadNamespace } from '../../locales/index.ts';

/** The POI overlay's messages: a module that shows them imports this one, so they are in before it renders. */
await loadNamespace('poiControl', { 'zh-CN': () => import('../../locales/poiControl/zh-CN.ts'), 'en-US': () => import('../../locales/poiControl/en-US.ts') });
