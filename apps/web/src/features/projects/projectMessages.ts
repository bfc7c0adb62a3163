import { loadNamespace } from '../../locales/index.ts';

/** The projects' messages: a module that shows them imports this one, so they are in before it renders. */
await loadNamespace('project', { 'zh-CN': () => import('../../locales/project/zh-CN.ts'), 'en-US': () => import('../../locales/project/en-US.ts') });
