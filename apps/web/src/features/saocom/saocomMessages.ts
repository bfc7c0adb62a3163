import { loadNamespace } from '../../locales/index.ts';

/** The SAOCOM platform's messages (acquisitions, shown on the POI overlay too): a module that shows them imports this one, so they are in before it renders. */
await loadNamespace('saocom', { 'zh-CN': () => import('../../locales/saocom/zh-CN.ts'), 'en-US': () => import('../../locales/saocom/en-US.ts') });
