import { loadNamespace } from '../../locales/index.ts';

/** The pipe network import's messages: a module that shows them imports this one, so they are in before it renders. */
await loadNamespace('pipelineImport', { 'zh-CN': () => import('../../locales/pipelineImport/zh-CN.ts'), 'en-US': () => import('../../locales/pipelineImport/en-US.ts') });
